"""Generated Word files whose truth is the text Word shows (python-docx, plus raw OOXML where it has no API).

Each :class:`Case` has the phrases Word shows (``shown``) and phrases it does not
show although they are in the file (``hidden``: deleted text, field instructions,
placeholder prompts, the VML copy of a drawing, hidden runs). Shown phrases use
words found nowhere else in the file, so counting words measures both what was
lost (recall) and what was read twice (duplication).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from dataclasses import dataclass, field

import docx

REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


@dataclass
class Case:
    name: str
    data: bytes
    shown: list[str]
    hidden: list[str] = field(default_factory=list)


def words(text: str) -> Counter[str]:
    return Counter(re.findall(r"\w+", text.lower()))


def recall_and_duplication(cases: list[Case], texts: dict[str, str]) -> tuple[float, float]:
    """Over all cases: the share of shown words read, and the share read more often than Word shows them."""
    found = extra = total = 0
    for case in cases:
        truth, got = words(" ".join(case.shown)), words(texts[case.name])
        total += sum(truth.values())
        found += sum(min(n, got[w]) for w, n in truth.items())
        extra += sum(max(0, got[w] - n) for w, n in truth.items())
    return found / total, extra / total


def leaked(case: Case, text: str) -> list[str]:
    """Hidden phrases whose own words (those no shown phrase uses) turn up in ``text``."""
    shown, got = words(" ".join(case.shown)), words(text)
    return [h for h in case.hidden if any(w in got for w in words(h) if w not in shown)]


def _save(document: docx.document.Document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _r(text: str, props: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{props}</w:rPr>" if props else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def _p(inner: str) -> str:
    return f"<w:p>{inner}</w:p>"


def _edit(data: bytes, *, raw: dict[str, str] | None = None, document: tuple[str, str] | None = None,
          parts: dict[str, tuple[str, str, str]] | None = None) -> bytes:
    """A copy of a .docx with marker paragraphs (``@@NAME@@``) replaced by raw XML, one literal replacement
    in document.xml, and extra parts added as {name: (xml, relationship type, content type)}."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            body = source.read(info.filename)
            if info.filename == "word/document.xml":
                text = body.decode()
                for marker, xml in (raw or {}).items():
                    pattern = rf"<w:p>(?:(?!</w:p>).)*@@{marker}@@(?:(?!</w:p>).)*</w:p>"
                    text, n = re.subn(pattern, xml.replace("\\", "\\\\"), text)
                    assert n == 1, marker
                if document:
                    assert document[0] in text
                    text = text.replace(document[0], document[1], 1)
                body = text.encode()
            elif info.filename == "word/_rels/document.xml.rels" and parts:
                rels = "".join(f'<Relationship Id="rIdX{i}" Type="{REL}/{kind}" Target="{name[5:]}"/>'
                               for i, (name, (_, kind, _)) in enumerate(parts.items()))
                body = body.replace(b"</Relationships>", rels.encode() + b"</Relationships>")
            elif info.filename == "[Content_Types].xml" and parts:
                types = "".join(f'<Override PartName="/{name}" ContentType="{ctype}"/>'
                                for name, (_, _, ctype) in parts.items())
                body = body.replace(b"</Types>", types.encode() + b"</Types>")
            target.writestr(info, body)
        for name, (xml, _, _) in (parts or {}).items():
            target.writestr(name, xml)
    return out.getvalue()


def _doc(*markers: str, intro: str) -> docx.document.Document:
    document = docx.Document()
    document.add_paragraph(intro)
    for marker in markers:
        document.add_paragraph(f"@@{marker}@@")
    return document


