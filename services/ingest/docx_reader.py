"""A .docx in reading order: the body's blocks, then headers, footers, notes and comments as labelled sections.

The main document is streamed (``lxml.etree.iterparse``): each top-level block of
every ``w:body`` is read when its end tag arrives and then freed, so memory
stays at one block however long the document, and every block costs the same
(styles are resolved once per style id, see :mod:`services.ingest.docx_text`).
The reader calls the parse budget's checkpoint every block and table row, so a
file that takes too long is refused and a job's Cancel stops it.

Tables are read cell by cell from ``w:tc``: a cell spanning columns
(``gridSpan``) or rows (``vMerge``) is read once, and nested tables are kept,
flattened into their cell. A drawing group or canvas becomes a diagram
("Flowchart N: …" in the text, so its words are searchable); a lone text box
becomes the paragraphs it holds. Blocks near a diagram (just before and after
it, or referring to it) are recorded as spans linked to the diagram.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from services.ingest.budget import ParseBudget, current_budget
from services.ingest.docx_diagrams import NS, Diagram, diagram_from_group
from services.ingest.docx_package import DocxPackage, PartUnreadable, open_package, refuse
from services.ingest.docx_text import MC, InlineText, Styles, W, choice, on

_REFERS = re.compile(r"\b(flow ?chart|diagram|figure|as shown (?:below|above)|the following (?:chart|steps|process))\b",
                     re.I)
_REFERS_BACK = re.compile(r"\b(above|previous|preceding)\b", re.I)
_CAPTION = re.compile(r"^(figure|fig\.|diagram|flowchart)\s*\d+", re.I)
_BLOCK_TAGS = (W + "p", W + "tbl", W + "sdt", W + "customXml", MC + "AlternateContent")
_IMAGE_TYPES = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "bmp": "image/bmp",
                "tif": "image/tiff", "tiff": "image/tiff", "emf": "image/x-emf", "wmf": "image/x-wmf",
                "svg": "image/svg+xml"}
# (relationship kind, section label, the note element or None for a whole-part header/footer)
SECTIONS = (("header", "Headers", None), ("footer", "Footers", None), ("footnotes", "Footnotes", W + "footnote"),
            ("endnotes", "Endnotes", W + "endnote"), ("comments", "Comments", W + "comment"))
_PPR, _PSTYLE, _NUMPR, _VAL = W + "pPr", W + "pStyle", W + "numPr", W + "val"
_STRICT_DOCUMENT = "{http://purl.oclc.org/ooxml/wordprocessingml/main}document"
_DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"


@dataclass
class Block:
    kind: str  # title | heading | paragraph | list_item | caption | table | diagram | section
    text: str = ""
    level: int = 0
    rows: list[list[str]] = field(default_factory=list)
    diagram: Diagram | None = None


@dataclass
class DocxContent:
    blocks: list[Block]  # the body
    sections: list[tuple[str, list[Block]]]  # (label, blocks): Headers, Footers, Footnotes, Endnotes, Comments
    title: str | None = None
    warnings: list[str] = field(default_factory=list)  # parts that were damaged and skipped


def read_docx(data: bytes, name: str) -> DocxContent:
    """Read a .docx; raises :class:`UnsupportedInput` (with the reason in words) when its text cannot be read."""
    budget = current_budget()
    package = open_package(data, name)
    styles_part = next(iter(package.related("styles")), "word/styles.xml")
    budget.check(name)
    styles = Styles(package.optional_xml(styles_part), check=lambda: budget.check(name))
    reader = _Reader(package, styles, budget)
    blocks = reader.body()
    sections = reader.sections()
    core = package.optional_xml("docProps/core.xml")
    title = (core.findtext(_DC_TITLE) or "").strip() or None if core is not None else None
    return DocxContent(blocks, sections, title, package.warnings)


class _Reader:
    def __init__(self, package: DocxPackage, styles: Styles, budget: ParseBudget) -> None:
        self.package, self.styles, self.budget = package, styles, budget
        self.name = package.name
        self.inline = InlineText(styles)
        self.diagrams = 0
        self.in_section = False  # pictures in headers and notes are logos and icons, not flowcharts

    # -- the main document, streamed ----------------------------------------------------------------
    def body(self) -> list[Block]:
        out: list[Block] = []
        main = self.package.main
        try:
            with self.package.stream(main) as raw:
                events = etree.iterparse(raw, events=("end",), tag=_BLOCK_TAGS, resolve_entities=False,
                                         no_network=True, load_dtd=False, huge_tree=False)
                checked = False
                for _, el in events:
                    if not checked:
                        self._refuse_dtd(el.getroottree().docinfo)
                        checked = True
                    parent = el.getparent()
                    if parent is None or parent.tag != W + "body":
                        continue
                    self.block(el, out)
                    el.clear(keep_tail=False)  # done with it: free the block and everything before it
                    while el.getprevious() is not None:
                        del parent[0]
                if not checked and events.root is not None:
                    self._refuse_dtd(events.root.getroottree().docinfo)
                    if events.root.tag == _STRICT_DOCUMENT:
                        raise refuse(self.name, "this is a Strict Open XML document, which this reader cannot read; "
                                                "save it in Word as a Word Document (.docx) and try again.")
        except PartUnreadable as exc:
            if not exc.damaged:
                raise refuse(self.name, f"refused: {exc.reason}.") from None
            raise refuse(self.name, f"the file is damaged: {exc.reason}, and that part holds the document's text.") \
                from None
        except etree.XMLSyntaxError as exc:
            raise refuse(self.name, f"the file is damaged: {main}, which holds the document's text, is not "
                                    f"well-formed XML ({exc.msg}).") from None
        return out

    def _refuse_dtd(self, docinfo: etree.DocInfo) -> None:
        if docinfo.internalDTD is not None or docinfo.doctype:
            raise refuse(self.name, f"refused: {self.package.main} declares a DTD (<!DOCTYPE …>), which Word never "
                                    "writes; it can hide an entity bomb.")

    # -- blocks -------------------------------------------------------------------------------------
    def blocks(self, container: etree._Element) -> list[Block]:
        out: list[Block] = []
        for child in container:
            self.block(child, out)
        return out

    def block(self, el: etree._Element, out: list[Block]) -> None:
        tag = el.tag
        if tag == W + "p":
            self.paragraph(el, out)
        elif tag == W + "tbl":
            self.table(el, out)
        elif tag == W + "sdt":
            content = el.find(W + "sdtContent")
            props = el.find(W + "sdtPr")
            if content is not None and not (props is not None and on(props.find(W + "showingPlcHdr"))):
                for child in content:
                    self.block(child, out)
        elif tag == MC + "AlternateContent":
            branch = choice(el)
            if branch is not None:
                for child in branch:
                    self.block(child, out)
        elif tag in (W + "customXml", W + "ins", W + "moveTo", W + "smartTag"):
            for child in el:
                self.block(child, out)

    def paragraph(self, p: etree._Element, out: list[Block]) -> None:
        self.budget.check(self.name)
        objects: list[etree._Element] = []
        text = self.inline.paragraph(p, objects)
        boxes: list[Block] = []
        for obj in objects:
            diagram = self._diagram(obj) if obj.tag == W + "drawing" and not self.in_section else None
            if diagram is not None:
                out.append(Block("diagram", diagram=diagram))
            else:
                for content in _outermost(obj, W + "txbxContent"):
                    boxes += self.blocks(content)
        if text:
            props = p[0] if len(p) and p[0].tag == _PPR else None  # w:pPr comes first when present
            style = props.find(_PSTYLE) if props is not None else None
            kind, level = self.styles.paragraph_kind(style.get(_VAL) if style is not None else None)
            if kind == "paragraph" and props is not None and props.find(_NUMPR) is not None:
                kind = "list_item"
            if kind == "paragraph" and _CAPTION.match(text) and len(text) < 200:
                kind = "caption"
            out.append(Block(kind, text, level))
        out += boxes

    def table(self, tbl: etree._Element, out: list[Block]) -> None:
        rows: list[list[str]] = []
        hoisted: list[Block] = []
        for tr in _children(tbl, W + "tr"):
            self.budget.check(self.name)
            props = tr.find(W + "trPr")
            if props is not None and props.find(W + "del") is not None:
                continue  # a row deleted with tracked changes on
            cells = [self._cell(tc, hoisted) for tc in _children(tr, W + "tc")]
            if any(cells):
                rows.append(cells)
        if rows:
            out.append(Block("table", rows=rows))
        out += hoisted

    def _cell(self, tc: etree._Element, hoisted: list[Block]) -> str:
        """A cell's text once, nested tables flattened into it ("a / b; c / d"); its diagrams go after the table."""
        parts = []
        for block in self.blocks(tc):
            if block.kind == "table":
                parts.append("; ".join(" / ".join(c for c in row if c) for row in block.rows))
            elif block.kind == "diagram":
                hoisted.append(block)
            elif block.text:
                parts.append(block.text)
        return " ".join(parts)

    # -- drawings -----------------------------------------------------------------------------------
    def _diagram(self, drawing: etree._Element) -> Diagram | None:
        """A flowchart (drawing group or canvas with text) or a picture; None for a lone shape or text box."""
        floating = drawing.find("wp:anchor", NS) is not None
        data = drawing.find(".//a:graphicData", NS)
        if data is None:
            return None
        group = data.find("wpg:wgp", NS)
        if group is None:
            group = data.find("wpc:wpc", NS)
        if group is not None:
            diagram = diagram_from_group(group, self.diagrams + 1, "floating_group" if floating else "inline_group")
            return self._kept(diagram) if diagram.nodes else None
        pic = data.find("pic:pic", NS)
        if pic is not None:
            blip = pic.find(".//a:blip", NS)
            rel = blip.get(f"{{{NS['r']}}}embed") if blip is not None else None
            target = self.package.target(rel) if rel else None
            image = self._image(target) if target else None
            if image is None:
                return None
            kind = _IMAGE_TYPES.get(posixpath.splitext(target or "")[1].lstrip(".").lower())
            return self._kept(Diagram(self.diagrams + 1, "image", "floating_picture" if floating else "inline_picture",
                                      image=image, image_type=kind))
        return None

    def _kept(self, diagram: Diagram) -> Diagram:
        self.diagrams += 1
        return diagram

    def _image(self, part: str) -> bytes | None:
        try:
            return self.package.read(part)
        except PartUnreadable as exc:
            self.package.warnings.append(f"{exc.reason}; the picture was skipped")
            return None

    # -- headers, footers, notes, comments ----------------------------------------------------------
    def sections(self) -> list[tuple[str, list[Block]]]:
        """Each kind of secondary part as one labelled section of plain blocks (repeated header lines once)."""
        self.in_section = True
        found = []
        for kind, label, note_tag in SECTIONS:
            blocks: list[Block] = []
            for part in sorted(self.package.related(kind), key=_natural):
                root = self.package.optional_xml(part)
                if root is None:
                    continue
                self.inline.reset()
                if note_tag is None:
                    blocks += self.blocks(root)
                else:
                    blocks += self._notes(root, note_tag)
            blocks = _plain(blocks, dedupe=note_tag is None)
            if blocks:
                found.append((label, blocks))
        return found

    def _notes(self, root: etree._Element, tag: str) -> list[Block]:
        out = []
        for note in root.iterfind(tag):
            if note.get(W + "type") not in (None, "normal"):
                continue  # the separator lines between text and notes
            blocks = self.blocks(note)
            if tag == W + "comment":
                text = " ".join(b.text for b in _plain(blocks, dedupe=False))
                author = (note.get(W + "author") or "").strip()
                if text:
                    out.append(Block("paragraph", f"{author}: {text}" if author else text))
            else:
                out += blocks
        return out


