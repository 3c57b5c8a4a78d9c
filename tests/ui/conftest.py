from __future__ import annotations

import pytest
import streamlit as st


@pytest.fixture(autouse=True)
def clear_streamlit_caches(services):
    """Each AppTest builds its own services container, like a fresh server (the model stays loaded)."""
    st.cache_resource.clear()
    st.cache_data.clear()
    yield
    st.cache_resource.clear()


@pytest.fixture
def zorbex_collection(services):
    from tests.utils.stories import make_zorbex

    name, _ = make_zorbex(services)
    yield name
    services.collections.delete(name)