def merged_cells() -> Case:
    document = docx.Document()
    document.add_paragraph("Quarterly staffing grid")
    table = document.add_table(rows=3, cols=3)
    table.cell(0, 0).merge(table.cell(0, 1)).text = "spanning header aurora"
    table.cell(0, 2).text = "lone header basalt"
    table.cell(1, 0).merge(table.cell(2, 0)).text = "tall cell cobalt"
    for r, c, text in ((1, 1, "dune"), (1, 2, "ember"), (2, 1, "fjord"), (2, 2, "glacier")):
        table.cell(r, c).text = f"plain {text}"
    wide = document.add_table(rows=2, cols=4)
    wide.cell(0, 0).merge(wide.cell(1, 3)).text = "whole block harbour"
    return Case("merged-cells", _save(document), ["Quarterly staffing grid", "spanning header aurora",
                "lone header basalt", "tall cell cobalt", "plain dune", "plain ember", "plain fjord",
                "plain glacier", "whole block harbour"])


def nested_table() -> Case:
    document = docx.Document()
    document.add_paragraph("Regional figures outer")
    outer = document.add_table(rows=2, cols=2)
    outer.cell(0, 0).text, outer.cell(0, 1).text = "region label", "detail label"
    outer.cell(1, 0).text = "northern province"
    inner = outer.cell(1, 1).add_table(rows=2, cols=2)
    for (r, c), text in zip([(0, 0), (0, 1), (1, 0), (1, 1)], ["inner quince", "inner rhubarb", "inner saffron",
                                                                 "inner tamarind"]):
        inner.cell(r, c).text = text
    deepest = inner.cell(1, 1).add_table(rows=1, cols=1)
    deepest.cell(0, 0).text = "deepest umber"
    return Case("nested-table", _save(document), ["Regional figures outer", "region label", "detail label",
                "northern province", "inner quince", "inner rhubarb", "inner saffron", "inner tamarind",
                "deepest umber"])


def revisions() -> Case:
    ins = f'<w:ins w:id="1" w:author="Ann" w:date="2024-01-01T00:00:00Z">{_r("accepted insertion velvet ")}</w:ins>'
    dele = ('<w:del w:id="2" w:author="Ann" w:date="2024-01-01T00:00:00Z"><w:r><w:delText xml:space="preserve">'
            "struck wording walnut </w:delText></w:r></w:del>")
    move_from = f'<w:moveFrom w:id="3" w:author="Ann">{_r("relocated sentence xylem ")}</w:moveFrom>'
    move_to = f'<w:moveTo w:id="4" w:author="Ann">{_r("relocated sentence xylem ")}</w:moveTo>'
    row_deleted = ('<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>'
                   f'<w:tr><w:tc>{_p(_r("kept row yarrow"))}</w:tc></w:tr>'
                   '<w:tr><w:trPr><w:del w:id="5" w:author="Ann"/></w:trPr><w:tc><w:p><w:del w:id="6" w:author="Ann">'
                   '<w:r><w:delText>gone row zinnia</w:delText></w:r></w:del></w:p></w:tc></w:tr></w:tbl>')
    raw = {"REV": _p(_r("Contract text ") + ins + dele + _r("stays put")), "MOVE1": _p(move_from),
           "MOVE2": _p(move_to), "ROWS": row_deleted}
    data = _edit(_save(_doc("REV", "MOVE1", "MOVE2", "ROWS", intro="Revision log opening")), raw=raw)
    return Case("revisions", data, ["Revision log opening", "Contract text", "accepted insertion velvet", "stays put",
                "relocated sentence xylem", "kept row yarrow"], ["struck wording walnut", "gone row zinnia"])


def content_controls() -> Case:
    def sdt(content: str, placeholder: bool = False) -> str:
        props = "<w:sdtPr><w:alias w:val=\"Field\"/>" + ("<w:showingPlcHdr/>" if placeholder else "") + "</w:sdtPr>"
        return f"<w:sdt>{props}<w:sdtContent>{content}</w:sdtContent></w:sdt>"

    inline = _p(_r("Client name: ") + sdt(_r("Contoso Fabrikam")))
    block = sdt(_p(_r("block control paragraph osprey")))
    table = ('<w:tbl><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>'
             f'<w:tr><w:tc>{_p(_r("first row pelican"))}</w:tc><w:tc>{_p(_r("first row quail"))}</w:tc></w:tr>'
             + sdt(f'<w:tr><w:tc>{_p(_r("repeating row raven"))}</w:tc>'
                   + sdt(f'<w:tc>{_p(_r("cell control starling"))}</w:tc>') + "</w:tr>") + "</w:tbl>")
    prompt = _p(sdt(_r("Click or tap here to enter text."), placeholder=True))
    data = _edit(_save(_doc("INLINE", "BLOCK", "TABLE", "PROMPT", intro="Engagement letter form")),
                 raw={"INLINE": inline, "BLOCK": block, "TABLE": table, "PROMPT": prompt})
    return Case("content-controls", data, ["Engagement letter form", "Client name:", "Contoso Fabrikam",
                "block control paragraph osprey", "first row pelican", "first row quail", "repeating row raven",
                "cell control starling"], ["Click or tap here to enter text"])


