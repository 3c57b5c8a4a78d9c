"""User text inside Markdown sinks (st.markdown, captions, headings, alerts): escaped so it shows verbatim.

Streamlit never renders raw HTML there, but it does render Markdown links and
images, bare URLs, ``:color[...]`` directives and ``$math$``; a title such as
``![x](http://host/pixel)`` would make every viewer's browser fetch that URL.
Characters that mean something anywhere in a line are always escaped; those that
only mean something at the start of a line (headings, lists, quotes) are escaped
there, so ordinary names such as ``ui-2024.v2`` read unchanged in the source.
"""

from __future__ import annotations

import re

_INLINE = set("\\`*_{}[]()<>!$:~|&")
_LINE_START = re.compile(r"^(\s*)(\d+(?=[.)])|[#+\-=])", re.M)
_WWW = re.compile(r"\b(www)\.", re.I)  # GitHub-flavoured Markdown links a bare www.example.com


def _escape_line_start(match: re.Match[str]) -> str:
    indent, mark = match.groups()
    return indent + (mark + "\\" if mark[0].isdigit() else "\\" + mark)  # "1\. item", "\# heading"


def md_escape(text: object) -> str:
    """``text`` with every Markdown-significant character backslash-escaped, so it renders as written."""
    escaped = "".join("\\" + ch if ch in _INLINE else ch for ch in str(text))
    return _LINE_START.sub(_escape_line_start, _WWW.sub(r"\1\\.", escaped))
