"""The password gate in a real browser, on a server of its own (127.0.0.1) started with RAG_AUTH_PASSWORD.

The first visit is a deep link (/graph): on a fresh server Streamlit runs that
page script alone, and the router must still put the login in front of it.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import serve_app

pytestmark = pytest.mark.browser

PASSWORD = "browser-gate-pass-7d3e"


@pytest.fixture(scope="module")
def gated_url(services, data_dir, tmp_path_factory):
    log = tmp_path_factory.mktemp("gated") / "streamlit.log"
    yield from serve_app(data_dir, log, RAG_AUTH_PASSWORD=PASSWORD)
    assert PASSWORD not in log.read_text(), "the password reached the server log"


def test_deep_link_is_gated_then_opens_after_the_password(gated_url, page, tmp_path):
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(
        ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")) else None)
    page.goto(f"{gated_url}/graph")
    password = page.get_by_label("Password", exact=True)
    password.wait_for(timeout=180_000)
    assert page.get_by_role("heading", name="Graph").count() == 0
    assert page.get_by_test_id("stSidebarNav").count() == 0  # no page list before the login
    assert page.get_by_test_id("stPageLink").count() == 0

    password.fill("not the password")
    page.get_by_role("button", name="Log in").click()
    page.get_by_text("Wrong password.").wait_for(timeout=180_000)
    assert page.get_by_role("heading", name="Graph").count() == 0

    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Graph").wait_for(timeout=180_000)
    assert page.url.endswith("/graph")
    page.get_by_label("Password", exact=True).wait_for(state="detached", timeout=180_000)  # stale until the run ends
    page.get_by_text("Wrong password.").wait_for(state="detached", timeout=180_000)
    page.screenshot(path=str(tmp_path / "signed-in.png"), full_page=True)

    page.get_by_role("button", name="Log out").click()
    page.get_by_label("Password", exact=True).wait_for(timeout=180_000)
    assert page.get_by_role("heading", name="Graph").count() == 0
    assert not outside, f"requests left the machine: {outside[:5]}"