def _plain(blocks: list[Block], *, dedupe: bool) -> list[Block]:
    """Blocks of a section as paragraphs and tables (no headings of their own), optionally each text once."""
    out, seen = [], set()
    for block in blocks:
        if block.kind == "diagram":
            continue
        if block.kind in ("title", "heading", "caption"):
            block = Block("paragraph", block.text)
        key = block.text if block.kind != "table" else repr(block.rows)
        if dedupe and key in seen:
            continue
        seen.add(key)
        out.append(block)
    return out


def _children(el: etree._Element, tag: str) -> Iterator[etree._Element]:
    """Rows of a table or cells of a row, also those wrapped in content controls or custom XML."""
    for child in el:
        if child.tag == tag:
            yield child
        elif child.tag == W + "sdt":
            content = child.find(W + "sdtContent")
            if content is not None:
                yield from _children(content, tag)
        elif child.tag in (W + "customXml", W + "ins", W + "moveTo"):
            yield from _children(child, tag)
        elif child.tag == MC + "AlternateContent":
            branch = choice(child)
            if branch is not None:
                yield from _children(branch, tag)


def _outermost(el: etree._Element, tag: str) -> Iterator[etree._Element]:
    """Descendants with ``tag`` that are not inside another one (a text box's own drawings are read with it)."""
    for child in el:
        if child.tag == tag:
            yield child
        elif child.tag != MC + "Fallback":
            yield from _outermost(child, tag)


