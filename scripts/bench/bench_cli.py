"""How long `rag` takes per call: each command a new process, as a script or an agent runs it.

A fresh data folder; the stores are started and a few speeches ingested first (so lists have rows and
search has hits), then every command runs ``--runs`` times, round-robin (so a burst of load on the shared
machine falls on all of them), timed from process start to exit, with the 1-minute load average taken
before each run. Then each command runs once more under ``python -X importtime`` to see what it
imported: the total, whether the heavy model libraries came in, and for the slowest command the
breakdown by package. Commands run as ``python -m cli`` from this checkout (the ``rag`` console script
runs the same ``cli.main:main``, but from wherever the package was installed).
``--compare DIR`` also times ``rag ask`` from another checkout (DIR, e.g. the commit before a change, with
this checkout's interpreter) in the same rounds, on the same stores, so before and after share one run's load.
Usage: python -m scripts.bench.bench_cli [--runs 5] [--name cli] [--before docs/bench/before/cli.json]
       [--compare DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.common import (
    ROOT,
    SHARED_DATA,
    fresh_data_dir,
    machine_facts,
    rounded,
    stop_stores,
    summarize,
    target,
    write_results,
)

QUERY = "taxes and the federal budget"
QUESTION = "What did presidents say about taxes?"
# (label, arguments, target in seconds or None); the targets are issue 18's
COMMANDS: list[tuple[str, list[str], float | None]] = [
    ("rag --help", ["--help"], 0.5),
    ("rag collection list", ["collection", "list"], 1.5),
    ("rag document list", ["document", "list"], 1.5),
    ("rag status", ["status"], 1.5),
    ("rag search", ["search", QUERY, "--limit", "5"], 4.0),
    ("rag ask", ["ask", QUESTION, "-c", "speeches"], 3.0),  # issue 34: offline, a new conversation
    ("rag config show", ["config", "show"], None),
    ("rag collection info", ["collection", "info", "speeches"], None),
    ("rag graph relationships", ["graph", "relationships", "Congress", "--limit", "20"], None),
]
HEAVY = ("torch", "transformers", "sentence_transformers", "spacy", "llama_index.embeddings.huggingface")
SEED = ["1947_harry_s_truman_d.txt", "1962_john_f_kennedy_d.txt", "1985_ronald_reagan_r.txt"]


COMPARE: dict[str, Path] = {}  # label -> the checkout that label's command runs from (--compare)


def rag(args: list[str], *, python_flags: tuple[str, ...] = (), root: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``python -m cli ARGS`` in this checkout (or ``root``) with the benchmark's environment."""
    # as `make bench-cli` runs it: byte-code is written and read (the Makefile unexports PYTHONDONTWRITEBYTECODE;
    # with it set, every process compiles ~500 modules again, +1.1 s on `rag ask`)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run([sys.executable, *python_flags, "-m", "cli", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600)


def checked(args: list[str], root: Path = ROOT) -> subprocess.CompletedProcess[str]:
    out = rag(args, root=root)
    if out.returncode != 0:
        raise RuntimeError(f"rag {' '.join(args)} exited {out.returncode}: {out.stderr[-2000:]}")
    return out


def seed() -> dict[str, Any]:
    """Start the stores and ingest a few speeches through the CLI itself."""
    t0 = time.perf_counter()
    checked(["collection", "create", "speeches", "-d", "A few State of the Union addresses (CLI benchmark)."])
    paths = [str(SHARED_DATA / "sotu" / name) for name in SEED if (SHARED_DATA / "sotu" / name).exists()]
    if paths:
        checked(["ingest", "file", "speeches", *paths])
    # always: `rag graph relationships Congress` needs Congress in a fact, whatever the speeches' graph holds
    checked(["ingest", "text", "speeches", "Congress passed the Budget Enforcement Act in 1990 after a long debate on "
             "taxes.", "--title", "budget"])
    return {"documents": len(paths) + 1, "seconds": time.perf_counter() - t0}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_commands(runs: int) -> dict[str, dict[str, Any]]:
    """Each command ``runs`` times, round-robin: wall seconds, the process's CPU seconds (user + system,
    which other work on the machine inflates far less than wall time) and the load average before each run."""
    out: dict[str, dict[str, Any]] = {label: {"args": args, "seconds": [], "cpu_seconds": [], "load_1m": []}
                                      for label, args, _ in COMMANDS}
    for _ in range(runs):
        for label, args, _limit in COMMANDS:
            load, cpu = os.getloadavg()[0], _children_cpu()
            t0 = time.perf_counter()
            checked(args, COMPARE.get(label, ROOT))
            out[label]["seconds"].append(time.perf_counter() - t0)
            out[label]["cpu_seconds"].append(_children_cpu() - cpu)
            out[label]["load_1m"].append(load)
    for fig in out.values():
        fig["stats"] = summarize(fig["seconds"])
        fig["cpu_stats"] = summarize(fig["cpu_seconds"])
    return out


def parse_importtime(stderr: str) -> list[tuple[str, int, int, int]]:
    """``-X importtime`` lines as (module, depth, self µs, cumulative µs); depth 0 is a top-level import."""
    rows = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative, name = line.split(":", 1)[1].split("|", 2)
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        rows.append((name.strip(), depth, int(self_us), int(cumulative)))
    return rows


