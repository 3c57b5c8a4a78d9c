"""Two browser sessions and a `rag ingest` process ingest into the same collection at once; all three finish.

The app runs on 127.0.0.1 (the browser suite's server fixture); every request the two browser
contexts make to any other host is aborted and recorded, and none may happen.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa

from tests.browser import conftest as browser_suite
from tests.reliability.concurrency import assert_whole, finish, rag_process

pytestmark = pytest.mark.browser

app_url = browser_suite.app_url  # the same fixtures as tests/browser: a real server, headless chromium
browser = browser_suite.browser

NOTES = {
    "ferry-timetable.md": "# Ferry timetable\n\nThe first ferry leaves the north pier at 06:40 and the last one "
                          "returns at 22:15. On Sundays the crossing runs every ninety minutes.\n",
    "pier-repairs.md": "# Pier repairs\n\nThe south pier is closed for repairs until the end of March; divers are "
                       "replacing the rotten oak piles with concrete ones.\n",
}


def _jobs(services, collection: str) -> list:
    with services.engine.connect() as conn:
        return conn.execute(sa.text("SELECT id, kind, status, error, started_at, finished_at FROM jobs "
                                    "WHERE params->>'collection' = :c ORDER BY id"), {"c": collection}).all()


def _session(browser, url: str, outside: list[str]):
    """A fresh browser context (its own cookies, its own Streamlit session) that only talks to 127.0.0.1."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})

    def guard(route) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(180_000)
    page.goto(url + "/ingest")
    return context, page


def _prepare_upload(page, collection: str, file: Path) -> None:
    page.get_by_label("Collection", exact=True).click()
    page.get_by_role("option", name=collection).click()
    page.get_by_role("tab", name="Upload files").click()
    page.locator("input[type=file]").set_input_files(str(file))
    page.get_by_text(file.name).first.wait_for()


def test_two_browser_sessions_and_the_cli_ingest_at_once(app_url, browser, services, collection, shared_data,
                                                         data_dir, tmp_path):
    folder = tmp_path / "cli"
    folder.mkdir()
    for path in sorted((shared_data / "sotu").glob("179*.txt"))[:6]:
        shutil.copy(path, folder / path.name)
    uploads = []
    for name, text in NOTES.items():
        uploads.append(tmp_path / name)
        uploads[-1].write_text(text, encoding="utf-8")

    outside: list[str] = []
    sessions = [_session(browser, app_url, outside) for _ in NOTES]
    try:
        for (_, page), file in zip(sessions, uploads):
            _prepare_upload(page, collection, file)
        cli = rag_process("ingest", "directory", collection, folder, "--json", data_dir=data_dir)
        deadline = time.monotonic() + 180
        while not any(j.kind == "ingest:directory" for j in _jobs(services, collection)):
            assert cli.poll() is None and time.monotonic() < deadline, "the CLI ingest did not start"
            time.sleep(0.2)
        for _, page in sessions:  # both users press the button while the CLI ingest runs
            page.get_by_role("button", name="Ingest files").click()
        shown = []
        for _, page in sessions:
            finished = page.get_by_test_id("stAlertContentSuccess").filter(has_text="Finished: 1 stored")
            finished.wait_for(timeout=240_000)
            shown.append(finished.inner_text())
            alerts = [a.inner_text() for kind in ("Error", "Warning")
                      for a in page.get_by_test_id(f"stAlertContent{kind}").all()]
            assert not alerts, alerts
        code, out, err = finish(cli, timeout=600)
    finally:
        for context, _ in sessions:
            context.close()

    assert code == 0, err
    assert all("1 stored" in s and "failed" not in s and "skipped" not in s for s in shown), shown
    assert not outside, f"requests to hosts other than 127.0.0.1: {outside}"

    jobs = _jobs(services, collection)
    assert sorted(j.kind for j in jobs) == ["ingest:directory", "ingest:files", "ingest:files"], jobs
    assert all(j.status == "done" and j.error is None for j in jobs), jobs
    cli_job = next(j for j in jobs if j.kind == "ingest:directory")
    for job in jobs:  # the three really ran at the same time
        assert job.started_at < cli_job.finished_at and job.finished_at > cli_job.started_at, jobs
    expected = {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()}
    expected.update(NOTES)
    assert_whole(services, collection, expected)
