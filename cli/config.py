"""``rag config show`` (settings, secrets masked) and ``rag status`` (store health)."""

from __future__ import annotations

from typing import Any

import click

from cli import context
from cli.output import emit, json_option
from services.errors import StoreUnavailable, WorkbenchError


@click.group("config")
def group() -> None:
    """Inspect the settings the CLI, the app and the MCP server share."""


@group.command("show")
@json_option
def show(as_json: bool) -> None:
    """Show the effective settings (secrets masked) and the user config file in use.

    Priority: environment > .env > user config file > defaults. Starts nothing.
    JSON: {"config_file": {"path", "exists"}, "settings": {name: value}}.
    """
    from services.settings import user_config_file

    path = user_config_file()
    data = {"config_file": {"path": str(path), "exists": path.is_file()}, "settings": context.get_settings().masked()}

    def human() -> None:
        click.echo(f"user config file: {path} ({'found' if path.is_file() else 'not found'})")
        for name, value in sorted(data["settings"].items()):
            click.echo(f"{name} = {value!r}" if isinstance(value, str) else f"{name} = {value}")

    emit(data, as_json, human)


@click.command("status")
@json_option
def status(as_json: bool) -> None:
    """Check that the stores answer: PostgreSQL and pgvector, the graph store; name the embedding model.

    The model is not loaded for this (it loads on first use): its dimension is the one its files declare.
    Also lists the jobs running now, in any process, with their progress, and the other workbench
    processes connected to the same database (postgres.shared_with).

    JSON: {"postgres": {...}, "embedding": {"model", "dimension", "loaded"}, "graph": {"kind", "location"} or null,
    "collections": n, "running_jobs": [{"id", "kind", "collection", "progress"}]}. Exits 5 when a store is unavailable.
    """
    svc = context.get_services()
    try:
        running = [{"id": j.id, "kind": j.kind, "collection": j.params.get("collection"), "progress": j.progress}
                   for j in svc.jobs.recent(100) if j.status == "running"]
        data: dict[str, Any] = {**svc.health(), "collections": len(svc.collections.list()), "running_jobs": running}
    except WorkbenchError:
        raise
    except Exception as exc:  # a driver error from a store that stopped answering
        raise StoreUnavailable(f"A store did not answer: {exc.__class__.__name__}: {exc}") from None

    def human() -> None:
        for key, value in data["postgres"].items():
            click.echo(f"postgres.{key}: {', '.join(value) or 'none' if isinstance(value, tuple | list) else value}")
        emb = data["embedding"]
        click.echo(f"embedding: {emb['model']} ({emb['dimension'] or '?'}-d; "
                   f"{'loaded' if emb['loaded'] else 'not loaded by this command: it loads on first use'})")
        graph = data["graph"]
        click.echo(f"graph: {graph['kind']} at {graph['location']}" if graph else "graph: off")
        click.echo(f"collections: {data['collections']}")
        for job in running:
            p = job["progress"]
            click.echo(f"running: job {job['id']} {job['kind']} into {job['collection']}: files "
                       f"{p.get('files_done', 0)}/{p.get('files_total', 0)}, ingested {p.get('ingested', 0)}, "
                       f"failed {p.get('failed', 0)}")

    emit(data, as_json, human)