def _natural(name: str) -> tuple[str, int]:
    match = re.search(r"(\d+)\.xml$", name)
    return (name[: match.start()] if match else name, int(match.group(1)) if match else 0)


def diagram_summary(diagram: Diagram) -> str:
    if diagram.representation == "image":
        return f"Flowchart {diagram.index} (a picture)."
    steps = "; ".join(n.text for n in diagram.nodes if n.text)
    return f"Flowchart {diagram.index}: {steps}."


def _piece(block: Block, shift: int) -> str:
    if block.kind == "title":
        return f"# {block.text}"
    if block.kind == "heading":
        return "#" * min(block.level + shift, 6) + " " + block.text
    if block.kind == "section":
        return f"# {block.text}"
    if block.kind == "list_item":
        return f"- {block.text}"
    if block.kind == "table":
        return "\n".join("| " + " | ".join(r) + " |" for r in block.rows)
    if block.kind == "diagram" and block.diagram is not None:
        return diagram_summary(block.diagram)
    return block.text


def render(content: DocxContent | list[Block]) -> tuple[str, list[tuple[int, int, int]]]:
    """Text for the chunker, and (char_start, char_end, diagram index) spans linking text to diagrams.

    The body comes first; each section follows under a level-1 heading of its label
    (``# Footnotes``), so its chunks carry that heading path.
    """
    if isinstance(content, list):
        content = DocxContent(content, [])
    body = content.blocks
    shift = 1 if any(b.kind == "title" for b in body) else 0  # under a Title, Heading 1 becomes ##
    blocks = list(body)
    for label, section in content.sections:
        blocks.append(Block("section", label))
        blocks += section
    pieces = [_piece(b, shift) for b in blocks]
    offsets, at = [], 0
    for piece in pieces:
        offsets.append((at, at + len(piece)))
        at += len(piece) + 2
    text = "\n\n".join(pieces)
    spans: set[tuple[int, int, int]] = set()
    diagram_positions = [i for i, b in enumerate(blocks) if b.kind == "diagram"]
    for pos in diagram_positions:
        number = blocks[pos].diagram.index  # type: ignore[union-attr]
        before = next((i for i in range(pos - 1, -1, -1) if blocks[i].kind != "diagram"), None)
        after = next((i for i in range(pos + 1, len(blocks)) if blocks[i].kind != "diagram"), None)
        spans |= {(offsets[i][0], offsets[i][1], number) for i in (pos, before, after) if i is not None}
    if diagram_positions:
        import bisect

        for i, (block, piece) in enumerate(zip(blocks, pieces)):  # paragraphs that refer to a diagram
            if block.kind in ("paragraph", "list_item", "caption") and _REFERS.search(piece):
                at_i = bisect.bisect_left(diagram_positions, i)
                earlier = diagram_positions[at_i - 1] if at_i > 0 else None
                later = diagram_positions[at_i] if at_i < len(diagram_positions) else None
                back = _REFERS_BACK.search(piece)
                target = (earlier if earlier is not None else later) if back else (later if later is not None else earlier)
                spans.add((offsets[i][0], offsets[i][1], blocks[target].diagram.index))  # type: ignore[index,union-attr]
    return text, sorted(spans)
