"""The graph store, opened on first use.

Most commands never touch the graph (listing collections or documents), and
opening it costs a server start or a driver plus LlamaIndex's imports. So the
container holds a :class:`LazyGraphStore`: the first query opens the real
:class:`~services.stores.graph_store.GraphStore` (and prepares it, e.g. its
indexes), every later one reuses it. A failed open is not kept: the next use
tries again and raises again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from services.long_lived import freeze_loaded
from services.stores.graph_store import GraphStore


class LazyGraphStore:
    """Same surface as :class:`GraphStore` (``kind``, ``location``, ``query``, ``ping``, ``close``)."""

    def __init__(self, open_store: Callable[[], GraphStore]) -> None:
        self._open_store = open_store
        self._store: GraphStore | None = None
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        return self._store is not None

    def opened(self) -> GraphStore:
        """The real store, opening it on the first call (one thread opens it; the others wait)."""
        store = self._store
        if store is not None:
            return store
        with self._lock:
            if self._store is None:
                self._store = self._open_store()
                freeze_loaded()  # the driver and LlamaIndex's graph-store modules
            return self._store

    @property
    def kind(self) -> str:
        return self.opened().kind

    @property
    def location(self) -> str:
        return self.opened().location

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        return self.opened().query(cypher, params)

    def ping(self) -> None:
        self.opened().ping()

    def close(self) -> None:
        """Close the store if it was opened; one never opened is left alone (nothing was started)."""
        with self._lock:
            store, self._store = self._store, None
        if store is not None:
            store.close()
