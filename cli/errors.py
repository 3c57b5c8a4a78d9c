"""Domain errors to one-line CLI messages and exit codes."""

from __future__ import annotations

import json
from typing import Any

import click

from services.errors import (
    AlreadyExists,
    ConfigError,
    EditConflict,
    EmbeddingMismatch,
    Forbidden,
    InUse,
    JobInProgress,
    NotFound,
    UnsupportedInput,
    ValidationFailed,
    WorkbenchError,
)
from services.metadata_schema import json_problem, refuse_json_constant

# First match wins; StoreUnavailable is a ConfigError. Anything else a service raises on purpose is 1.
EXIT_CODES: list[tuple[type[WorkbenchError], int]] = [
    (NotFound, 3),
    (AlreadyExists, 4),
    (JobInProgress, 4),
    (EditConflict, 4),
    (InUse, 4),
    (ValidationFailed, 2),
    (UnsupportedInput, 2),
    (EmbeddingMismatch, 2),
    (ConfigError, 5),
    (Forbidden, 8),
]


def exit_code_for(exc: WorkbenchError) -> int:
    for cls, code in EXIT_CODES:
        if isinstance(exc, cls):
            return code
    return 1


def one_line(text: str) -> str:
    return " ".join(str(text).split())


# An ingest or crawl that ran to its end but did not store everything (see `rag --help`).
EXIT_NOTHING_STORED = 6  # items failed and none was stored
EXIT_SOME_FAILED = 7  # some items failed, others were stored
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it); a crawl stays resumable


def fail_unless_done(result: Any, what: str, unit: str) -> None:
    """Exit non-zero unless an ingest or crawl job ended ``done``.

    ``failed`` with no job error (every item refused or failed) exits 6, ``partial`` 7;
    a cancelled, interrupted or broken job exits 1.
    """
    status, job_id, failed = result.status, result.job_id, result.count("failed")
    if status == "done":
        return
    if status == "partial":
        raise CliError(f"{what} job {job_id} is partial: {failed} {unit}(s) failed; see the list above.",
                       EXIT_SOME_FAILED)
    if status == "failed" and failed and not getattr(result, "error", None):
        raise CliError(f"{what} job {job_id} stored nothing: {failed} {unit}(s) failed; see the list above.",
                       EXIT_NOTHING_STORED)
    raise CliError(f"{what} job {job_id} ended {status}.", 1)


class CliError(click.ClickException):
    """Printed by Click as ``Error: <message>`` on stderr; exits with ``exit_code``."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        from services.redaction import scrub  # (pydantic: not needed until something fails)

        super().__init__(scrub(one_line(message)))  # the secrets registered by the `rag` group
        self.exit_code = exit_code


def from_workbench(exc: WorkbenchError) -> CliError:
    return CliError(str(exc), exit_code_for(exc))


def parse_json(value: str | None, option: str, *, kind: type = dict) -> Any:
    """Parse a JSON option value; a bad value is a one-line error with exit code 2."""
    if value is None or value == "":
        return None
    try:
        parsed = json.loads(value, parse_constant=refuse_json_constant)
    except json.JSONDecodeError as exc:
        raise CliError(f"{option} is not valid JSON: {exc.msg} (at character {exc.pos}).", 2) from None
    except (RecursionError, ValueError) as exc:  # nested thousands deep, or NaN/Infinity
        raise CliError(f"{option} is not valid JSON: {json_problem(exc)}", 2) from None
    if not isinstance(parsed, kind):
        raise CliError(f"{option} must be a JSON {'object' if kind is dict else kind.__name__}.", 2)
    return parsed
