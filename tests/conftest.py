"""Shared fixtures: one real PostgreSQL, one real FalkorDB and one real embedding model for the whole run.

The data folder is a fresh temporary directory per test session, set through
``RAG_DATA_DIR`` before anything reads the settings, so the app under AppTest,
the CLI and the service tests all use the same real stores.

``--stores=embedded`` (the default) runs on the embedded servers in that folder.
``--stores=external`` first starts a PostgreSQL server (TCP on 127.0.0.1, SCRAM
passwords, a non-superuser role owning its database) and a password-protected
FalkorDB server, and points ``DATABASE_URL`` and ``RAG_FALKORDB_URL`` at them, so
the same test modules run against servers set up as a team would run them
(tests/utils/external_servers.py). ``make test`` runs the store-facing modules
both ways; tests marked ``embedded_only`` (they kill or inspect the embedded
servers themselves) are skipped on external servers.
"""

from __future__ import annotations

import json
import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.utils.family_times import family_lines

_DATA_DIR = Path(tempfile.mkdtemp(prefix="rag-test-"))
os.environ["RAG_DATA_DIR"] = str(_DATA_DIR)
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["RAG_CONFIG_FILE"] = str(_DATA_DIR / "no-user-config.toml")
for _var in ("DATABASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "NEO4J_URI", "RAG_FALKORDB_URL", "FALKORDB_URL",
             "RAG_DATABASE_URL"):
    os.environ.pop(_var, None)

# The shared corpora beside the checkout; RAG_TEST_SHARED_DATA points elsewhere (tests/test_shared_data_guard.py).
SHARED = Path(os.environ.get("RAG_TEST_SHARED_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data")
# Tests that read ../shared/data skip without it, or run narrower, and the run's summary line says how many;
# under CI=true (the environment variable) they fail instead, so a CI run cannot pass without them.
SHARED_MISSING = "needs ../shared/data"
_ran_narrower: list[str] = []  # tests that ran without the parts that need ../shared/data


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def without_shared_data(what: str, *, skip: bool = True) -> None:
    """``what`` needs ../shared/data, which is missing: fail under CI=true; else skip the test, or (``skip=False``)
    note that it runs without those parts. Either way the summary line counts it."""
    message = f"{what} {SHARED_MISSING} ({SHARED} is missing)"
    if running_in_ci():
        pytest.fail(f"{message}; CI=true requires it: put the shared data beside the checkout", pytrace=False)
    if skip:
        pytest.skip(message)
    if _running:  # on the test's reports, which reach the summary from pytest-xdist's workers too
        _running[0].user_properties.append((NARROWER, what))
    else:
        _ran_narrower.append(what)


NARROWER = "ran without ../shared/data"
_running: list[pytest.Item] = []  # the test this process runs now


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _running[:] = [item]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Count, in the final summary line, the tests that skipped or ran narrower without ../shared/data."""
    stats = terminalreporter.stats
    skipped = [r for r in stats.get("skipped", []) if SHARED_MISSING in str(r.longrepr)]
    narrower = {r.nodeid: r for key in ("passed", "failed") for r in stats.get(key, [])
                if any(name == NARROWER for name, _ in getattr(r, "user_properties", ()))}
    missing = [*skipped, *narrower.values(), *_ran_narrower]
    if missing:
        stats["without ../shared/data (CI=true fails them)"] = missing
    reports = [r for value in stats.values() for r in value if hasattr(r, "when")]
    if reports:
        terminalreporter.write_sep("=", "time per test family (setup + call + teardown, summed)")
        for line in family_lines(reports):
            terminalreporter.write_line(line)


_external: list = []  # the servers started for --stores=external, stopped at the end of the session


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--stores", choices=("embedded", "external"), default="embedded",
                     help="embedded: the default stores in the test data folder; external: a PostgreSQL and a "
                          "FalkorDB server started for the session on 127.0.0.1, with passwords")


def _xdist_controller(config: pytest.Config) -> bool:
    """Whether this process hands the tests to pytest-xdist workers (``-n 2``) rather than running them."""
    return bool(getattr(config.option, "numprocesses", None)) and not hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    # Under pytest-xdist each worker imports this file, so it has its own data folder (_DATA_DIR) and embedded
    # stores, and with --stores=external its own servers; the controller, which runs no test, starts none.
    if config.getoption("--stores") == "external" and not _external and not _xdist_controller(config):
        from tests.utils.external_servers import start_falkordb, start_postgres

        _external.append(start_postgres(Path(tempfile.mkdtemp(prefix="rag-ext-pg-"))))
        _external.append(start_falkordb(Path(tempfile.mkdtemp(prefix="rag-ext-falkordb-"))))
        os.environ["DATABASE_URL"] = _external[0].url()
        os.environ["RAG_FALKORDB_URL"] = _external[1].url


def pytest_unconfigure(config: pytest.Config) -> None:
    while _external:
        _external.pop().stop()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if hasattr(config, "workerinput"):
        _slow_files_first(items)
    if config.getoption("--stores") != "external":
        return
    skip = pytest.mark.skip(reason="kills or inspects the embedded servers; this run uses external ones")
    for item in items:
        if item.get_closest_marker("embedded_only"):
            item.add_marker(skip)


def _slow_files_first(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``make test``: ``--dist loadfile --no-loadscope-reorder``), hand out the files with
    slow tests first, then those driving a browser, then the rest, each group in its usual order: a long
    file taken last would leave the other worker idle. Every worker sorts alike, so their collections agree."""
    def weight(path: str) -> int:
        marks = {m.name for item in by_file[path] for m in item.iter_markers()}
        return 0 if "slow" in marks else 1 if "browser" in marks else 2

    by_file: dict[str, list[pytest.Item]] = {}
    for item in items:
        by_file.setdefault(item.nodeid.split("::")[0], []).append(item)
    order = {path: n for n, path in enumerate(sorted(by_file, key=weight))}  # sorted() is stable
    items.sort(key=lambda item: order[item.nodeid.split("::")[0]])


@pytest.fixture(scope="session")
def external_servers() -> list:
    """[ExternalPostgres, ExternalFalkorDB] of a --stores=external run; skips the test otherwise."""
    if not _external:
        pytest.skip("needs --stores=external (make test runs it)")
    return _external


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

    from services.stores.embedded_postgres import stop_embedded_postgres
    from services.stores.graph_store import stop_embedded_falkordb

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
        services.deletion.delete_collection(name)
    except Exception:
        pass


@pytest.fixture
def zorbex_and_distractors(services) -> Iterator[str]:
    """Zorbex's two hops among eight distractors (tests/utils/stories.py), deleted afterwards."""
    from tests.utils.stories import make_zorbex_among_distractors

    name = make_zorbex_among_distractors(services)
    yield name
    services.deletion.delete_collection(name)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED.is_dir():
        without_shared_data("this test")
    return SHARED


@pytest.fixture
def allowed_root(monkeypatch, tmp_path):
    """The app's settings (read from the environment) confined to ``tmp_path/root``."""
    from services.settings import get_settings

    root = tmp_path / "root"
    root.mkdir()
    monkeypatch.setenv("RAG_ALLOWED_ROOTS", json.dumps([str(root)]))
    get_settings.cache_clear()
    yield root
    monkeypatch.undo()
    get_settings.cache_clear()
