"""Keep Python's cyclic garbage collector off what a process loads once: modules, models, pipelines.

A full collection (generation 2) walks every container object the process holds. Once torch,
transformers, spaCy and LlamaIndex are loaded that is over a million objects, and each full collection
paused whatever thread was running for up to 141 ms: in Ask's graph walk it was the largest part of the
p95 (docs/bench/findings.md, 2026-11-25). :func:`freeze_loaded` moves every object alive at that moment
into the collector's permanent generation (``gc.freeze``), so later collections walk only what was
created since: the largest pause fell to 6 ms. Objects are still freed as usual when their last
reference goes; only reference cycles among frozen objects would stay, so it is called right after a
load, when what is alive is what was loaded.
"""

from __future__ import annotations

import gc


def freeze_loaded() -> None:
    """Exempt every object alive now from later full collections (call it right after a heavy load)."""
    gc.freeze()
