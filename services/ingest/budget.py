"""The time budget of reading one file, and a job's Cancel, as seen from inside a parser.

A parser calls :func:`checkpoint` as it goes (the Word reader: every block and
table row). The ingest stage that reads a file opens a :func:`parse_budget` with
the job's cancel check; outside a job (a crawl's page, a test) the default
budget applies and nothing can cancel. The budget lives in a context variable,
so ``SourceItem.load()`` keeps its shape and the parser needs no extra argument.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from services.errors import UnsupportedInput

DEFAULT_PARSE_SECONDS = 120.0
CANCEL_POLL_SECONDS = 0.25  # how often a running parse asks whether the job was cancelled


class ParseCancelled(Exception):
    """The job was cancelled while a file was being read."""


@dataclass
class ParseBudget:
    seconds: float = DEFAULT_PARSE_SECONDS
    cancelled: Callable[[], bool] | None = None
    progress: Callable[[int, int], None] | None = None  # (done, total) of a long step inside one file: OCR pages
    started: float = field(default_factory=time.monotonic)
    _next_poll: float = 0.0

    def check(self, name: str) -> None:
        now = time.monotonic()
        if now - self.started >= self.seconds:
            raise UnsupportedInput(
                f"refused: reading it took longer than the {self.seconds:g} s budget (parse_seconds); "
                "the file is too large or too complex to read in time.", file=name)
        self.check_cancel(now)

    def extend(self, seconds: float) -> None:
        """Give this file ``seconds`` more (OCR: each page read adds its own time, so a scan is not refused)."""
        self.started += seconds

    def check_cancel(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if self.cancelled is not None and now >= self._next_poll:
            self._next_poll = now + CANCEL_POLL_SECONDS
            if self.cancelled():
                raise ParseCancelled()


_current: ContextVar[ParseBudget | None] = ContextVar("parse_budget", default=None)


@contextmanager
def parse_budget(seconds: float = DEFAULT_PARSE_SECONDS, cancelled: Callable[[], bool] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Iterator[ParseBudget]:
    """Read files within ``seconds`` each; ``cancelled`` is polled every :data:`CANCEL_POLL_SECONDS`;
    ``progress(done, total)`` hears of a long step inside a file (pages read by OCR)."""
    budget = ParseBudget(seconds, cancelled, progress)
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def current_budget() -> ParseBudget:
    """The budget in force, restarted for this file; the default one when none was opened."""
    budget = _current.get()
    if budget is None:
        return ParseBudget()
    budget.started = time.monotonic()
    return budget
