"""Shared fixtures: one real embedded PostgreSQL and one real embedding model for the whole run.

The data folder is a fresh temporary directory per test session, set through
``RAG_DATA_DIR`` before anything reads the settings, so the app under AppTest,
the CLI and the service tests all use the same real stores.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

_DATA_DIR = Path(tempfile.mkdtemp(prefix="rag-test-"))
os.environ["RAG_DATA_DIR"] = str(_DATA_DIR)
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["RAG_CONFIG_FILE"] = str(_DATA_DIR / "no-user-config.toml")
for _var in ("DATABASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "NEO4J_URI"):
    os.environ.pop(_var, None)

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return _DATA_DIR


@pytest.fixture(scope="session")
def services():
    from services.container import build_services
    from services.settings import get_settings

    svc = build_services(get_settings())
    yield svc
    svc.close()
    _stop_servers()


def _stop_servers() -> None:
    """Stop this session's embedded servers and remove its data folder."""
    import shutil

    from services.stores.graph_store import stop_embedded_falkordb
    from services.stores.postgres import stop_embedded_postgres

    stop_embedded_falkordb(_DATA_DIR)
    stop_embedded_postgres(_DATA_DIR)
    shutil.rmtree(_DATA_DIR, ignore_errors=True)


@pytest.fixture
def collection(services) -> Iterator[str]:
    """A fresh collection with a unique name, deleted afterwards."""
    name = f"test-{uuid.uuid4().hex[:10]}"
    services.collections.create(name=name, description="Created by a test.")
    yield name
    try:
        services.collections.delete(name)
    except Exception:
        pass


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared/data is not beside this checkout")
    return SHARED
