"""``--compare``: two checkouts' code timed in the same run, on the same stores and queries, alternating.

Old code cannot be imported beside new in one process, so each checkout gets one long-lived worker
(scripts/bench/compare_worker.py run with cwd and PYTHONPATH = that checkout) that builds its services on the
shared data folder and answers timing requests as JSON lines. The driver sends each query to both workers in
turn; which side goes first flips every query and every round (old, new, new, old, …), so neither side always
finds the caches the other just warmed, and a burst of load from other work on the machine falls on both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from scripts.bench.common import ROOT, median, rounded, summarize_rounds, write_results

WORKER = Path(__file__).resolve().with_name("compare_worker.py")
SIDES = ("old", "new")


def schedule(queries: int, rounds: int) -> Iterator[tuple[int, int, str]]:
    """(round, query index, side) in the order to time them: every query on both sides, in alternating order."""
    for r in range(rounds):
        for q in range(queries):
            first = (r + q) % 2
            for side in (SIDES[first], SIDES[1 - first]):
                yield r, q, side


def parse_reply(line: str, side: str) -> dict[str, Any]:
    """A worker's answer line; a failed request or a broken line stops the benchmark with the worker's reason."""
    if not line:
        raise RuntimeError(f"the {side} worker exited (its stderr has the reason)")
    try:
        reply = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"the {side} worker wrote a line that is not JSON: {line[:200]!r}") from exc
    if not isinstance(reply, dict) or reply.get("ok") is False:
        error = reply.get("error") if isinstance(reply, dict) else reply
        raise RuntimeError(f"the {side} worker failed: {error}\n{reply.get('trace', '') if isinstance(reply, dict) else ''}")
    return reply


def checkout_env(checkout: Path) -> dict[str, str]:
    """This process's environment (its RAG_DATA_DIR included) with ``checkout`` first on the import path;
    byte-code is written and read, as ``make bench-*`` runs (the Makefile unexports PYTHONDONTWRITEBYTECODE)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(checkout)
    return env


class Worker:
    """One checkout's worker process: ``request`` sends a JSON line and returns its parsed answer."""

    def __init__(self, side: str, checkout: Path) -> None:
        self.side, self.checkout = side, checkout.resolve()
        self.proc = subprocess.Popen([sys.executable, str(WORKER)], cwd=self.checkout, env=checkout_env(self.checkout),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        parse_reply(self._readline(), side)  # {"ready": true} once its services are built
        self.services = self.request("hello")["services"]
        if not Path(self.services).resolve().is_relative_to(self.checkout):
            self.close()
            raise RuntimeError(f"the {side} worker imported services from {self.services}, not from {self.checkout}")

    def _readline(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline()

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self.proc.stdin.flush()
        return parse_reply(self._readline(), self.side)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                self.proc.stdin.close()
                self.proc.wait(timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def start_workers(old: Path, new: Path) -> dict[str, Worker]:
    workers: dict[str, Worker] = {}
    try:
        for side, checkout in zip(SIDES, (old, new), strict=True):
            workers[side] = Worker(side, checkout)
    except BaseException:
        close_workers(workers)
        raise
    return workers


def close_workers(workers: dict[str, Worker]) -> None:
    for worker in workers.values():
        worker.close()


class Samples:
    """Per phase and side, the rounds' samples; per phase the paired new/old ratios (same query, same round)."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.ms: dict[str, dict[str, list[list[float]]]] = {}
        self.load: list[float] = []

    def add(self, phase: str, side: str, round_: int, value: float) -> None:
        sides = self.ms.setdefault(phase, {s: [[] for _ in range(self.rounds)] for s in SIDES})
        sides[side][round_].append(value)

    def figures(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for phase, sides in self.ms.items():
            stats = {side: summarize_rounds(sides[side]) for side in SIDES if any(sides[side])}
            if len(stats) < len(SIDES):  # a part only one side's code times (the two may name their parts apart)
                out[phase] = {**stats, "only": next(iter(stats))}
                continue
            paired = all(len(o) == len(n) for o, n in zip(sides["old"], sides["new"], strict=True))
            pairs = [n / o for r_old, r_new in zip(sides["old"], sides["new"], strict=True)
                     for o, n in zip(r_old, r_new, strict=True) if o > 0] if paired else []
            out[phase] = {**stats, "ratio_p50": _ratio(stats["new"]["p50"], stats["old"]["p50"]),
                          "ratio_p95": _ratio(stats["new"]["p95"], stats["old"]["p95"]),
                          "paired_ratio_median": median(pairs) if pairs else None}
        return out

    def load_figures(self) -> dict[str, float]:
        return {"min": min(self.load), "median": median(self.load), "max": max(self.load)} if self.load else {}


def _ratio(new: float, old: float) -> float | None:
    return new / old if old > 0 else None


def timed(workers: dict[str, Worker], samples: Samples, queries: int, rounds: int, phases: list[str],
          call: Callable[[Worker, int, str], tuple[float, dict[str, float]]]) -> None:
    """Every (round, query, side) of :func:`schedule`, each phase in turn: ``call(worker, query index, phase)``
    returns (ms, the call's own part timings); the 1-minute load average is read as each round starts."""
    for r, q, side in schedule(queries, rounds):
        if q == 0 and side == SIDES[r % 2]:
            samples.load.append(os.getloadavg()[0])
        for phase in phases:
            ms, parts = call(workers[side], q, phase)
            samples.add(phase, side, r, ms)
            for name, value in parts.items():
                samples.add(f"{phase}.{name}", side, r, value)


def describe(workers: dict[str, Worker]) -> dict[str, Any]:
    return {side: {"checkout": str(w.checkout), "commit": _commit(w.checkout), "services": w.services}
            for side, w in workers.items()}


def _commit(checkout: Path) -> str:
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def print_table(figures: dict[str, Any]) -> None:
    for phase, fig in figures.items():
        if "." in phase or "only" in fig:
            continue
        ratios = "/".join(f"{r:.3f}" if r is not None else "-" for r in
                          (fig["ratio_p50"], fig["ratio_p95"], fig["paired_ratio_median"]))
        print(f"{phase:<22} old p50/p95 {fig['old']['p50']:7.1f}/{fig['old']['p95']:7.1f} ms, new "
              f"{fig['new']['p50']:7.1f}/{fig['new']['p95']:7.1f} ms; new/old p50/p95/paired {ratios}", flush=True)


def merge_results(name: str, key: str, figures: dict[str, Any], method: list[str],
                  results_dir: Path = ROOT / "docs" / "bench") -> tuple[dict[str, Any], list[str]]:
    """``figures`` under ``key`` beside what an earlier compare run wrote to the same file (Ask's and Search's
    comparisons share docs/bench/core-compare.json); the method lines likewise, each benchmark's own."""
    path = results_dir / f"{name}.json"
    earlier = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    merged = {k: v for k, v in earlier.get("figures", {}).items() if k != key}
    lines = [m for m in earlier.get("method", []) if not m.startswith(f"[{key}]")]
    return {**merged, key: figures}, lines + [f"[{key}] {m}" for m in method]


def write_compare(name: str, key: str, figures: dict[str, Any], method: list[str], **results: Any) -> int:
    """``figures`` under ``key`` in docs/bench/<name>.json beside the other benchmark's (:func:`merge_results`);
    ``results`` are :func:`scripts.bench.common.write_results`' keywords (started, machine, settings, versions)."""
    merged, lines = merge_results(name, key, rounded(figures, 3), method)
    print(f"wrote {write_results(name, merged, method=lines, **results)}")
    return 0
