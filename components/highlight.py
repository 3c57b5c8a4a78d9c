"""Render text with highlighted matches safely: every piece is HTML-escaped before <mark> is added."""

from __future__ import annotations

import html

import streamlit as st

_STYLE = (
    "white-space: pre-wrap; font-size: 0.92rem; line-height: 1.45; padding: 0.5rem 0.75rem; "
    "border-left: 3px solid #d0d7de; margin: 0.25rem 0 0.5rem 0;"
)


def highlighted_html(segments: list[tuple[str, bool]]) -> str:
    parts = [
        f"<mark>{html.escape(text)}</mark>" if is_match else html.escape(text)
        for text, is_match in segments
    ]
    return f'<div class="rag-chunk" style="{_STYLE}">{"".join(parts)}</div>'


def show_highlighted(segments: list[tuple[str, bool]]) -> None:
    st.html(highlighted_html(segments))
