"""How many browser sessions one machine serves: N sessions against 1 and against 2 app processes.

For docs/setup.md's "Running for a team". A few speeches are ingested into a fresh data folder; then
1 (and then 2) ``streamlit run Home.py`` processes share its stores, and N headless chromium
sessions (split evenly across the processes, as sticky sessions behind a proxy would be) each run
the same loop at once: open Search, run a hybrid query (the embedding model on the server), open
Documents, open Home. Reported per (processes, sessions): the p50/p95 of each step (click or
submit to the app reporting its script finished) and the steps per second over all sessions, plus
each app process's memory (RSS) once its sessions are done. Separately, the RSS that the
embedding model adds to a Python process (the services imported, then the model loaded).
Every request to a host other than 127.0.0.1 is aborted and counted.
Usage: python -m scripts.bench.bench_team [--sessions 1,2,4,8] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.common import ROOT, fresh_data_dir, machine_facts, rounded, stop_stores, summarize, write_results

QUERIES = ["tariff on imported goods", "the atomic bomb and the world after the war", "taxes on working families",
           "space exploration and the moon", "inflation and the price of food"]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'

_MODEL_RSS = """
import os, psutil, sys
p = psutil.Process()
import services.container  # noqa: F401  (every service module, as an app process imports them)
before = p.memory_info().rss
from services.settings import get_settings
from services.stores.embeddings import create_embedder
emb = create_embedder(get_settings())
emb.embed_query("warm up")
print(before, p.memory_info().rss)
"""


def model_rss() -> dict[str, float]:
    """MiB of a Python process with the services imported, and after loading the embedding model."""
    out = subprocess.run([sys.executable, "-c", _MODEL_RSS], cwd=ROOT, capture_output=True, text=True, timeout=600)
    before, after = (int(x) for x in out.stdout.split()[-2:])
    return {"services_imported_mib": before / 2**20, "model_loaded_mib": after / 2**20,
            "model_adds_mib": (after - before) / 2**20}


async def _session(browser: Any, url: str, rounds: int, index: int, blocked: list[str]) -> dict[str, list[float]]:
    """One user's loop; seconds per step."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})

    async def guard(route: Any) -> None:
        if urlparse(route.request.url).hostname == "127.0.0.1":
            await route.continue_()
        else:
            blocked.append(route.request.url)
            await route.abort()

    await context.route("**/*", guard)
    page = await context.new_page()
    page.set_default_timeout(600_000)
    steps: dict[str, list[float]] = {"search": [], "documents": [], "home": [], "open_search": []}

    async def idle() -> None:
        await page.locator(IDLE).wait_for(state="attached")

    try:
        await page.goto(url)
        await page.locator("h1", has_text="RAG Memory Workbench").first.wait_for()
        await idle()
        sidebar = page.get_by_test_id("stSidebar")  # the app shell's st.page_link list (icon ligature, then title)

        def nav(link: str) -> Any:
            return sidebar.locator("a", has_text=re.compile(rf"{link}$"))

        for r in range(rounds):
            t0 = time.perf_counter()
            await nav("Search").click()
            await page.get_by_label("Query", exact=True).wait_for()
            await idle()
            steps["open_search"].append(time.perf_counter() - t0)
            await page.get_by_label("Query", exact=True).fill(QUERIES[(index + r) % len(QUERIES)])
            t0 = time.perf_counter()
            await page.get_by_role("button", name="Search").click()
            await page.get_by_text(re.compile(r"results? in \d+ document")).or_(page.get_by_text("No result above")).first.wait_for()
            await idle()
            steps["search"].append(time.perf_counter() - t0)
            for link, title, key in (("Documents", "Documents", "documents"), ("Home", "RAG Memory Workbench", "home")):
                t0 = time.perf_counter()
                await nav(link).click()
                await page.locator("h1", has_text=title).first.wait_for()
                await idle()
                steps[key].append(time.perf_counter() - t0)
    finally:
        await context.close()
    return steps


async def _load(urls: list[str], sessions: int, rounds: int) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    from scripts.bench.app_driver import CHROMIUM, CHROMIUM_ARGS

    blocked: list[str] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        t0 = time.perf_counter()
        results = await asyncio.gather(*[_session(browser, urls[i % len(urls)], rounds, i, blocked)
                                         for i in range(sessions)])
        wall = time.perf_counter() - t0
        await browser.close()
    steps = {key: [x * 1000 for r in results for x in r[key]] for key in results[0]}
    total = sum(len(v) for v in steps.values())
    return {"wall_s": wall, "steps_per_s": total / wall, "steps": total,
            "ms": {key: summarize(values) for key, values in steps.items()}, "blocked_non_loopback": len(blocked)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", default="1,2,4,8", help="comma-separated session counts")
    parser.add_argument("--processes", default="1,2", help="comma-separated app process counts")
    parser.add_argument("--rounds", type=int, default=3, help="loops per session")
    parser.add_argument("--name", default="team", help="results file name (docs/bench/<name>.json)")
    args = parser.parse_args(argv)
    started, machine = time.time(), machine_facts()
    folder = fresh_data_dir("team")
    import psutil

    from scripts.bench.app_driver import App, free_port
    from scripts.bench.bench_app import seed
    from services.settings import get_settings

    figures: dict[str, Any] = {"model_rss": model_rss(), "seed": seed(folder), "runs": []}
    figures["seed"].pop("startup_breakdown_s", None)
    print(f"model: {figures['model_rss']}", flush=True)
    try:
        for processes in (int(x) for x in args.processes.split(",")):
            apps = [App(free_port(), folder / f"streamlit-{i}.log") for i in range(processes)]
            try:
                for app in apps:
                    app.start()
                for app in apps:
                    app.wait_listening(300)
                asyncio.run(_load([a.url for a in apps], 1, 1))  # warm: each process builds its services once
                if processes > 1:
                    asyncio.run(_load([a.url for a in apps], processes, 1))
                for sessions in (int(x) for x in args.sessions.split(",")):
                    load_before = psutil.getloadavg()[0]
                    run = _load([a.url for a in apps], sessions, args.rounds)
                    result = asyncio.run(run)
                    result.update(processes=processes, sessions=sessions, load_1m_before=load_before,
                                  load_1m_after=psutil.getloadavg()[0],
                                  app_rss_mib=[psutil.Process(a.proc.pid).memory_info().rss / 2**20
                                               for a in apps if a.proc])
                    figures["runs"].append(result)
                    print(f"{processes} process(es), {sessions} session(s): {result['steps_per_s']:.2f} steps/s, "
                          f"search p50 {result['ms']['search']['p50']:.0f} ms, load {load_before:.1f}", flush=True)
            finally:
                for app in apps:
                    app.stop()
    finally:
        stop_stores(folder)
    versions = figures["seed"].pop("versions")
    path = write_results(args.name, rounded(figures, 3), started=started, machine=machine, settings=get_settings(),
                         versions=versions, method=[
                             f"{args.rounds} loops per session: Search page, a hybrid query, Documents, Home; each step "
                             "from the click to the app reporting its script finished (data-test-script-state="
                             "notRunning). Sessions spread round-robin over the processes; all run at once.",
                             "App processes share the embedded stores of one fresh data folder (as several processes "
                             "share one PostgreSQL and one FalkorDB server in a team setup).",
                             "The machine is shared with other engineers: the 1-minute load average is recorded "
                             "before and after each run.",
                         ])
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
