"""Word files written as raw OOXML: a large report, and packages with hand-made parts.

``large_docx`` writes the markup Word writes (rsid attributes, run properties,
proofing marks, bookmarks) so that ``document.xml`` is several times the size of
its text, as in real reports, with thousands of styles in ``styles.xml``. Its
paragraph ``i`` holds the token ``para{i}``, so a test can check every one arrived.
Also used by ``scripts/bench/bench_docx.py``.
"""

from __future__ import annotations

import io
import random
import zipfile
from xml.sax.saxutils import escape

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
WORDS = ("harbour ledger quarterly forecast revenue margin audit tender supplier freight invoice policy "
         "committee review budget variance capital reserve pension actuary treasury liquidity covenant "
         "warehouse inventory logistics customs tariff compliance regulator licence inspection safety "
         "turbine reservoir pipeline substation grid outage maintenance contractor schedule milestone").split()
CONTENT_TYPES = {
    "word/document.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "word/styles.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
    "word/header1.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml",
    "word/footer1.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml",
    "word/footnotes.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
    "word/endnotes.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml",
    "word/comments.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
}
REL_TYPES = {"word/styles.xml": "styles", "word/header1.xml": "header", "word/footer1.xml": "footer",
             "word/footnotes.xml": "footnotes", "word/endnotes.xml": "endnotes", "word/comments.xml": "comments"}


def package(parts: dict[str, str | bytes], *, stored: tuple[str, ...] = ()) -> bytes:
    """A .docx zip of ``parts`` (document.xml and friends), with content types and relationships made up.

    ``stored`` names parts written uncompressed (so a test can damage their bytes in place).
    """
    overrides = "".join(f'<Override PartName="/{name}" ContentType="{ctype}"/>'
                        for name, ctype in CONTENT_TYPES.items() if name in parts)
    files: dict[str, str | bytes] = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>' + overrides + "</Types>"),
        "_rels/.rels": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>'),
        "word/_rels/document.xml.rels": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(f'<Relationship Id="rId{i + 10}" Type="{REL}/{kind}" Target="{name[5:]}"/>'
                      for i, (name, kind) in enumerate(REL_TYPES.items()) if name in parts)
            + "</Relationships>"),
        **parts,
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in files.items():
            zf.writestr(name, body, zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED)
    return out.getvalue()


def document_xml(body: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{W_NS}" xmlns:r="{R_NS}">'
            f"<w:body>{body}<w:sectPr/></w:body></w:document>")


def part_xml(root: str, inner: str) -> str:
    """A header, footer, footnotes, endnotes or comments part around ``inner``."""
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{root} xmlns:w="{W_NS}">{inner}</w:{root}>'


def para(text: str, style: str | None = None) -> str:
    props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f'<w:p>{props}<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>'


def styles_xml(count: int) -> str:
    """Word's built-in styles plus ``count`` custom paragraph styles, some based on others."""
    builtin = [("Normal", "Normal", None, ""), ("Title", "Title", "Normal", ""), ("Caption", "caption", "Normal", ""),
               ("ListParagraph", "List Paragraph", "Normal", "")]
    builtin += [(f"Heading{n}", f"heading {n}", "Normal", f'<w:pPr><w:outlineLvl w:val="{n - 1}"/></w:pPr>')
                for n in range(1, 4)]
    custom = [(f"Custom{i}", f"Custom Style {i}", f"Custom{i // 2}" if i > 1 else "Normal",
               f'<w:rPr><w:sz w:val="{18 + i % 8}"/></w:rPr>') for i in range(count)]
    body = "".join(
        f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/>'
        + (f'<w:basedOn w:val="{base}"/>' if base else "") + f'<w:qFormat/>{props}</w:style>'
        for sid, name, base, props in builtin + custom)
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="{W_NS}">{body}</w:styles>'


def _run(text: str, rng: random.Random) -> str:
    rsid = f"{rng.randrange(16**8):08X}"
    return (f'<w:r w:rsidR="{rsid}" w:rsidRPr="{rsid}"><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" '
            f'w:cs="Calibri"/><w:color w:val="1F1F1F"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-GB"/>'
            f'</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>')


def _paragraph(i: int, style: str, rng: random.Random, runs: int) -> str:
    words = [rng.choice(WORDS) for _ in range(runs * 5)]
    pieces = [" ".join(words[k * 5 : k * 5 + 5]) + " " for k in range(runs)]
    pieces[0] = f"para{i} " + pieces[0]
    body = "".join(_run(p, rng) for p in pieces)
    if i % 7 == 0:  # proofing marks and bookmarks, as Word leaves them
        body = f'<w:proofErr w:type="spellStart"/>{body}<w:proofErr w:type="spellEnd"/>'
    if i % 11 == 0:
        body = f'<w:bookmarkStart w:id="{i}" w:name="_Ref{i}"/>{body}<w:bookmarkEnd w:id="{i}"/>'
    rsid = f"{rng.randrange(16**8):08X}"
    return (f'<w:p w:rsidR="{rsid}" w:rsidRDefault="{rsid}" w:rsidP="{rsid}"><w:pPr><w:pStyle w:val="{style}"/>'
            f'<w:spacing w:after="120" w:line="276" w:lineRule="auto"/><w:jc w:val="both"/></w:pPr>{body}</w:p>')


def _table(t: int, rows: int, rng: random.Random) -> str:
    """A table whose first row has a cell spanning two columns and whose first column merges vertically."""
    out = ['<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
           '<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>']
    for r in range(rows):
        cells = []
        if r == 0:
            cells.append(f'<w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr>{para(f"table{t} header span")}</w:tc>')
            cells.append(f"<w:tc>{para(f'table{t} header last')}</w:tc>")
        else:
            merge = '<w:vMerge w:val="restart"/>' if r == 1 else "<w:vMerge/>"
            first = para(f"table{t} group") if r == 1 else "<w:p/>"
            cells.append(f"<w:tc><w:tcPr>{merge}</w:tcPr>{first}</w:tc>")
            cells += [f"<w:tc>{para(f'table{t} row{r} col{c} ' + rng.choice(WORDS))}</w:tc>" for c in (1, 2)]
        out.append("<w:tr>" + "".join(cells) + "</w:tr>")
    return "".join(out) + "</w:tbl>"


def large_docx(paragraphs: int = 20_000, *, styles: int = 2_000, tables: int = 4, runs: int = 3,
               seed: int = 5) -> bytes:
    """A long report: ``paragraphs`` paragraphs over many styles, a heading every 40, and ``tables`` tables."""
    rng = random.Random(seed)
    parts: list[str] = []
    table_every = max(1, paragraphs // (tables + 1))
    for i in range(paragraphs):
        if i % 40 == 0:
            parts.append(para(f"Section heading {i // 40}", f"Heading{1 + (i // 40) % 3}"))
        style = "Normal" if i % 3 == 0 else f"Custom{(i * 7919) % styles}"
        parts.append(_paragraph(i, style, rng, runs))
        if tables and i % table_every == table_every - 1 and i // table_every < tables:
            parts.append(_table(i // table_every, 12, rng))
    return package({"word/document.xml": document_xml("".join(parts)), "word/styles.xml": styles_xml(styles)})


def document_xml_size(data: bytes) -> int:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return zf.getinfo("word/document.xml").file_size
