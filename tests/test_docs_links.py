"""Every relative link and image in README.md and docs/*.md points at a file that exists.

Anchors (``#section``) are ignored; absolute URLs (``http:``, ``mailto:``…) are not checked, as
tests send no traffic off the machine. Links inside code blocks and code spans are not links.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
_HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.IGNORECASE)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def relative_links(text: str) -> list[str]:
    """The relative targets of Markdown and HTML links and images in ``text``, anchors dropped."""
    text = _CODE_SPAN.sub("", _FENCE.sub("", text))
    found = [*_INLINE.findall(text), *_REFERENCE.findall(text), *_HTML.findall(text)]
    targets = []
    for target in found:
        if _SCHEME.match(target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0].split("?", 1)[0]
        if path:
            targets.append(path)
    return targets


def test_the_link_finder_sees_links_and_images_but_not_code() -> None:
    text = ("See [a](docs/a.md#part) and ![shot](img/s.png \"title\"), [web](https://x.org), [top](#top).\n"
            "`[not](a/link.md)`\n```\n[nor](this.md)\n```\n[ref]: docs/ref.md\n<img src=\"docs/i.png\">\n")
    assert relative_links(text) == ["docs/a.md", "img/s.png", "docs/ref.md", "docs/i.png"]


def test_there_are_documents_to_check() -> None:
    assert len(DOCS) > 5 and all(doc.is_file() for doc in DOCS)


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: str(doc.relative_to(ROOT)))
def test_every_relative_link_resolves(doc: Path) -> None:
    broken = [target for target in relative_links(doc.read_text(encoding="utf-8"))
              if not (doc.parent / target).exists()]
    assert not broken, f"{doc.relative_to(ROOT)} links to missing files: {broken}"
