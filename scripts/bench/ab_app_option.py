"""A/B of one Streamlit server option in one run: Home's cold start and warm page switches, alternated.

The same seeded data folder (the stores stay up), the same browser; each repetition starts the app
once with ``--server.<option> A`` and once with ``B``, times process start to Home's title and to its
last section, then clicks through every page for a few rounds (the first round is not counted;
the app is given until it idles after it, as Ingest's first visit starts loading the embedding model).
Medians and p95 of each side are printed and written to docs/bench/<name>.json.

Usage: python -m scripts.bench.ab_app_option --option fileWatcherType --a auto --b none [--reps 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import re
import time
from typing import Any

from scripts.bench.common import fresh_data_dir, machine_facts, stop_stores, summarize, write_results


def _one(browser: Any, option: str, value: str, rounds: int, log: Any) -> dict[str, Any]:
    from scripts.bench.app_driver import App, LoopbackGuard, free_port, new_page, wait_rendered
    from scripts.bench.bench_app import HOME_LAST, PAGES, settle

    app = App(free_port(), log)
    app.start([f"--server.{option}", value])
    try:
        app.wait_listening()
        context, page = new_page(browser, LoopbackGuard())
        try:
            page.goto(app.url)
            title, done = wait_rendered(page, PAGES[0][1], HOME_LAST)
            out: dict[str, Any] = {"title_s": title - app.started, "rendered_s": done - app.started, "switch_ms": []}
            sidebar = page.get_by_test_id("stSidebar")
            for round_ in range(rounds + 1):
                for link, heading in PAGES[1:] + PAGES[:1]:
                    clicked = time.perf_counter()
                    sidebar.locator("a", has_text=re.compile(rf"{link}$")).click()
                    _, finished = wait_rendered(page, heading)
                    if round_:
                        out["switch_ms"].append((finished - clicked) * 1000)
                if round_ == 0 and app.proc is not None:
                    settle(app.proc.pid)  # Ingest's first visit started the model's load: time warm rounds only
            return out
        finally:
            context.close()
    finally:
        app.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--option", required=True, help="a server option, e.g. fileWatcherType")
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--name", default="app_option")
    args = parser.parse_args(argv)
    started, machine = time.time(), machine_facts()
    folder = fresh_data_dir("ab")
    from playwright.sync_api import sync_playwright

    from scripts.bench.app_driver import CHROMIUM, CHROMIUM_ARGS
    from scripts.bench.bench_app import seed
    from services.settings import get_settings

    runs: dict[str, list[dict[str, Any]]] = {args.a: [], args.b: []}
    try:
        seed(folder)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for rep in range(args.reps):
                for value in (args.a, args.b):
                    runs[value].append(_one(browser, args.option, value, args.rounds, folder / "streamlit.log"))
                    print(rep, value, {k: round(v, 2) for k, v in runs[value][-1].items() if k != "switch_ms"},
                          flush=True)
            browser.close()
    finally:
        stop_stores(folder)
    figures = {value: {"title_s": summarize([r["title_s"] for r in rs]),
                       "rendered_s": summarize([r["rendered_s"] for r in rs]),
                       "switch_ms": summarize([x for r in rs for x in r["switch_ms"]])} for value, rs in runs.items()}
    for value, f in figures.items():
        print(f"{args.option}={value}: Home rendered p50 {f['rendered_s']['p50']:.2f} s, title p50 "
              f"{f['title_s']['p50']:.2f} s; warm switch p50/p95 {f['switch_ms']['p50']:.0f}/"
              f"{f['switch_ms']['p95']:.0f} ms (n {f['switch_ms']['n']})")
    method = [f"{args.reps} alternated starts per value of server.{args.option} on one seeded folder (stores up); "
              f"{args.rounds} warm rounds over every page after each start."]
    write_results(args.name, figures, started=started, machine=machine, settings=get_settings(), versions={},
                  targets=[], notes=[], method=method)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
