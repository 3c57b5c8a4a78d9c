"""Every page renders without an exception, with and without data (AppTest)."""

from __future__ import annotations

import pytest

from tests.utils.app import open_page

PAGES = ["home", "collections", "ingest", "search", "documents", "graph", "timeline", "ask", "memory"]


@pytest.mark.parametrize("page", PAGES)
def test_page_renders(page, collection):
    at = open_page(page)
    assert not at.exception, at.exception
    assert at.title and at.title[0].value
