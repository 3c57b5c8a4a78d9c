"""The web app loads the embedding model only for pages whose actions embed passages (AppTest).

Its imports take seconds of CPU and hold the interpreter while they run; on a page that never needs
the model (queries are embedded without it) that only slows the page's delivery and the next switch.
"""

from __future__ import annotations

from components.resources import _services
from tests.utils.app import open_page


def test_only_pages_that_embed_passages_start_loading_the_model(collection):
    for page in ("home", "collections", "search", "graph", "timeline"):
        at = open_page(page)
        assert not at.exception, at.exception
        assert not _services().embedder.started, f"{page} started loading the model"
    at = open_page("ingest")
    assert not at.exception, at.exception
    assert _services().embedder.started
    _services().embedder.loaded()  # the background load finishes (and fails loudly if it cannot)
