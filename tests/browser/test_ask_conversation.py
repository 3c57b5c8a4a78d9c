"""In a real browser: a two-turn conversation on the Ask page, with sources and a resolved follow-up."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.utils.stories import make_zorbex

pytestmark = pytest.mark.browser
DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_two_turn_conversation(app_url, page, services):
    name, _ = make_zorbex(services)
    try:
        page.goto(app_url + "/ask")
        box = page.get_by_placeholder("Ask a question, or say “remember …”")
        box.fill("Who founded Zorbex?")
        box.press("Enter")
        page.get_by_text("Ivana Petrova founded Zorbex in 2001.").first.wait_for(timeout=180_000)
        page.get_by_text("Sources (").first.wait_for()
        box.fill("What does she grow?")
        box.press("Enter")
        page.get_by_text("tomatoes").first.wait_for(timeout=180_000)
        assert page.get_by_text("Extracted from your documents").count() >= 2
        if os.environ.get("RAG_SCREENSHOTS"):
            page.set_viewport_size({"width": 1400, "height": 1300})
            page.get_by_text("Sources (").last.click()
            page.wait_for_timeout(1000)
            page.screenshot(path=str(DOCS / "ask-two-turns.png"))
    finally:
        services.deletion.delete_collection(name)