def fields() -> Case:
    def char(kind: str) -> str:
        return f'<w:r><w:fldChar w:fldCharType="{kind}"/></w:r>'

    def instr(text: str) -> str:
        return f'<w:r><w:instrText xml:space="preserve">{text}</w:instrText></w:r>'

    simple = _p(_r("Prepared for ") + '<w:fldSimple w:instr=" DOCPROPERTY Company \\* MERGEFORMAT ">'
                + _r("Northwind Traders") + "</w:fldSimple>")
    link = _p(_r("See the ") + char("begin") + instr(' HYPERLINK "https://intranet.invalid/policy" ') + char("separate")
              + _r("policy portal") + char("end") + _r(" for details"))
    nested = _p(char("begin") + instr(" IF ") + char("begin") + instr(" MERGEFIELD Gender ") + char("separate")
                + _r("Female") + char("end") + instr(' = "Female" "Madam" "Sir" ') + char("separate")
                + _r("Madam") + char("end"))
    toc_start = _p(char("begin") + instr(' TOC \\o "1-3" \\h ') + char("separate") + _r("Contents entry lantern"))
    toc_end = _p(_r("Contents entry meadow") + char("end"))
    data = _edit(_save(_doc("SIMPLE", "LINK", "NESTED", "TOC1", "TOC2", intro="Mail merge letter")),
                 raw={"SIMPLE": simple, "LINK": link, "NESTED": nested, "TOC1": toc_start, "TOC2": toc_end})
    return Case("fields", data, ["Mail merge letter", "Prepared for", "Northwind Traders", "See the", "policy portal",
                "for details", "Madam", "Contents entry lantern", "Contents entry meadow"],
                ["DOCPROPERTY", "MERGEFORMAT", "HYPERLINK", "intranet.invalid", "MERGEFIELD", "Gender", "Female", "Sir",
                 "TOC"])


def ruby_math_hidden() -> Case:
    ruby = _p(_r("Reading aid: ") + '<w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="center"/></w:rubyPr>'
              f'<w:rt>{_r("かんじ")}</w:rt><w:rubyBase>{_r("漢字")}</w:rubyBase></w:ruby></w:r>'
              '<w:r><w:ruby><w:rubyPr/>'
              f'<w:rt>{_r("pronounced kestrel")}</w:rt><w:rubyBase>{_r("written lapwing")}</w:rubyBase></w:ruby></w:r>')
    math = _p(_r("Energy relation ") + '<m:oMath><m:r><m:t>massterm</m:t></m:r><m:r><m:t>=lightspeed</m:t></m:r>'
              "</m:oMath>")
    hidden = _p(_r("Visible remark nightjar ") + _r("concealed remark oriole", "<w:vanish/>"))
    data = _edit(_save(_doc("RUBY", "MATH", "HIDDEN", intro="Glossary of terms")),
                 raw={"RUBY": ruby, "MATH": math, "HIDDEN": hidden})
    return Case("ruby-math-hidden", data, ["Glossary of terms", "Reading aid:", "漢字", "かんじ", "written lapwing",
                "pronounced kestrel", "Energy relation", "massterm", "lightspeed", "Visible remark nightjar"],
                ["concealed remark oriole"])


