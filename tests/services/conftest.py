"""Fixtures of the service tests in more than one folder: collections with a ``date`` field (the graph tests and
the backup of the analyst's graph edits). The session's stores and model are tests/conftest.py's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from services.errors import NotFound
from tests.utils.graph import DATE_SCHEMA, unique_name


@pytest.fixture
def make_collection(services) -> Iterator[Callable[..., Any]]:
    """Create collections (with a ``date`` metadata field) that are deleted after the test."""
    made: list[str] = []

    def make(description: str = "Graph test collection.") -> Any:
        name = unique_name()
        made.append(name)
        return services.collections.create(name=name, description=description, metadata_schema=DATE_SCHEMA)

    yield make
    for name in made:
        try:
            services.deletion.delete_collection(name)
        except NotFound:
            pass


@pytest.fixture
def dated(make_collection) -> Any:
    """One fresh collection with a ``date`` field; returns the Collection (``.name``, ``.id``)."""
    return make_collection()
