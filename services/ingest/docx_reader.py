"""A .docx in document order: title, headings, paragraphs, list items, tables, captions and drawings.

python-docx gives the document model; lxml reads what it has no API for
(drawings inside runs, markup-compatibility choices). Drawings are read from
``mc:Choice`` (DrawingML) and never again from their VML ``mc:Fallback`` copy.
The text handed to the chunker renders each block as Markdown-like text; a
diagram becomes a "Flowchart N: …" paragraph listing its steps, so its words
are searchable. Blocks near a diagram (just before and after it, or referring
to it) are recorded as spans linked to the diagram.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree

from services.ingest.docx_diagrams import NS, Diagram, diagram_from_group

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument

_REFERS = re.compile(r"\b(flow ?chart|diagram|figure|as shown (?:below|above)|the following (?:chart|steps|process))\b",
                     re.I)
_REFERS_BACK = re.compile(r"\b(above|previous|preceding)\b", re.I)
_CAPTION = re.compile(r"^(figure|fig\.|diagram|flowchart)\s*\d+", re.I)


@dataclass
class Block:
    kind: str  # title | heading | paragraph | list_item | caption | table | diagram
    text: str = ""
    level: int = 0
    rows: list[list[str]] = field(default_factory=list)
    diagram: Diagram | None = None


def _drawings(paragraph: etree._Element) -> list[etree._Element]:
    """w:drawing elements of a paragraph, skipping VML fallback copies."""
    found = []
    for drawing in paragraph.iterfind(".//w:drawing", NS):
        if any(etree.QName(a).localname == "Fallback" for a in drawing.iterancestors()):
            continue
        found.append(drawing)
    return found


def _diagram(drawing: etree._Element, index: int, document: DocxDocument) -> Diagram | None:
    floating = drawing.find("wp:anchor", NS) is not None
    data = drawing.find(".//a:graphicData", NS)
    if data is None:
        return None
    group = data.find("wpg:wgp", NS)
    if group is None:
        group = data.find("wpc:wpc", NS)
    if group is not None:
        return diagram_from_group(group, index, "floating_group" if floating else "inline_group")
    pic = data.find("pic:pic", NS)
    if pic is not None:
        blip = pic.find(".//a:blip", NS)
        rel = blip.get(f"{{{NS['r']}}}embed") if blip is not None else None
        part = document.part.related_parts.get(rel) if rel else None
        image = getattr(part, "blob", None)
        content_type = getattr(part, "content_type", None)
        return Diagram(index, "image", "floating_picture" if floating else "inline_picture",
                       image=image, image_type=content_type)
    return None


def _paragraph_kind(style: str, has_numbering: bool) -> tuple[str, int]:
    heading = re.match(r"Heading (\d)", style)
    if heading:
        return "heading", int(heading.group(1))
    if style == "Title":
        return "title", 0
    if style.startswith("Caption"):
        return "caption", 0
    if "List" in style or has_numbering:
        return "list_item", 0
    return "paragraph", 0


def read_blocks(document: DocxDocument) -> list[Block]:
    """Body blocks in reading order, drawings included where they stand."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    blocks: list[Block] = []
    index = 0
    body = document.element.body
    pending = list(body.iterchildren())
    while pending:
        child = pending.pop(0)
        tag = etree.QName(child).localname
        if tag == "sdt":  # content controls wrap ordinary paragraphs and tables
            content = child.find("w:sdtContent", NS)
            pending[:0] = list(content.iterchildren()) if content is not None else []
        elif tag == "p":
            para = Paragraph(child, document)
            for drawing in _drawings(child):
                diagram = _diagram(drawing, index + 1, document)
                if diagram is not None and (diagram.nodes or diagram.image):
                    index += 1
                    blocks.append(Block("diagram", diagram=diagram))
            text = " ".join(para.text.split())
            if not text:
                continue
            style = (para.style.name if para.style is not None else "") or ""
            kind, level = _paragraph_kind(style, child.find("w:pPr/w:numPr", NS) is not None)
            if kind == "paragraph" and _CAPTION.match(text) and len(text) < 200:
                kind = "caption"
            blocks.append(Block(kind, text, level))
        elif tag == "tbl":
            rows = [[" ".join(cell.text.split()) for cell in row.cells] for row in Table(child, document).rows]
            if rows:
                blocks.append(Block("table", rows=rows))
    return blocks


def diagram_summary(diagram: Diagram) -> str:
    if diagram.representation == "image":
        return f"Flowchart {diagram.index} (a picture)."
    steps = "; ".join(n.text for n in diagram.nodes if n.text)
    return f"Flowchart {diagram.index}: {steps}."


def render(blocks: list[Block]) -> tuple[str, list[tuple[int, int, int]]]:
    """Text for the chunker, and (char_start, char_end, diagram index) spans linking text to diagrams."""
    parts: list[tuple[Block, str]] = []
    shift = 1 if any(b.kind == "title" for b in blocks) else 0  # under a Title, Heading 1 becomes ##
    for block in blocks:
        if block.kind == "title":
            parts.append((block, f"# {block.text}"))
        elif block.kind == "heading":
            parts.append((block, "#" * min(block.level + shift, 6) + " " + block.text))
        elif block.kind == "list_item":
            parts.append((block, f"- {block.text}"))
        elif block.kind == "table":
            parts.append((block, "\n".join("| " + " | ".join(r) + " |" for r in block.rows)))
        elif block.kind == "diagram" and block.diagram is not None:
            parts.append((block, diagram_summary(block.diagram)))
        else:
            parts.append((block, block.text))
    text, offsets = "", []
    for _, piece in parts:
        if text:
            text += "\n\n"
        offsets.append((len(text), len(text) + len(piece)))
        text += piece
    spans = []
    diagram_positions = [i for i, (b, _) in enumerate(parts) if b.kind == "diagram"]
    for pos in diagram_positions:
        number = parts[pos][0].diagram.index  # type: ignore[union-attr]
        linked = {pos}
        before = next((i for i in range(pos - 1, -1, -1) if parts[i][0].kind not in ("diagram",)), None)
        after = next((i for i in range(pos + 1, len(parts)) if parts[i][0].kind not in ("diagram",)), None)
        linked |= {i for i in (before, after) if i is not None}
        spans += [(offsets[i][0], offsets[i][1], number) for i in sorted(linked)]
    for i, (block, piece) in enumerate(parts):  # paragraphs that refer to a diagram
        if block.kind in ("paragraph", "list_item", "caption") and _REFERS.search(piece) and diagram_positions:
            back = _REFERS_BACK.search(piece)
            earlier = [p for p in diagram_positions if p < i]
            later = [p for p in diagram_positions if p > i]
            target = (earlier[-1] if earlier else later[0]) if back else (later[0] if later else earlier[-1])
            number = parts[target][0].diagram.index  # type: ignore[union-attr]
            if (offsets[i][0], offsets[i][1], number) not in spans:
                spans.append((offsets[i][0], offsets[i][1], number))
    return text, sorted(spans)
