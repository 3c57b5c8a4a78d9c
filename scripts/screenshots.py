"""Screenshots for docs/screenshots/: the analyst's day (issue 16) on 15 addresses and the 4 flowchart files.

Prepares a data folder once (a ``speeches`` collection with the addresses of 1836–1850 and their
year, president and party, and a ``flowcharts`` collection with ``../shared/data/flowchart-docx``,
both with the graph), then starts ``streamlit run Home.py`` from ``--app-root`` on 127.0.0.1 and
takes one screenshot per view in headless Debian chromium. Every request to another host is aborted.

    python -m scripts.screenshots --data /tmp/rag-shots --label after
    python -m scripts.screenshots --data /tmp/rag-shots --label before --app-root /tmp/rag-main

``--app-root`` is a checkout of the code to photograph (e.g. ``git archive main | tar -x -C DIR``),
so "before" and "after" are taken on the same data.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))

from scripts.bench.app_driver import CHROMIUM, CHROMIUM_ARGS, IDLE, LoopbackGuard, free_port  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
YEARS = range(1836, 1851)  # 15 addresses: Texas, Mexico and the war of 1846-48
OUT = ROOT / "docs" / "screenshots"


def prepare(data: Path) -> None:
    """Create and fill the two collections in ``data`` unless they are there already."""
    os.environ["RAG_DATA_DIR"] = str(data)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from services.container import build_services
    from services.ingest.requests import directory_request, files_request
    from services.settings import get_settings

    svc = build_services(get_settings())
    try:
        names = {c.name for c in svc.collections.list()}
        if "speeches" not in names:
            svc.collections.create(name="speeches", description="State of the Union addresses, 1836-1850.",
                                   metadata_schema={"custom": {"year": {"type": "integer", "required": True},
                                                               "president": {"type": "string"},
                                                               "party": {"type": "string"}}})
            files = sorted(p.name for p in (SHARED / "sotu").glob("*.txt") if int(p.name[:4]) in YEARS)
            result = svc.ingestion.run(directory_request("speeches", str(SHARED / "sotu"), settings=svc.settings,
                                                         include=files, recursive=False))
            print(result.summary(), file=sys.stderr)
        if "flowcharts" not in names:
            svc.collections.create(name="flowcharts", description="Four policies with their flowcharts (.docx).")
            files = [(p.name, p.read_bytes()) for p in sorted((SHARED / "flowchart-docx").glob("*.docx"))]
            result = svc.ingestion.run(files_request("flowcharts", files, settings=svc.settings))
            print(result.summary(), file=sys.stderr)
    finally:
        svc.close()


class Server:
    def __init__(self, app_root: Path, data: Path, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "RAG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "Home.py", "--server.port", str(self.port),
             "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=app_root, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)

    def wait(self) -> None:
        import urllib.request

        for _ in range(600):
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the app did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def idle(page: Any) -> None:
    page.wait_for_timeout(400)
    page.locator(IDLE).wait_for(state="attached")
    page.wait_for_timeout(2000)  # tables and code blocks draw after the script has finished


def shot(page: Any, name: str, label: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}-{label}.png"
    page.screenshot(path=str(path))
    print(path, file=sys.stderr)


def pick(page: Any, label: str, option: str) -> None:
    page.get_by_label(label, exact=True).first.click()
    page.get_by_role("option", name=option, exact=True).click()
    idle(page)


def first_start(page: Any, server: Server, label: str) -> None:
    """Item 11: a new server's first seconds (the classic page list would show here), then Home once drawn."""
    page.goto(server.url)
    page.wait_for_timeout(2500)
    shot(page, "11-first-seconds", label)
    page.get_by_role("heading", name="RAG Memory Workbench").first.wait_for(timeout=120_000)
    idle(page)
    shot(page, "11-home", label)


def graph_canvas(page: Any, url: str, label: str) -> None:
    """Item 5: Mexico at 2 hops, then "how does Mexico relate to Texas"."""
    page.goto(f"{url}/graph?collection=speeches&entity=mexico")
    page.get_by_label("Hops").wait_for()
    idle(page)
    page.get_by_label("Hops").fill("2")
    page.get_by_label("Hops").press("Enter")
    idle(page)
    # A rerun may leave the previous canvas's frame in the page for a moment: the last one is current.
    page.frame_locator("iframe[title='streamlit_agraph.agraph'] >> nth=-1").locator("canvas").first.wait_for()
    page.wait_for_timeout(6000)  # let the physics settle
    shot(page, "05-graph-canvas", label)
    page.get_by_role("tab", name="How does X relate to Y?").click()
    page.get_by_label("Relate to", exact=True).fill("Texas")
    page.get_by_label("Relate to", exact=True).press("Enter")
    idle(page)
    page.wait_for_timeout(3000)
    shot(page, "05-graph-paths", label)


