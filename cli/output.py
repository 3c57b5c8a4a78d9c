"""Output: ``--json`` prints one JSON value on stdout; otherwise a short human summary.

The JSON shape is stable: service dataclasses become objects with the same
field names, datetimes ISO 8601 strings, paths strings, tuples lists. Each
command's docstring says what its JSON holds.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from services.jsonable import to_jsonable

__all__ = ["emit", "json_option", "table", "to_jsonable"]


def json_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON on stdout.")(fn)


def emit(data: Any, as_json: bool, human: Callable[[], None] | None = None) -> None:
    """Print ``data`` as JSON, or call ``human`` to print the readable form."""
    if as_json or human is None:
        click.echo(json.dumps(to_jsonable(data), indent=2, ensure_ascii=False))
    else:
        human()


def table(rows: list[list[Any]], headers: list[str]) -> None:
    """A plain aligned text table."""
    cells = [[str(c) for c in headers]] + [[("" if c is None else str(c)) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    for n, row in enumerate(cells):
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
        if n == 0:
            click.echo("  ".join("-" * w for w in widths))
