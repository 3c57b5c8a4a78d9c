"""A document's flowchart: redrawn with Mermaid (or the picture itself), with a link to the Graph page."""

from __future__ import annotations

import streamlit as st

from components.markdown_text import md_escape
from components.mermaid_view import show_mermaid
from services.container import Services
from services.errors import WorkbenchError


def show_diagram(svc: Services, diagram_id: str, *, key: str, link: bool = True, passages: list[str] | None = None) -> None:
    """The flowchart; the steps that ``passages`` (the hits that link to it) talk about are outlined."""
    if svc.diagrams is None:
        return
    try:
        view = svc.diagrams.get(diagram_id)
    except WorkbenchError as exc:
        st.caption(f"Diagram unavailable: {md_escape(exc)}")
        return
    st.caption(f"Flowchart {view.index} of “{md_escape(view.document_title)}”")
    text = view.mermaid_marking(passages or [])
    if text:
        if passages and text.splitlines()[-1].strip().startswith("class "):
            st.caption("Outlined in orange: the steps these results talk about.")
        show_mermaid(text, file_name=f"{diagram_id}.mmd", key=f"{key}.mmd")
        if view.image:
            with st.expander("The picture it was read from", icon=":material/image:"):
                st.image(view.image)
    elif view.image:
        st.image(view.image, caption="The flowchart as drawn (a picture: no graph without a vision model)")
    if link:
        st.page_link("pages/graph.py", label="Open this diagram on the Graph page", icon=":material/hub:",
                     query_params={"diagram": diagram_id})
