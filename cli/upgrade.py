"""``rag upgrade``: derive the BM25 and walk-graph data of rows stored by an older version (resumable)."""

from __future__ import annotations

import click

from cli import context
from cli.output import emit, json_option


@click.command("upgrade")
@json_option
def upgrade(as_json: bool) -> None:
    """Make data stored before this version keyword-searchable and part of the graph walk.

    Chunks stored before BM25 get their postings; documents indexed before the graph walk get their
    entity mentions, from the facts the graph already holds. Nothing is re-ingested or re-embedded.
    It works in small committed batches: stop it at any time and run it again to carry on. The web
    app does the same in the background once it starts. JSON: {"chunks_without_bm25": n,
    "documents_without_walk_graph": n} after the run (0 and 0 when everything is done).
    """
    svc = context.get_services()

    def progress(step: str, done: int, total: int) -> None:
        if not as_json:
            click.echo(f"\r{step}: {done}/{total}", nl=False, err=True)

    left = svc.upgrade.run(progress)
    if not as_json:
        click.echo("", err=True)
    data = {"chunks_without_bm25": left.chunks_without_bm25, "documents_without_walk_graph": left.documents_without_walk_graph}
    emit(data, as_json, lambda: click.echo("Up to date." if left.total == 0 else
                                           f"Still pending: {data} (run `rag upgrade` again)."))
