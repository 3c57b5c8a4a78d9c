"""``rag stores status|stop``: the embedded PostgreSQL and FalkorDB that outlive the app and the CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from cli import context
from cli.output import emit, json_option

if TYPE_CHECKING:  # the service stack is imported by the commands, not by ``rag --help``
    from services.stores.lifecycle import ServerStatus


@click.group("stores")
def group() -> None:
    """The embedded servers in the data folder: whether they run, who uses them, and stopping them.

    The first app, CLI or MCP process that needs a store starts the embedded server, and it keeps
    running after that process exits so that every process shares it. Neither command starts a
    server; external servers (DATABASE_URL, RAG_FALKORDB_URL, NEO4J_URI) are only reported.
    """


def _line(s: ServerStatus) -> str:
    name = {"postgres": "PostgreSQL", "graph": "graph"}[s.store]
    if s.kind == "off":
        return f"{name}: off (graph_enabled = false)"
    if s.kind == "external":
        return f"{name}: external at {s.location} (not started or stopped by the workbench)"
    if not s.running:
        return f"{name}: embedded, not running ({s.location}); the next app or rag command starts it"
    users = (f"used by {', '.join(s.processes)}" if s.processes else "no other workbench process connected")
    if s.clients is not None:
        users = f"{s.clients} other connection(s)"
    return f"{name}: embedded, running (pid {s.pid}) at {s.location}; {users}"


@group.command("status")
@json_option
def status(as_json: bool) -> None:
    """Show whether the embedded servers run and which workbench processes are connected to them.

    JSON: [{"store", "kind" (embedded|external|off), "running", "location", "pid", "processes", "clients"}].
    """
    from services.stores.lifecycle import stores_status

    found = stores_status(context.get_settings())

    def human() -> None:
        for server in found:
            click.echo(_line(server))

    emit([s.as_dict() for s in found], as_json, human)


@group.command("stop")
@click.option("--force", is_flag=True, help="Stop them even while other workbench processes are connected.")
@json_option
def stop(force: bool, as_json: bool) -> None:
    """Stop the embedded servers (their data stays in the data folder; the next start brings them back).

    Refused (exit 4) while another app, CLI or MCP process is connected, unless --force.
    JSON: {"stopped": ["graph", "postgres"]}.
    """
    from services.stores.lifecycle import stop_embedded_stores

    stopped = stop_embedded_stores(context.get_settings(), force=force)

    def human() -> None:
        click.echo(f"Stopped: {', '.join(stopped)}." if stopped else "No embedded server was running.")

    emit({"stopped": stopped}, as_json, human)
