"""Markdown for docs/bench/cli.json: each `rag` command's time per call, the load it ran under, its imports."""

from __future__ import annotations

from typing import Any

from scripts.bench.report_sections import num, table


def _load(fig: dict[str, Any]) -> str:
    loads = fig.get("load_1m") or []
    return f"{num(min(loads))}–{num(max(loads))}" if loads else "—"


def _cpu(fig: dict[str, Any]) -> str:
    cpu = fig.get("cpu_stats")
    return num(cpu["p50"]) if cpu else "—"


def cli_section(f: dict[str, Any]) -> list[str]:
    commands, imports = f["commands"], f.get("imports", {})
    before = f.get("before") or {}
    old = before.get("commands", {})
    out = [f"Seconds per call, new process to exit, p50 of {len(next(iter(commands.values()))['seconds'])} runs "
           "(spread: fastest–slowest run). CPU s is the process's own user + system time (p50), which other work "
           "on the machine inflates far less than wall time; the load average is the 1-minute one read before each run."
           + (f" Before: the same benchmark on the code before issue 18 (run {before.get('run_at')})." if before else ""),
           ""]
    rows = []
    for label, fig in commands.items():
        s, was = fig["stats"], old.get(label)
        row = [f"`{label}`", num(s["p50"]), f"{num(s['min'])}–{num(s['max'])}", _cpu(fig), _load(fig)]
        if before:
            row += [num(was["stats"]["p50"]) if was else "—", _cpu(was) if was else "—", _load(was) if was else "—"]
        imp = imports.get(label, {})
        row += [num(imp.get("total_ms")), ", ".join(imp.get("heavy_imported", [])) or "none"]
        rows.append(row)
    header = ["command", "p50 s", "spread", "CPU s", "load"]
    if before:
        header += ["before p50 s", "before CPU s", "before load"]
    out += table(header + ["imports ms", "model libraries imported"], rows)
    slowest = f.get("slowest")
    imp = imports.get(slowest, {})
    if imp:
        out += [f"Where the slowest command (`{slowest}`) spends its imports (`python -X importtime`, one run, "
                f"{imp.get('modules')} modules, {num(imp.get('total_ms'))} ms in all), by top-level package "
                "(self times summed):", ""]
        out += table(["package", "ms"], [[k, num(v)] for k, v in imp.get("by_package_ms", {}).items()])
        out += ["Its largest imports (cumulative, the command's own and their first level):", ""]
        out += table(["module", "ms"], [[k, num(v)] for k, v in imp.get("largest_imports_ms", {}).items()])
    old_imp = before.get("imports", {}).get(before.get("slowest", ""), {})
    if old_imp:
        out += [f"Before, the slowest command was `{before.get('slowest')}`: {old_imp.get('modules')} modules, "
                f"{num(old_imp.get('total_ms'))} ms of imports; by package:", ""]
        out += table(["package", "ms"], [[k, num(v)] for k, v in old_imp.get("by_package_ms", {}).items()])
    return out
