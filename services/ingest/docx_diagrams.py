"""Flowcharts drawn with DrawingML shapes in a .docx, rebuilt as graphs without an LLM.

Each node is a shape with text; its kind comes from the preset geometry. Each
connector (a shape with ``wps:cNvCnPr``) becomes a directed edge: from its
``a:stCxn``/``a:endCxn`` references when present, otherwise by matching the
ends of its path to the nearest shape sides. The path runs from corner (0,0)
to (cx,cy) of the connector's box, after flipH/flipV and then rotation about
the centre; the arrowhead (tailEnd) gives the direction. Edge labels are
borderless text boxes; each goes to the connector whose start is nearest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from lxml import etree

NS = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
    "wpg": "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup",
    "wpc": "http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "pic": "http://schemas.openxmlformats.org/drawingml/2006/picture",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "v": "urn:schemas-microsoft-com:vml",
}
KINDS = {
    "flowChartTerminator": "start_end", "flowChartProcess": "process", "flowChartDecision": "decision",
    "flowChartInputOutput": "data", "flowChartDocument": "document", "flowChartMultidocument": "document",
    "flowChartPredefinedProcess": "subprocess", "flowChartAlternateProcess": "process",
    "flowChartPreparation": "process", "flowChartManualOperation": "process", "flowChartManualInput": "data",
    "flowChartMagneticDisk": "data", "flowChartOnlineStorage": "data", "flowChartConnector": "connector",
    "flowChartOffpageConnector": "connector", "ellipse": "start_end", "roundRect": "start_end",
    "diamond": "decision", "parallelogram": "data",
}


@dataclass
class DiagramNode:
    id: str
    text: str
    kind: str
    box: tuple[float, float, float, float]  # x, y, width, height in EMU


@dataclass
class DiagramEdge:
    source: str
    target: str
    label: str | None = None


@dataclass
class Diagram:
    index: int
    representation: str  # "shapes" or "image"
    layout: str  # inline_group, floating_group, inline_picture, floating_picture
    nodes: list[DiagramNode] = field(default_factory=list)
    edges: list[DiagramEdge] = field(default_factory=list)
    image: bytes | None = None
    image_type: str | None = None
    id: str = ""  # set once the document is known (see docx_parser)


@dataclass
class _Shape:
    box: tuple[float, float, float, float]
    rot: float
    flip_h: bool
    flip_v: bool
    preset: str
    text: str
    connector: bool
    label_like: bool
    shape_id: str | None
    start_ref: str | None
    end_ref: str | None
    head: str | None
    tail: str | None


def _text(el: etree._Element) -> str:
    paragraphs = []
    for p in el.iterfind(".//w:txbxContent/w:p", NS):
        paragraphs.append("".join(t.text or "" for t in p.iterfind(".//w:t", NS)))
    return " ".join(" ".join(paragraphs).split())


def _xfrm(xfrm: etree._Element | None) -> tuple[tuple[float, float, float, float], float, bool, bool]:
    if xfrm is None:
        return (0.0, 0.0, 0.0, 0.0), 0.0, False, False
    off, ext = xfrm.find("a:off", NS), xfrm.find("a:ext", NS)
    box = (float(off.get("x", 0)) if off is not None else 0.0, float(off.get("y", 0)) if off is not None else 0.0,
           float(ext.get("cx", 0)) if ext is not None else 0.0, float(ext.get("cy", 0)) if ext is not None else 0.0)
    return box, float(xfrm.get("rot", 0)) / 60000.0, xfrm.get("flipH") == "1", xfrm.get("flipV") == "1"


def _shape(wsp: etree._Element, transform: tuple[float, float, float, float]) -> _Shape:
    sp_pr = wsp.find("wps:spPr", NS)
    box, rot, flip_h, flip_v = _xfrm(sp_pr.find("a:xfrm", NS) if sp_pr is not None else None)
    ox, oy, sx, sy = transform
    box = (ox + box[0] * sx, oy + box[1] * sy, box[2] * sx, box[3] * sy)
    geom = sp_pr.find("a:prstGeom", NS) if sp_pr is not None else None
    preset = geom.get("prst", "") if geom is not None else ""
    cnv_cn = wsp.find("wps:cNvCnPr", NS)
    no_fill = sp_pr is not None and sp_pr.find("a:noFill", NS) is not None
    line = sp_pr.find("a:ln", NS) if sp_pr is not None else None
    no_line = line is not None and line.find("a:noFill", NS) is not None
    cnv = wsp.find("wps:cNvPr", NS)
    st = cnv_cn.find("a:stCxn", NS) if cnv_cn is not None else None
    en = cnv_cn.find("a:endCxn", NS) if cnv_cn is not None else None
    head = line.find("a:headEnd", NS) if line is not None else None
    tail = line.find("a:tailEnd", NS) if line is not None else None
    return _Shape(
        box=box, rot=rot, flip_h=flip_h, flip_v=flip_v, preset=preset, text=_text(wsp),
        connector=cnv_cn is not None or preset.endswith("Connector1") or "Connector" in preset,
        label_like=preset in ("rect", "") and no_fill and no_line and not preset.startswith("flowChart"),
        shape_id=cnv.get("id") if cnv is not None else None,
        start_ref=st.get("id") if st is not None else None, end_ref=en.get("id") if en is not None else None,
        head=head.get("type") if head is not None else None, tail=tail.get("type") if tail is not None else None,
    )


def _group_shapes(group: etree._Element, transform: tuple[float, float, float, float]) -> list[_Shape]:
    """All shapes of a group or canvas, mapping nested child coordinates into the top group's space."""
    shapes = []
    for child in group:
        tag = etree.QName(child).localname
        if tag == "wsp":
            shapes.append(_shape(child, transform))
        elif tag in ("grpSp", "wgp"):
            props = child.find("wpg:grpSpPr", NS)
            xfrm = props.find("a:xfrm", NS) if props is not None else None
            inner = transform
            if xfrm is not None:
                off, ext = xfrm.find("a:off", NS), xfrm.find("a:ext", NS)
                ch_off, ch_ext = xfrm.find("a:chOff", NS), xfrm.find("a:chExt", NS)
                if None not in (off, ext, ch_off, ch_ext):
                    sx = float(ext.get("cx")) / max(float(ch_ext.get("cx")), 1.0)
                    sy = float(ext.get("cy")) / max(float(ch_ext.get("cy")), 1.0)
                    ox = float(off.get("x")) - float(ch_off.get("x")) * sx
                    oy = float(off.get("y")) - float(ch_off.get("y")) * sy
                    inner = (transform[0] + ox * transform[2], transform[1] + oy * transform[3],
                             sx * transform[2], sy * transform[3])
            shapes.extend(_group_shapes(child, inner))
    return shapes


