"""The text Word shows in a paragraph: runs, with revisions, fields, content controls and ruby resolved.

- Tracked changes are shown accepted: insertions (``w:ins``, ``w:moveTo``) are
  read, deletions (``w:del``, ``w:moveFrom``, ``w:delText``) are not.
- Fields show their result, never their instruction: ``w:fldSimple`` holds its
  result runs; a complex field runs begin → instruction → separate → result →
  end (``w:fldChar``), may nest, and its result may span paragraphs, so the
  state lives on :class:`InlineText` for a whole part.
- Content controls (``w:sdt``) show their content, except while they show their
  placeholder prompt ("Click here to enter text.").
- Ruby shows its base text with the reading after it in brackets.
- Hidden text (``w:vanish`` on the run or its character style) is not shown.
- Drawings, VML pictures and embedded objects are handed back to the caller
  (flowcharts and text boxes are blocks of their own); of markup-compatibility
  choices only the first ``mc:Choice`` is read, never its ``mc:Fallback`` copy.

Everything is looked up by Clark name in dictionaries, and styles are resolved
once per style id, so reading costs the same for every paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_OFF = {"0", "false", "off"}
_SKIP = {W + t for t in ("pPr", "rPr", "sdtPr", "sdtEndPr", "del", "moveFrom", "bookmarkStart", "bookmarkEnd",
                         "proofErr", "commentRangeStart", "commentRangeEnd", "permStart", "permEnd")}
_HEADING = re.compile(r"heading (\d)$")
_T, _TAB, _PTAB, _BR, _CR, _HYPHEN = (W + t for t in ("t", "tab", "ptab", "br", "cr", "noBreakHyphen"))
_PLAIN = (_T, _TAB, _PTAB, _BR, _CR, _HYPHEN)
_PLAIN_TEXT = {_TAB: "\t", _PTAB: "\t", _BR: "\n", _CR: "\n", _HYPHEN: "-"}
# A paragraph holding none of these is read by the fast path: its w:t text and breaks, in order.
_SPECIAL = tuple(W + t for t in ("fldChar", "instrText", "del", "moveFrom", "vanish", "ruby", "sdt", "drawing",
                                 "pict", "object", "sym")) + (MC + "AlternateContent", M + "t")


def choice(alternate: etree._Element) -> etree._Element | None:
    """The branch of an ``mc:AlternateContent`` to read: its first Choice, else its Fallback."""
    branch = alternate.find(MC + "Choice")
    return branch if branch is not None else alternate.find(MC + "Fallback")


def on(el: etree._Element | None) -> bool:
    """A toggle property (``<w:vanish/>``, ``<w:vanish w:val="true"/>``) that is switched on."""
    return el is not None and el.get(W + "val", "1") not in _OFF


class Styles:
    """Paragraph kinds and hidden character styles from styles.xml, each style resolved once."""

    def __init__(self, root: etree._Element | None, check: Callable[[], None] | None = None) -> None:
        """``check`` is called every 256 styles (the parse budget: a styles part can hold tens of thousands)."""
        self._styles: dict[str, tuple[str, str | None, int | None, bool]] = {}
        self.default_paragraph: str | None = None
        for n, style in enumerate(root.iterfind(W + "style") if root is not None else ()):
            if check is not None and n % 256 == 0:
                check()
            sid = style.get(W + "styleId")
            if not sid:
                continue
            name_el, based = style.find(W + "name"), style.find(W + "basedOn")
            outline = style.find(f"{W}pPr/{W}outlineLvl")
            level = outline.get(W + "val") if outline is not None else None
            self._styles[sid] = (name_el.get(W + "val", "") if name_el is not None else "",
                                 based.get(W + "val") if based is not None else None,
                                 int(level) if level is not None and level.isdigit() else None,
                                 on(style.find(f"{W}rPr/{W}vanish")))
            if style.get(W + "type") == "paragraph" and style.get(W + "default") in ("1", "true", "on"):
                self.default_paragraph = sid
        self._kinds: dict[str | None, tuple[str, int]] = {}
        self._hidden: dict[str, bool] = {}
        self.any_hidden = any(s[3] for s in self._styles.values())

    def _chain(self, sid: str | None) -> list[tuple[str, str | None, int | None, bool]]:
        """The style and the styles it is based on, nearest first (a cycle in a damaged file ends it)."""
        chain, seen = [], set()
        while sid is not None and sid in self._styles and sid not in seen:
            seen.add(sid)
            chain.append(self._styles[sid])
            sid = self._styles[sid][1]
        return chain

    def paragraph_kind(self, sid: str | None) -> tuple[str, int]:
        """(kind, heading level) for a paragraph style id: by the style's name, else its outline level."""
        if sid not in self._kinds:
            self._kinds[sid] = self._kind(sid if sid is not None else self.default_paragraph)
        return self._kinds[sid]

    def _kind(self, sid: str | None) -> tuple[str, int]:
        chain = self._chain(sid)
        name = chain[0][0] if chain else (sid or "")
        lower = name.lower()
        heading = _HEADING.match(lower)
        if heading:
            return "heading", int(heading.group(1))
        if lower == "title":
            return "title", 0
        if lower.startswith("caption"):
            return "caption", 0
        if "List" in name:
            return "list_item", 0
        level = next((s[2] for s in chain if s[2] is not None), None)
        if level is not None and level < 9:  # outline level 9 is body text
            return "heading", level + 1
        return "paragraph", 0

    def hidden(self, sid: str) -> bool:
        """Whether a character style (or one it is based on) hides its text."""
        if sid not in self._hidden:
            self._hidden[sid] = any(s[3] for s in self._chain(sid))
        return self._hidden[sid]


