"""Assemble docs/benchmarks.md from docs/bench/*.json and the recall table of docs/evaluation.md.

Renders whatever results are present: the search, graph and app benchmarks in their own
sections, any other (e.g. ingest.json) generically, figure by figure. ``docs/bench/findings.md``,
when present, is a person's reading of a run (causes, fixes, next steps) and goes in after the targets.
Usage: python -m scripts.bench.report [--results docs/bench] [--out docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.cli_report import cli_section
from scripts.bench.common import RESULTS_DIR, ROOT
from scripts.bench.docx_report import docx_section
from scripts.bench.ingest_report import concurrency_section, ingest_section
from scripts.bench.onnx_report import onnx_section
from scripts.bench.report_sections import SECTIONS, generic_section, num, table

ORDER = ["ingest", "docx", "pdf", "search", "graph", "ask", "app", "cli", "concurrency", "onnx"]
ALL_SECTIONS = {**SECTIONS, "ingest": ("Ingestion throughput", ingest_section),
                "concurrency": ("Search and Ask during an ingest", concurrency_section),
                "onnx": ("Embedding model: torch vs ONNX Runtime", onnx_section),
                "docx": ("Large Word files: parse speed, memory, Cancel", docx_section),
                "pdf": ("PDF parsing: pages/s with and without OCR", generic_section),
                "cli": ("The `rag` command line", cli_section),
                "ask": ("Ask's offline retrieval", generic_section)}


def load_results(folder: Path) -> list[dict[str, Any]]:
    """Every results file in ``folder``, in the issue's order (others after, by name)."""
    results = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            continue
        if "figures" not in data:  # written without common.write_results: every field is a figure
            data = {"figures": {k: v for k, v in data.items() if k not in ("machine", "run_at")},
                    "machine": data.get("machine", {}), "run_at": data.get("run_at")}
        data.setdefault("benchmark", path.stem)
        data.setdefault("machine", {})
        results.append(data)
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(results, key=lambda r: (rank.get(r.get("benchmark", ""), len(ORDER)), r.get("benchmark", "")))


def evaluation_table(path: Path) -> list[str]:
    """The run line and the first table of docs/evaluation.md (written by `make eval`)."""
    if not path.exists():
        return ["`docs/evaluation.md` is missing: run `make eval` to add retrieval quality here.", ""]
    lines = path.read_text(encoding="utf-8").splitlines()
    run = next((ln for ln in lines if ln.startswith("Run ")), "")
    start = next((i for i, ln in enumerate(lines) if ln.startswith("|")), None)
    if start is None:
        return [f"No table found in `{path.name}`.", ""]
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return ([run, ""] if run else []) + lines[start:end] + ["", f"Details: [evaluation.md]({path.name})."]


def _targets(results: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in results:
        for t in r.get("targets", []):
            mark = {True: "met", False: "**missed**", None: "not measured"}[t.get("met")]
            rows.append([t["name"], num(t.get("value"), f" {t['unit']}" if t.get("unit") else ""),
                         f"{t.get('op', '≤')} {num(t['limit'])}{' ' + t['unit'] if t.get('unit') else ''}", mark])
    if not rows:
        return ["No targets in these results.", ""]
    return table(["target", "measured", "limit", "status"], rows)


def _machine(results: list[dict[str, Any]]) -> list[str]:
    m = results[-1]["machine"] if results else {}
    out = [f"- CPU: {m.get('cpu_model')}, {m.get('cores')} cores; RAM {m.get('ram_gb')} GB; {m.get('os')}; "
           f"Python {m.get('python')}.", ""]
    rows = [[r.get("benchmark"), r.get("run_at"), num(r.get("duration_s")),
             f"{num(r['machine'].get('load_average_1m_at_start'))} → {num(r['machine'].get('load_average_1m_at_end'))}"]
            for r in results]
    out += ["Runs (a load average well above 0 at the start means other work shared the 2 cores):", ""]
    return out + table(["benchmark", "run at", "took (s)", "1-min load average, start → end"], rows)


def _merged(results: list[dict[str, Any]], key: str) -> list[str]:
    merged: dict[str, Any] = {}
    for r in results:
        merged.update(r.get(key) or {})
    if not merged:
        return ["—", ""]
    return table(["name", "value"], [[k, f"`{v}`"] for k, v in merged.items()])


def render(results: list[dict[str, Any]], evaluation: Path, notes_file: Path | None = None) -> str:
    out = [
        "# Benchmarks", "",
        "Written by `make bench` (scripts/bench/, `report.py` assembles this page from `docs/bench/*.json`). "
        "Offline, on the embedded PostgreSQL + pgvector and the embedded FalkorDB, each benchmark in its own "
        "fresh data folder. Each figure is the median over repeated rounds, with the spread (lowest–highest round). "
        "These are measurements, not tests: nothing here fails CI on speed. Re-run one with `make bench-search`, "
        "`make bench-graph`, `make bench-app`, `make bench-cli`"
        + (", `make bench-ingest`" if any(r.get("benchmark") == "ingest" for r in results) else "")
        + ", then `make bench-report`.", "",
        "## Targets", "",
    ]
    out += _targets(results)
    notes = [n for r in results for n in r.get("notes", [])]
    if notes:
        out += ["Notes from the benchmarks (causes and next steps: the findings below):", ""] + [f"- {n}" for n in notes] + [""]
    if notes_file is not None and notes_file.exists():  # written by a person after looking at a run
        out += notes_file.read_text(encoding="utf-8").strip().splitlines() + [""]
    out += ["## Machine", ""] + _machine(results)
    out += ["## Versions", ""] + _merged(results, "versions")
    out += ["## Settings", "", "The shipped defaults (no user config, no .env), unless an environment variable said otherwise.", ""]
    out += _merged(results, "settings")
    for r in results:
        name = r.get("benchmark", "?")
        title, section = ALL_SECTIONS.get(name, (name.replace("_", " ").capitalize(), generic_section))
        out += [f"## {title}", "", f"`{name}` run {r.get('run_at')}, took {num(r.get('duration_s'))} s.", ""]
        out += [f"- {line}" for line in r.get("method", [])] + ([""] if r.get("method") else [])
        try:
            out += section(r["figures"])
        except (KeyError, TypeError, IndexError):  # an older or partial file: show what is there
            out += generic_section(r.get("figures", {}))
    out += ["## Retrieval quality (from `make eval`)", "", "So that speed changes are seen next to quality:", ""]
    out += evaluation_table(evaluation)
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=RESULTS_DIR)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    parser.add_argument("--evaluation", type=Path, default=ROOT / "docs" / "evaluation.md")
    args = parser.parse_args(argv)
    results = load_results(args.results)
    args.out.write_text(render(results, args.evaluation, args.results / "findings.md"), encoding="utf-8")
    print(f"wrote {args.out} from {len(results)} result file(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
