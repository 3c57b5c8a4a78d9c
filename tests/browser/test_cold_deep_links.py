"""A cold deep link to every page, on a new server with a password set, shows only the login form.

"Cold" is the first visit a new server gets: with a ``pages/`` folder beside
``Home.py``, Streamlit runs that visit in its classic multipage mode, which runs
the linked page file alone. The page file must still draw nothing but the login
(components/app_shell.py), and Streamlit's own page list must never show.
Each page gets its own new server, so each visit really is the first.
"""

from __future__ import annotations

import pytest

from components.app_shell import PAGES
from tests.browser.conftest import serve_app

pytestmark = pytest.mark.browser

PASSWORD = "cold-link-pass-5b1f"


@pytest.mark.parametrize("spec", PAGES, ids=[s.title for s in PAGES])
def test_cold_deep_link_shows_only_the_login(spec, services, data_dir, browser, tmp_path):
    slug = spec.path.removeprefix("pages/").removesuffix(".py")
    for url in serve_app(data_dir, tmp_path / "streamlit.log", RAG_AUTH_PASSWORD=PASSWORD):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(f"{url}/{'' if slug == 'home' else slug}")
            page.get_by_label("Password", exact=True).wait_for(timeout=180_000)
            page.get_by_role("button", name="Log in").wait_for()
            page.wait_for_timeout(1500)  # let any late message of the run arrive
            assert page.get_by_role("heading", name=spec.title, exact=True).count() == 0
            assert page.get_by_test_id("stSidebarNav").count() == 0  # Streamlit's own page list
            assert page.get_by_test_id("stPageLink").count() == 0  # the app's navigation
            headings = [h.inner_text() for h in page.get_by_role("heading").all()]
            assert headings == ["RAG Memory Workbench"], headings  # the login form's title, nothing else
        finally:
            context.close()