def import_profile(rows: list[tuple[str, int, int, int]], top: int = 12) -> dict[str, Any]:
    """Total import time, the heavy libraries present, and the packages that took the most (self time summed)."""
    by_package: dict[str, int] = {}
    for name, _depth, self_us, _cum in rows:
        root = name.split(".")[0]
        by_package[root] = by_package.get(root, 0) + self_us
    # importtime also prints an import that failed at once: services/torch_guard.py hides torch from spaCy
    # (sys.modules["torch"] = None), and thinc's try-import of it shows as a row of a few microseconds
    modules = {name for name, _depth, _self, cum in rows if cum >= 1000}
    ranked = sorted(by_package.items(), key=lambda kv: -kv[1])[:top]
    chains = sorted(((name, cum) for name, depth, _s, cum in rows if depth <= 1), key=lambda kv: -kv[1])[:top]
    return {
        "total_ms": sum(s for _n, _d, s, _c in rows) / 1000,
        "modules": len(rows),
        "heavy_imported": [h for h in HEAVY if h in modules],
        "by_package_ms": {name: us / 1000 for name, us in ranked},
        "largest_imports_ms": {name: us / 1000 for name, us in chains},
    }


def import_profiles() -> dict[str, dict[str, Any]]:
    out = {}
    for label, args, _ in COMMANDS:
        done = rag(args, python_flags=("-X", "importtime"), root=COMPARE.get(label, ROOT))
        if done.returncode != 0:
            raise RuntimeError(f"{label} exited {done.returncode} under -X importtime: {done.stderr[-2000:]}")
        out[label] = import_profile(parse_importtime(done.stderr))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command")
    parser.add_argument("--name", default="cli", help="results file name (docs/bench/<name>.json)")
    parser.add_argument("--before", type=Path, help="a results file of an earlier run, reported beside this one")
    parser.add_argument("--compare", type=Path, help="another checkout whose `rag ask` is timed in the same rounds")
    parser.add_argument("--only", help="time only the commands whose label starts with this (e.g. 'rag ask')")
    args = parser.parse_args(argv)
    if args.compare:
        label = f"rag ask (checkout {args.compare.name})"
        COMPARE[label] = args.compare.resolve()
        COMMANDS.append((label, ["ask", QUESTION, "-c", "speeches"], None))
    if args.only:
        COMMANDS[:] = [c for c in COMMANDS if c[0].startswith(args.only)]
    started, machine = time.time(), machine_facts()
    folder = fresh_data_dir("cli")
    figures: dict[str, Any] = {}
    try:
        print("starting the stores and seeding…", flush=True)
        figures["seed"] = seed()
        print(f"timing {len(COMMANDS)} commands × {args.runs}…", flush=True)
        figures["commands"] = time_commands(args.runs)
        figures["imports"] = import_profiles()
        slowest = max(figures["commands"], key=lambda label: figures["commands"][label]["stats"]["p50"])
        figures["slowest"] = slowest
        if args.before and not args.before.is_file():
            print(f"no earlier run at {args.before}: reporting this run alone", flush=True)
        elif args.before:
            earlier = json.loads(args.before.read_text(encoding="utf-8"))
            figures["before"] = {"run_at": earlier.get("run_at"), "machine": earlier.get("machine"),
                                 **{k: earlier["figures"].get(k) for k in ("commands", "imports", "slowest")}}
    finally:
        from services.settings import get_settings

        settings = get_settings()
        stop_stores(folder)
    targets = [target(f"`{label}` p50 of {args.runs} runs (new process to exit)",
                      figures["commands"][label]["stats"]["p50"], limit, "s")
               for label, _args, limit in COMMANDS if limit is not None]
    notes = [f"Missed: {t['name']} = {t['value']:.3g} {t['unit']} (target {t['op']} {t['limit']} {t['unit']})."
             for t in targets if t["met"] is False]
    path = write_results(args.name, rounded(figures, 3), started=started, machine=machine, settings=settings,
                         targets=rounded(targets, 3), notes=notes, method=_method(args))
    print(f"wrote {path}")
    for label, fig in figures["commands"].items():
        print(f"{label:<28} p50 {fig['stats']['p50']:.2f} s, CPU {fig['cpu_stats']['p50']:.2f} s "
              f"(load {min(fig['load_1m']):.1f}–{max(fig['load_1m']):.1f})")
    return 0


def _method(args: Any) -> list[str]:
    return [
        f"A fresh data folder; the embedded stores started and {len(SEED)} State of the Union addresses ingested "
        "through the CLI first, so every timed command finds the stores running (as after any earlier `rag` call).",
        f"Each command {args.runs} times, round-robin, each a new `python -m cli …` process from this checkout, timed "
        "from start to exit (exit 0 checked), with its CPU time (user + system, from getrusage); the 1-minute load "
        "average is read before each run.",
        "Then each command once under `python -X importtime`: the total import time (self times summed), whether "
        f"{', '.join(HEAVY)} were imported, and per package the self times summed.",
    ]


if __name__ == "__main__":
    raise SystemExit(main())
