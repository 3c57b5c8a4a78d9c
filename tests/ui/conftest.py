from __future__ import annotations

import pytest

from tests.utils.app import fresh_app_caches


@pytest.fixture(autouse=True)
def clear_streamlit_caches(services, monkeypatch):
    """Each AppTest builds its own services container, like a fresh server (the model stays loaded); its
    database pool is closed after the test."""
    with fresh_app_caches(monkeypatch):
        yield


@pytest.fixture
def zorbex_collection(services):
    from tests.utils.stories import make_zorbex

    name, _ = make_zorbex(services)
    yield name
    services.deletion.delete_collection(name)
