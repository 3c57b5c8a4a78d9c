"""Helpers for AppTest: the app's entry point and a page runner."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
HOME = str(ROOT / "Home.py")


def open_page(page: str, *, query: dict[str, str] | None = None) -> AppTest:
    """Run the router, then switch to ``pages/<page>.py`` and run it."""
    at = AppTest.from_file(HOME, default_timeout=120)
    if query:
        for key, value in query.items():
            at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    if page != "home":
        at.switch_page(f"pages/{page}.py").run()
    return at
