"""Import spaCy without torch where torch is not otherwise needed.

thinc, under spaCy, imports torch if it can (``thinc.compat``), though spaCy's small English pipeline runs on
NumPy: a cold ``rag ask`` paid torch's seconds of imports for nothing once its answer read sentences with
spaCy. :func:`spacy_without_torch` hides torch (``sys.modules["torch"] = None``) while spaCy is imported,
unless torch is already there. So that no other thread's ``import torch`` fails meanwhile, the model loader
takes the same lock first (:func:`torch_import_allowed`), waiting out the hidden moment; thinc then reports no
torch for the process, which our pipelines never ask of it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_GUARD = threading.Lock()


@contextmanager
def spacy_without_torch() -> Iterator[None]:
    with _GUARD:
        hide = "torch" not in sys.modules and "thinc" not in sys.modules
        if hide:
            sys.modules["torch"] = None  # type: ignore[assignment]
        try:
            yield
        finally:
            if hide and sys.modules.get("torch", 0) is None:
                del sys.modules["torch"]


@contextmanager
def torch_import_allowed() -> Iterator[None]:
    """Around an ``import torch``: never inside :func:`spacy_without_torch`'s moment."""
    with _GUARD:
        yield