def search_flowchart(page: Any, url: str, label: str) -> None:
    """Item 6: a search whose hits link to a flowchart."""
    page.goto(f"{url}/search")
    page.get_by_label("Query", exact=True).fill("manager approves the claim, confirming the expense was necessary")
    page.get_by_role("button", name="Search").click()
    page.frame_locator("iframe[title='st.iframe'] >> nth=0").locator(".rag-mermaid svg").wait_for(timeout=120_000)
    idle(page)
    page.wait_for_timeout(2000)
    shot(page, "06-search-flowchart", label)


def ingest_progress(page: Any, url: str, label: str, tmp: Path) -> None:
    """Item 7: three files into a scratch collection, one of them empty, during and after the job."""
    files = [SHARED / "sotu" / "1846_james_polk_d.txt", SHARED / "sotu" / "1847_james_polk_d.txt"]
    empty = tmp / "notes-empty.txt"
    empty.write_text("")
    page.goto(f"{url}/collections")
    idle(page)
    page.get_by_text("Create a collection").first.click()
    stamp = time.strftime("%H%M%S")
    page.get_by_label("Name", exact=True).fill(f"progress-{label}-{stamp}")
    page.get_by_label("Description (required)", exact=True).fill("Scratch collection for the progress screenshot.")
    page.get_by_role("button", name="Create").click()
    idle(page)
    page.goto(f"{url}/ingest")
    idle(page)
    pick(page, "Collection", f"progress-{label}-{stamp}")
    page.get_by_role("tab", name="Upload files").click()
    page.locator("input[type=file]").set_input_files([str(f) for f in files] + [str(empty)])
    page.get_by_text("notes-empty.txt").first.wait_for()
    page.get_by_role("button", name="Ingest files").click()
    page.wait_for_timeout(9000)
    shot(page, "07-ingest-running", label)
    page.get_by_text("Recent jobs").first.wait_for()
    for _ in range(1200):  # on a busy machine two addresses and their graph take minutes
        if page.get_by_role("button", name="Cancel").count() == 0:
            break
        page.wait_for_timeout(1000)
    idle(page)
    page.wait_for_timeout(1500)
    shot(page, "07-ingest-finished", label)


def ask(page: Any, url: str, label: str) -> None:
    """Item 8: an extracted answer with its sources and diagnostics opened."""
    page.goto(f"{url}/ask")
    idle(page)
    page.get_by_placeholder("Ask a question").fill("Why did the United States go to war with Mexico?")
    page.get_by_placeholder("Ask a question").press("Enter")
    page.get_by_text("Extracted from your documents").first.wait_for(timeout=180_000)
    idle(page)
    for name in ("Sources", "Diagnostics"):
        found = page.locator("summary", has_text=name)
        if found.count():
            found.first.click()
    idle(page)
    shot(page, "08-ask-answer", label)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="data folder (prepared on first use)")
    parser.add_argument("--label", required=True, help="before or after")
    parser.add_argument("--app-root", type=Path, default=ROOT, help="the checkout whose app is photographed")
    parser.add_argument("--only", nargs="*", default=None, help="views: first graph search ingest ask")
    args = parser.parse_args(argv)
    args.data.mkdir(parents=True, exist_ok=True)
    prepare(args.data)
    from playwright.sync_api import sync_playwright

    views = args.only or ["first", "graph", "search", "ingest", "ask"]
    server = Server(args.app_root, args.data, args.data / f"streamlit-{args.label}.log")
    guard = LoopbackGuard()
    try:
        server.wait()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1400, "height": 1500})
            guard.attach(context)
            page = context.new_page()
            guard.watch(page)
            page.set_default_timeout(120_000)
            if "first" in views:
                first_start(page, server, args.label)
            if "graph" in views:
                graph_canvas(page, server.url, args.label)
            if "search" in views:
                search_flowchart(page, server.url, args.label)
            if "ingest" in views:
                ingest_progress(page, server.url, args.label, args.data)
            if "ask" in views:
                ask(page, server.url, args.label)
            browser.close()
    finally:
        server.stop()
    if guard.blocked:
        print(f"blocked requests: {guard.blocked[:5]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
