"""Look inside the search service's SQL: record the statements it runs, then replay one exactly
(an exact scan for recall, or EXPLAIN ANALYZE), so the benchmark never keeps its own copy of the SQL."""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

_VECTOR = re.compile(r"'\[[-+0-9.e,]+\]'")


class StatementRecorder:
    """Records (statement, parameters) of every statement an engine runs while ``recording`` is True."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.recording = False
        self.statements: list[tuple[str, Any]] = []
        event.listen(engine, "before_cursor_execute", self._record)

    def _record(self, conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        if self.recording:
            self.statements.append((statement, parameters))

    def capture(self, fn: Any) -> tuple[Any, list[tuple[str, Any]]]:
        """Run ``fn`` and return (its result, the statements it ran)."""
        self.statements, self.recording = [], True
        try:
            return fn(), list(self.statements)
        finally:
            self.recording = False

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._record)


def find(statements: list[tuple[str, Any]], needle: str, *, last: bool = False) -> int:
    """Index of the first (or last) statement containing ``needle``."""
    found = [i for i, (sql, _) in enumerate(statements) if needle in sql]
    if not found:
        raise LookupError(f"no statement containing {needle!r}")
    return found[-1] if last else found[0]


def replay(engine: Any, statements: list[tuple[str, Any]], index: int, *, prefix: str = "",
           settings: tuple[str, ...] = ()) -> list[Any]:
    """Re-run the ``SET`` statements recorded before ``statements[index]``, extra ``settings``, then that
    statement (with ``prefix``, e.g. ``EXPLAIN ANALYZE``) in one transaction; its rows."""
    with engine.begin() as conn:
        for sql, params in statements[:index]:
            if sql.lstrip().upper().startswith("SET "):
                conn.exec_driver_sql(sql, params or ())
        for sql in settings:
            conn.exec_driver_sql(sql)
        sql, params = statements[index]
        return list(conn.exec_driver_sql(prefix + sql, params))


def explain(engine: Any, statements: list[tuple[str, Any]], needle: str, *, max_lines: int = 30) -> dict[str, Any]:
    """EXPLAIN (ANALYZE, BUFFERS) of the last recorded statement containing ``needle`` (vector literals elided)."""
    index = find(statements, needle, last=True)
    lines = [_VECTOR.sub("'[…]'", r[0]) for r in replay(engine, statements, index, prefix="EXPLAIN (ANALYZE, BUFFERS) ")]
    execution = next((ln for ln in lines if ln.startswith("Execution Time")), "")
    return {"uses_hnsw": any("chunks_hnsw" in ln for ln in lines), "execution": execution.strip(),
            "plan": lines[:max_lines]}


def chunk_count(engine: Any) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT count(*) FROM chunks")).scalar_one())
