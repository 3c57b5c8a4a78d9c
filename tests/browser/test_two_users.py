"""Two users signed in at once, in two browser contexts on one app server: each sees only their own
collections, conversations and memory; a viewer gets no ingest, edit or delete control, and a forced
deep link to another collection's document is refused by the service."""

from __future__ import annotations

import pytest

from tests.browser.conftest import serve_app
from tests.browser.helpers import alert, idle
from tests.utils.access import make_two_teams, remove_two_teams

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def setup(services):
    team = make_two_teams(services, "web", (("Porto harbour", "The harbour of Porto ships cork and port wine."),
                                            ("Kiruna mine", "The Kiruna mine produces iron ore pellets.")),
                          passwords=("ann's password", "ben's password"))
    try:
        for who, fact, question in ((team["ann"], "Ann follows the cork trade", "What does Porto ship?"),
                                    (team["ben"], "Ben studies iron ore", "What does Kiruna produce?")):
            scope = services.scope(services.access.principal_for_user(who))
            scope.memory().remember(fact)
            scope.ask(question)
        yield team
    finally:
        remove_two_teams(services, team)


@pytest.fixture(scope="module")
def app(setup, services, data_dir, tmp_path_factory):
    yield from serve_app(data_dir, tmp_path_factory.mktemp("two-users") / "streamlit.log")


def login(browser, url: str, name: str, password: str, heading: str):
    """A browser context of its own, signed in through ``url`` (a deep link survives the login)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(180_000)
    page.goto(url)
    page.get_by_label("User name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name=heading).wait_for()
    idle(page)
    return context, page


def go(page, title: str) -> None:
    """Open a page from the sidebar (a new URL would start a new, signed-out browser session)."""
    page.get_by_test_id("stSidebar").get_by_role("link", name=title, exact=True).click()
    page.get_by_role("heading", name=title, exact=True).wait_for()
    idle(page)


def main_text(page) -> str:
    return page.get_by_test_id("stMain").inner_text()


def test_two_users_at_once(app, setup, browser, tmp_path) -> None:
    s = setup
    ann_ctx, ann = login(browser, f"{app}/collections", s["ann"], "ann's password", "Collections")
    # Ben signs in through a forged link to a document of A: the service refuses it.
    ben_ctx, ben = login(browser, f"{app}/documents?doc={s['a_doc']}", s["ben"], "ben's password", "Documents")
    try:
        alert(ben, "Error").filter(has_text="you may read").wait_for()
        assert "Porto" not in main_text(ben)

        # Collections: each sees their own only.
        go(ben, "Collections")
        for page, mine, theirs in ((ann, s["a"], s["b"]), (ben, s["b"], s["a"])):
            page.get_by_test_id("stText").filter(has_text=f"Collection {mine}.").first.wait_for()
            assert theirs not in main_text(page)
        assert ann.get_by_role("tab", name="Description").count() == 1  # an editor edits
        assert ann.get_by_role("tab", name="Delete").count() == 0  # but only an owner deletes
        assert ben.get_by_role("tab", name="Description").count() == 0
        assert ben.get_by_role("tab", name="Delete").count() == 0
        ben.screenshot(path=str(tmp_path / "ben-collections.png"), full_page=True)

        # Ingest: the editor has the forms, the viewer is told why not.
        go(ann, "Ingest")
        ann.get_by_role("tab", name="Text").wait_for()
        go(ben, "Ingest")
        alert(ben, "Info").filter(has_text="needs the editor role").wait_for()
        assert ben.get_by_role("tab", name="Text").count() == 0

        # Documents: the viewer reads without delete or edit controls; the editor has them.
        go(ben, "Documents")
        ben.get_by_role("heading", name="Kiruna mine").wait_for()
        idle(ben)
        assert ben.get_by_role("tab", name="Delete").count() == 0
        assert ben.get_by_role("button", name="Delete document").count() == 0
        assert "Porto" not in main_text(ben)
        go(ann, "Documents")
        ann.get_by_role("heading", name="Porto harbour").wait_for()
        ann.get_by_role("tab", name="Delete").wait_for()
        assert "Kiruna" not in main_text(ann)

        # Memory and conversations are each user's own.
        for page, mine, theirs in ((ann, "cork trade", "iron ore"), (ben, "iron ore", "cork trade")):
            go(page, "Memory")
            page.get_by_role("button", name="Delete").first.wait_for()  # a fact's row
            facts = [box.input_value() for box in page.get_by_test_id("stMain").locator("input[type=text]").all()]
            assert any(mine in f for f in facts) and not any(theirs in f for f in facts), facts
            go(page, "Ask")
            sidebar = page.get_by_test_id("stSidebar").inner_text()
            assert ("Porto" in sidebar) == (page is ann) and ("Kiruna" in sidebar) == (page is ben), sidebar
        ann.screenshot(path=str(tmp_path / "ann-ask.png"), full_page=True)
    except Exception:
        for name, page in (("ann", ann), ("ben", ben)):
            page.screenshot(path=str(tmp_path / f"failed-{name}.png"), full_page=True)
        raise
    finally:
        ann_ctx.close()
        ben_ctx.close()