def two_bodies() -> Case:
    data = _save(_doc(intro="First body paragraph puffin"))
    second = f"</w:body><w:body>{_p(_r('Second body paragraph quokka'))}"
    data = _edit(data, document=("<w:sectPr", second + "<w:sectPr"), raw={})
    return Case("two-bodies", data, ["First body paragraph puffin", "Second body paragraph quokka"])


def text_box() -> Case:
    box = ('<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
           '<wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" '
           'locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
           '<wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>'
           '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>'
           '<wp:extent cx="1828800" cy="457200"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="7" name="Text Box 7"/>'
           '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
           '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp>'
           '<wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="457200"/></a:xfrm>'
           '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr><wps:txbx><w:txbxContent>'
           + _p(_r("Sidebar callout raccoon")) + "</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData>"
           '</a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape id="Text Box 7" '
           'style="width:144pt;height:36pt"><v:textbox><w:txbxContent>' + _p(_r("Sidebar callout raccoon"))
           + "</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
           + _r("Body beside box sparrow") + "</w:p>")
    vml = ('<w:p><w:r><w:pict><v:shape id="old" style="width:100pt;height:30pt"><v:textbox><w:txbxContent>'
           + _p(_r("Legacy shape tortoise")) + "</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>")
    data = _edit(_save(_doc("BOX", "VML", intro="Brochure front page")), raw={"BOX": box, "VML": vml})
    return Case("text-box", data, ["Brochure front page", "Body beside box sparrow", "Sidebar callout raccoon",
                "Legacy shape tortoise"])


def notes_and_margins(body: str = "Annual report summary walrus") -> Case:
    """Header (the same on the first page: read once), footer, footnotes, endnotes and a comment."""
    document = docx.Document()
    paragraph = document.add_paragraph(body)
    document.add_comment(paragraph.runs, text="question about yellowhammer", author="Dana Reviewer")
    section = document.sections[0]
    section.header.paragraphs[0].text = "Confidential banner albatross"
    section.different_first_page_header_footer = True
    section.first_page_header.paragraphs[0].text = "Confidential banner albatross"
    section.footer.paragraphs[0].text = "Printed copy bittern"
    reference = ('<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'
                 '<w:r><w:endnoteReference w:id="1"/></w:r></w:p>')
    notes = {}
    for kind, tag in (("footnotes", "footnote"), ("endnotes", "endnote")):
        text = {"footnotes": "Source citation cormorant", "endnotes": "Closing remark dipper"}[kind]
        xml = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{kind} xmlns:w="{W_NS}">'
               f'<w:{tag} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{tag}>'
               f'<w:{tag} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
               f'</w:{tag}><w:{tag} w:id="1"><w:p><w:r><w:footnoteRef/></w:r>{_r(" " + text)}</w:p></w:{tag}></w:{kind}>')
        ctype = f"application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}+xml"
        notes[f"word/{kind}.xml"] = (xml, kind, ctype)
    data = _edit(_save(document), document=(f"{body}</w:t></w:r>", f"{body}</w:t></w:r>"), parts=notes)
    data = _edit(data, document=("<w:commentReference w:id=\"0\"/></w:r></w:p>",
                                 "<w:commentReference w:id=\"0\"/></w:r>" + reference))
    return Case("notes-and-margins", data, [body, "Confidential banner albatross", "Printed copy bittern",
                "Source citation cormorant", "Closing remark dipper", "question about yellowhammer"])


def only_in_margins() -> Case:
    """No body text at all: the text is in the header, the footer and a comment."""
    document = docx.Document()
    run = document.add_paragraph().add_run("")
    document.add_comment(run, text="margin comment egret", author="Eve")
    document.sections[0].header.paragraphs[0].text = "Letterhead flamingo"
    document.sections[0].footer.paragraphs[0].text = "Registered office gannet"
    return Case("only-in-margins", _save(document), ["Letterhead flamingo", "Registered office gannet",
                "margin comment egret"])


def all_cases() -> list[Case]:
    return [merged_cells(), nested_table(), revisions(), content_controls(), fields(), ruby_math_hidden(),
            two_bodies(), text_box(), notes_and_margins(), only_in_margins()]