def _endpoints(shape: _Shape) -> tuple[tuple[float, float], tuple[float, float]]:
    x, y, w, h = shape.box
    (sx, ex) = (x + w, x) if shape.flip_h else (x, x + w)
    (sy, ey) = (y + h, y) if shape.flip_v else (y, y + h)
    if shape.rot:
        cx, cy, angle = x + w / 2, y + h / 2, math.radians(shape.rot)

        def turn(px: float, py: float) -> tuple[float, float]:
            dx, dy = px - cx, py - cy
            return cx + dx * math.cos(angle) - dy * math.sin(angle), cy + dx * math.sin(angle) + dy * math.cos(angle)

        return turn(sx, sy), turn(ex, ey)
    return (sx, sy), (ex, ey)


def _distance_to_box(point: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    """Distance from a point to a node: to the nearest side midpoint, where connectors attach."""
    x, y, w, h = box
    mids = [(x + w / 2, y), (x + w / 2, y + h), (x, y + h / 2), (x + w, y + h / 2)]
    return min(math.dist(point, m) for m in mids)


def diagram_from_group(group: etree._Element, index: int, layout: str) -> Diagram:
    """Rebuild the flowchart in one drawing group (``wpg:wgp``) or canvas (``wpc:wpc``)."""
    shapes = _group_shapes(group, (0.0, 0.0, 1.0, 1.0))
    nodes: list[DiagramNode] = []
    node_by_shape_id: dict[str, DiagramNode] = {}
    connectors, labels = [], []
    for shape in shapes:
        if shape.connector:
            connectors.append(shape)
        elif shape.label_like and shape.text:
            labels.append(shape)
        elif shape.text or shape.preset.startswith("flowChart"):
            node = DiagramNode(f"n{len(nodes) + 1}", shape.text, KINDS.get(shape.preset, "process"), shape.box)
            nodes.append(node)
            if shape.shape_id:
                node_by_shape_id[shape.shape_id] = node
    edges: list[tuple[DiagramEdge, tuple[float, float]]] = []
    for conn in connectors:
        start, end = _endpoints(conn)
        if conn.start_ref in node_by_shape_id and conn.end_ref in node_by_shape_id:
            a, b = node_by_shape_id[conn.start_ref], node_by_shape_id[conn.end_ref]
        elif nodes:
            a = min(nodes, key=lambda n: _distance_to_box(start, n.box))
            b = min(nodes, key=lambda n: _distance_to_box(end, n.box))
        else:
            continue
        if conn.head not in (None, "none") and conn.tail in (None, "none"):
            a, b, start = b, a, end  # the arrowhead is at the path start: flow runs backwards
        if a is not b:
            edges.append((DiagramEdge(a.id, b.id), start))
    for label in labels:  # each label box goes to the connector whose start is nearest
        if not edges:
            break
        lx, ly, lw, lh = label.box
        centre = (lx + lw / 2, ly + lh / 2)
        free = [e for e in edges if e[0].label is None] or edges
        nearest = min(free, key=lambda e: math.dist(centre, e[1]))
        nearest[0].label = label.text
    return Diagram(index, "shapes", layout, nodes, [e for e, _ in edges])
