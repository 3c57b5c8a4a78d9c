"""A citation [n] in an answer opens its passage in this tab, in the same session.

An answer's [n] are links to the Documents page with ``?doc=&chunk=`` (components/rich_text.py). Followed by
the browser, such a link starts a new Streamlit session: the app's scripts load again and every page draws from
scratch, 3.5–4.1 s here. This component (Streamlit's custom components v2, public API; JavaScript only, nothing
drawn) listens on the page for plain clicks on those links and hands the cited document and chunk to Python as
a trigger value; the page then switches to the Documents page in the same session (``st.switch_page``), which
draws the passage at the top, highlighted. A click with Ctrl, Cmd, Shift or Alt, or with the middle button, is
left to the browser: the passage opens in a new tab, as before.
"""

from __future__ import annotations

import streamlit as st

_JS = """
export default function (component) {
  const { setTriggerValue } = component;
  const onClick = (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const link = event.composedPath().find((el) => el instanceof Element && el.matches('a.rag-cite'));
    if (!link) return;
    const url = new URL(link.getAttribute('href'), window.location.href);
    event.preventDefault();
    setTriggerValue('open', { doc: url.searchParams.get('doc'), chunk: url.searchParams.get('chunk') });
  };
  document.addEventListener('click', onClick, true);
  return () => document.removeEventListener('click', onClick, true);
}
"""
_LISTENER = st.components.v2.component("rag_citation_links", js=_JS)


def open_clicked_citation(*, key: str, back: str) -> None:
    """Listen for citation clicks on this page; when one was clicked, switch to its passage (call this before
    drawing anything else: the switch then costs nothing of this page's own drawing). ``back`` names the page
    the Documents page offers to go back to."""
    result = _LISTENER(key=key, on_open_change=lambda: None, height=0)
    target = result.open if result is not None else None
    if isinstance(target, dict) and str(target.get("doc") or "").isdigit() and str(target.get("chunk") or "").isdigit():
        st.switch_page("pages/documents.py", query_params={"doc": target["doc"], "chunk": target["chunk"], "from": back})
