"""Render Mermaid text in the page with the bundled mermaid.js (static/mermaid), never a CDN.

The diagram is drawn whole: fitted to the frame's width (and, when that leaves it readable, to a
height the frame grows to), with zoom, pan, "Fit" and a full-size view in a new tab, so a tall
flowchart is never cut at a fixed frame height.
"""

from __future__ import annotations

import html

import streamlit as st

MERMAID_JS = "/app/static/mermaid/mermaid.min.js"  # served by Streamlit's static file serving
MAX_HEIGHT = 960  # px: taller diagrams are fitted to this, or shown at a readable scale with pan

_FRAME = """
<style>
  body { margin: 0; font-family: "Source Sans Pro", sans-serif; }
  .rag-bar { display: flex; gap: 4px; align-items: center; margin: 0 0 4px 0; font-size: 12px; color: #555; }
  .rag-bar button { font-size: 12px; padding: 1px 8px; border: 1px solid #ccc; border-radius: 4px;
                    background: #fff; cursor: pointer; }
  .rag-view { position: relative; overflow: hidden; border: 1px solid #e6e6e6; border-radius: 4px;
              height: 160px; cursor: grab; background: #fff; }
  .rag-view.dragging { cursor: grabbing; }
  .rag-view svg { position: absolute; left: 0; top: 0; transform-origin: 0 0; max-width: none !important; }
</style>
<div class="rag-bar">
  <button data-act="fit" title="The whole diagram">Fit</button>
  <button data-act="width" title="As wide as the frame">Fit width</button>
  <button data-act="in" title="Zoom in">+</button>
  <button data-act="out" title="Zoom out">&minus;</button>
  <button data-act="full" title="Open it full size in a new tab">Full size &#8599;</button>
  <span class="rag-hint">drag to pan, ctrl + wheel to zoom</span>
</div>
<div class="rag-view rag-mermaid"><pre class="mermaid">__TEXT__</pre></div>
<script src="__JS__"></script>
<script>
  mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "default",
                       flowchart: { useMaxWidth: false } });
  var view = document.querySelector(".rag-view"), svg = null, w = 0, h = 0, scale = 1, x = 0, y = 0;
  function apply() { svg.style.transform = "translate(" + x + "px," + y + "px) scale(" + scale + ")"; }
  function fit(mode) {
    var width = view.clientWidth - 2;
    var all = Math.min(width / w, __MAXH__ / h, 1.5), wide = Math.min(width / w, 1.5);
    // The whole diagram when it stays readable (half size or more), else the frame's width and pan down.
    scale = mode === "width" || (mode === "auto" && all < 0.5) ? wide : all;
    view.style.height = Math.min(Math.ceil(h * scale) + 2, __MAXH__) + "px";
    x = Math.max(0, (width - w * scale) / 2); y = 0; apply();
  }
  function zoom(f, cx, cy) {
    var s = Math.min(Math.max(scale * f, 0.1), 4);
    x = cx - (cx - x) * s / scale; y = cy - (cy - y) * s / scale; scale = s; apply();
  }
  var drawn = false;
  function draw() {
    // In a hidden tab the frame has no size and Mermaid would lay the diagram out at zero size.
    if (drawn || window.innerWidth === 0) return;
    drawn = true;
    mermaid.run({ querySelector: ".mermaid" }).then(function () {
      svg = view.querySelector("svg");
      var box = svg.viewBox.baseVal;
      w = box && box.width ? box.width : svg.getBBox().width; h = box && box.height ? box.height : svg.getBBox().height;
      svg.setAttribute("width", w); svg.setAttribute("height", h); svg.style.maxWidth = "none";
      fit("auto");
    }).catch(function (err) {
      view.innerText = "Mermaid could not draw this diagram: " + err;
    });
  }
  document.querySelector(".rag-bar").addEventListener("click", function (e) {
    var act = e.target.getAttribute && e.target.getAttribute("data-act");
    if (!svg || !act) return;
    if (act === "fit") fit("all");
    else if (act === "width") fit("width");
    else if (act === "in") zoom(1.25, view.clientWidth / 2, view.clientHeight / 2);
    else if (act === "out") zoom(0.8, view.clientWidth / 2, view.clientHeight / 2);
    else if (act === "full") {
      var blob = new Blob([new XMLSerializer().serializeToString(svg).replace(/transform:[^;"]*;?/, "")],
                          { type: "image/svg+xml" });
      window.open(URL.createObjectURL(blob), "_blank");
    }
  });
  var start = null;
  view.addEventListener("mousedown", function (e) { start = [e.clientX - x, e.clientY - y]; view.classList.add("dragging"); });
  window.addEventListener("mouseup", function () { start = null; view.classList.remove("dragging"); });
  window.addEventListener("mousemove", function (e) { if (start && svg) { x = e.clientX - start[0]; y = e.clientY - start[1]; apply(); } });
  view.addEventListener("wheel", function (e) {  // a plain wheel scrolls the page, as everywhere else
    if (!svg || !(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    var r = view.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.1 : 0.9, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  window.addEventListener("resize", function () { if (svg) fit("auto"); else draw(); });
  draw();
</script>
"""


def mermaid_html(text: str, *, max_height: int = MAX_HEIGHT) -> str:
    """An HTML snippet that draws ``text``; the text is escaped, and Mermaid runs with securityLevel strict."""
    return (_FRAME.replace("__JS__", MERMAID_JS).replace("__MAXH__", str(int(max_height)))
            .replace("__TEXT__", html.escape(text)))


def show_mermaid(text: str, *, height: int = MAX_HEIGHT, file_name: str = "diagram.mmd", key: str) -> None:
    """The diagram (the frame grows to it, up to ``height``), its source with a copy button, a .mmd download."""
    st.iframe(mermaid_html(text, max_height=height), height="content")  # our own escaped HTML only
    with st.expander("Mermaid source", icon=":material/code:"):
        st.code(text, language=None)
    st.download_button("Download .mmd", text, file_name=file_name, mime="text/plain", key=key,
                       icon=":material/download:")
