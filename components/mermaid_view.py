"""Render Mermaid text in the page with the bundled mermaid.js (static/mermaid), never a CDN."""

from __future__ import annotations

import html

import streamlit as st

MERMAID_JS = "/app/static/mermaid/mermaid.min.js"  # served by Streamlit's static file serving


def mermaid_html(text: str) -> str:
    """An HTML snippet that draws ``text``; the text is escaped, and Mermaid runs with securityLevel strict."""
    return f"""
<div class="rag-mermaid"><pre class="mermaid">{html.escape(text)}</pre></div>
<script src="{MERMAID_JS}"></script>
<script>
  mermaid.initialize({{ startOnLoad: false, securityLevel: "strict", theme: "default" }});
  // In a tab that is not shown the frame has no size, and Mermaid would lay the diagram out at zero
  // size (an empty 16x16 drawing). Draw once the frame is visible: now, or at its first resize.
  var drawn = false;
  function draw() {{
    if (drawn || window.innerWidth === 0 || window.innerHeight === 0) return;
    drawn = true;
    mermaid.run({{ querySelector: ".mermaid" }}).catch(function (err) {{
      document.querySelector(".rag-mermaid").innerText = "Mermaid could not draw this diagram: " + err;
    }});
  }}
  window.addEventListener("resize", draw);
  draw();
</script>
"""


def show_mermaid(text: str, *, height: int = 480, file_name: str = "diagram.mmd", key: str) -> None:
    """The diagram, its source (with a copy button) and a .mmd download."""
    st.iframe(mermaid_html(text), height=height)  # our own escaped HTML only (see mermaid_html), never user HTML
    with st.expander("Mermaid source", icon=":material/code:"):
        st.code(text, language=None)
    st.download_button("Download .mmd", text, file_name=file_name, mime="text/plain", key=key,
                       icon=":material/download:")
