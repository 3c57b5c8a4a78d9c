"""The fact graph's scoreboard for `make eval`: ../shared/tools/graph_metrics.py on the ingested hotpotqa-100.

The tool is the project's yardstick, not part of the app: it lives beside the checkout (``../shared/tools``)
and reads the kept data folder's embedded stores read-only. ``BEFORE`` is its output on the graph the
extractor built before issue 29 (commit 7023603, the same 994 passages), so each run prints before and after.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT.parent / "shared" / "tools" / "graph_metrics.py"

BEFORE: dict[str, Any] = {
    "entities": 2615, "facts": 2041, "docs_with_facts": 0.7, "labels": 1218, "top30_share": 0.189,
    "title_coverage": 0.229, "title_dup": 0.0, "pairs_2hop": 0.02, "pairs_2hop_any": 0.02, "ingest_dated": 0.654,
    "hub_share": 0.091,
}
# (measure, target as text, passes(value)) for the rows the issue sets a target on
ROWS: list[tuple[str, str, Any]] = [
    ("title_coverage", "≥ 0.85", lambda v: v >= 0.85),
    ("pairs_2hop", "≥ 0.45", lambda v: v >= 0.45),
    ("ingest_dated", "0", lambda v: v == 0),
    ("docs_with_facts", "≥ 0.95", lambda v: v >= 0.95),
    ("labels", "≤ 300", lambda v: v <= 300),
    ("top30_share", "≥ 0.60", lambda v: v >= 0.60),
    ("hub_share", "≤ 0.02", lambda v: v <= 0.02),
    ("entities", "", None),
    ("facts", "", None),
    ("pairs_2hop_any", "", None),
    ("title_dup", "", None),
]


def graph_metrics(folder: Path, data: Path) -> dict[str, Any] | None:
    """The tool's JSON for the kept folder, or None when the tool is not beside the checkout."""
    if not TOOL.exists():
        return None
    from services.stores.graph_store import start_embedded_falkordb

    start_embedded_falkordb(folder)  # the tool reads its socket: a kept folder with nothing new to ingest never started it
    done = subprocess.run([sys.executable, str(TOOL), "--data", str(folder), "--set", str(data)],
                          capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"graph_metrics failed: {done.stderr[-2000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def table(after: dict[str, Any]) -> list[str]:
    lines = ["| measure | target | before (7023603) | after | met |", "| --- | --- | ---: | ---: | --- |"]
    for name, target, passes in ROWS:
        met = "" if passes is None else ("yes" if passes(after[name]) else "**no**")
        lines.append(f"| {name} | {target} | {BEFORE.get(name, '')} | {after[name]} | {met} |")
    lines.append("")
    lines.append("Commonest labels after: " + ", ".join(f"{label} {n}" for label, n in after.get("top_labels", [])))
    return lines
