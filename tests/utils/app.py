"""Helpers for AppTest: the app's entry point and a page runner."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
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


@contextmanager
def fresh_app_caches(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each AppTest builds its own services container, like a fresh server; its database pool is closed when
    the test ends. Clearing Streamlit's cache alone dropped the container with its pool still open: with the
    UI tests of a whole session, the embedded PostgreSQL ran out of its 100 connections."""
    import streamlit as st

    from components import resources

    built: list[Any] = []
    real = resources.build_services

    def tracked(*args: Any, **kwargs: Any) -> Any:
        built.append(real(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(resources, "build_services", tracked)
    st.cache_resource.clear()
    st.cache_data.clear()
    try:
        yield
    finally:
        st.cache_resource.clear()
        for svc in built:
            svc.engine.dispose()  # the graph store stays: a job the test started may still be writing to it
