"""Small Playwright helpers for the browser tests: wait for a script run to end, pick an option."""

from __future__ import annotations

from typing import Any

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def idle(page: Any) -> None:
    """Wait until the app's script run has finished (after a click, a rerun has started by the next tick)."""
    page.wait_for_timeout(300)
    page.locator(IDLE).wait_for(state="attached")


def pick(page: Any, label: str, option: str) -> None:
    """Choose ``option`` in the selectbox labelled ``label``."""
    page.get_by_label(label, exact=True).first.click()
    page.get_by_role("option", name=option, exact=True).click()
    idle(page)


def alert(page: Any, kind: str) -> Any:
    """Streamlit's alert boxes of one kind: Error, Warning, Success or Info."""
    return page.get_by_test_id(f"stAlertContent{kind}")


def wait_shown(page: Any, text: str) -> None:
    """Wait until a Markdown element holds ``text`` (a job's outcome and its reasons draw in one run, in turn)."""
    page.get_by_test_id("stMarkdownContainer").filter(has_text=text).first.wait_for()
