"""How long each phase of one request took, in milliseconds: one stopwatch per search or question.

``with watch.phase("semantic"): ...`` times a block; ``watch.call("keyword", fn, *args)`` times a call (what a
thread pool runs). Phases that run on different threads write different keys, so no lock is needed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class Stopwatch:
    def __init__(self) -> None:
        self.ms: dict[str, float] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.ms[name] = (time.perf_counter() - t0) * 1000

    def call(self, name: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        with self.phase(name):
            return fn(*args, **kwargs)
