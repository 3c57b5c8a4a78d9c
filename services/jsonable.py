"""Service results as plain JSON values, the one shape the CLI's --json and the MCP tools return.

Dataclasses become objects with the same field names, datetimes ISO 8601
strings, paths strings, tuples and sets lists.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
from pathlib import Path
from typing import Any


def to_jsonable(value: Any) -> Any:
    """Plain JSON types for a service result (dataclasses → dicts, recursively)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, decimal.Decimal):
        return float(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