class InlineText:
    """Collects the visible text of paragraphs; keeps the field state between them (fields may span paragraphs)."""

    def __init__(self, styles: Styles) -> None:
        self.styles = styles
        self._fields: list[bool] = []  # one per open field: True while in its instruction
        self._in_instruction = 0
        # a run's character style matters only when some style hides text
        self._special = _SPECIAL + ((W + "rStyle",) if styles.any_hidden else ())

    def reset(self) -> None:
        """Forget open fields (a new part starts)."""
        self._fields, self._in_instruction = [], 0

    def paragraph(self, p: etree._Element, objects: list[etree._Element]) -> str:
        """A paragraph's visible text, whitespace collapsed; its drawings and pictures are added to ``objects``."""
        out: list[str] = []
        if not self._in_instruction and not self._fields and next(p.iter(*self._special), None) is None:
            for el in p.iter(*_PLAIN):  # the common case, read in one pass over the tree in C
                out.append((el.text or "") if el.tag == _T else _PLAIN_TEXT[el.tag])
            return " ".join("".join(out).split())
        self._inline(p, out, objects, False)
        if self._in_instruction:  # an instruction never ends a paragraph in a sound file: don't let it hide the rest
            self._fields, self._in_instruction = [False] * len(self._fields), 0
        return " ".join("".join(out).split())

    def _inline(self, el: etree._Element, out: list[str], objects: list[etree._Element], hidden: bool) -> None:
        for child in el:
            tag = child.tag
            if tag == W + "r":
                self._run(child, out, objects, hidden)
            elif tag in _SKIP or not isinstance(tag, str):
                continue
            elif tag == W + "sdt":
                content = child.find(W + "sdtContent")
                if content is not None and not _placeholder(child):
                    self._inline(content, out, objects, hidden)
            elif tag == MC + "AlternateContent":
                branch = choice(child)
                if branch is not None:
                    self._inline(branch, out, objects, hidden)
            elif tag == M + "t":
                if not hidden and not self._in_instruction:
                    out.append(child.text or "")
            else:  # hyperlink, ins, moveTo, fldSimple (its runs are the result), smartTag, customXml, math...
                self._inline(child, out, objects, hidden)

    def _run(self, run: etree._Element, out: list[str], objects: list[etree._Element], hidden: bool) -> None:
        props = run.find(W + "rPr")
        if props is not None and not hidden:
            style = props.find(W + "rStyle")
            hidden = on(props.find(W + "vanish")) or (style is not None and self.styles.hidden(style.get(W + "val", "")))
        for child in run:
            tag = child.tag
            if tag == W + "t":
                if not hidden and not self._in_instruction:
                    out.append(child.text or "")
            elif tag == W + "fldChar":
                self._field(child.get(W + "fldCharType"))
            elif self._in_instruction or hidden:
                continue
            elif tag in (W + "tab", W + "ptab"):
                out.append("\t")
            elif tag in (W + "br", W + "cr"):
                out.append("\n")
            elif tag == W + "noBreakHyphen":
                out.append("-")
            elif tag in (W + "drawing", W + "pict", W + "object"):
                objects.append(child)
            elif tag == MC + "AlternateContent":
                branch = choice(child)
                if branch is not None:
                    self._run(branch, out, objects, hidden)
            elif tag == W + "ruby":
                self._ruby(child, out, objects)

    def _ruby(self, ruby: etree._Element, out: list[str], objects: list[etree._Element]) -> None:
        base, reading = ruby.find(W + "rubyBase"), ruby.find(W + "rt")
        if base is not None:
            self._inline(base, out, objects, False)
        if reading is not None:
            above: list[str] = []
            self._inline(reading, above, objects, False)
            text = "".join(above).strip()
            if text:
                out.append(f"({text})")

    def _field(self, kind: str | None) -> None:
        if kind == "begin":
            self._fields.append(True)
            self._in_instruction += 1
        elif kind == "separate" and self._fields and self._fields[-1]:
            self._fields[-1] = False
            self._in_instruction -= 1
        elif kind == "end" and self._fields and self._fields.pop():
            self._in_instruction -= 1


def _placeholder(sdt: etree._Element) -> bool:
    """A content control showing its placeholder prompt rather than content."""
    props = sdt.find(W + "sdtPr")
    return props is not None and on(props.find(W + "showingPlcHdr"))
