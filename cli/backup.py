"""``rag backup`` and ``rag restore``: a collection to one archive file, and back into these stores."""

from __future__ import annotations

from pathlib import Path

import click

from cli.context import get_services
from cli.output import emit, json_option
from services.authz.principal import Principal


@click.command("backup")
@click.argument("collection", required=False)
@click.option("--output", "-o", "output", type=click.Path(dir_okay=True, path_type=Path),
              help="Archive file (or folder) to write [default: NAME-<UTC time>.ragbackup.zip here].")
@click.option("--all", "all_collections", is_flag=True, help="Back up every collection into one archive.")
@json_option
def backup(collection: str | None, output: Path | None, all_collections: bool, as_json: bool) -> None:
    """Export COLLECTION (documents, chunks with their embeddings, diagrams, crawls, graph facts and the
    settings that shape results; never secrets) to one zip archive.

    JSON: {"path", "collections", "counts": {member: rows}, "size_bytes"}.
    """
    result = get_services().scope(Principal.operator()).export(collection, output, all_collections=all_collections)

    def human() -> None:
        click.echo(f"Backed up {', '.join(result.collections)} to {result.path} ({result.size_bytes:,} bytes): "
                   f"{result.counts['documents']} documents, {result.counts['chunks']} chunks, "
                   f"{result.counts['facts']} facts.")

    emit(result, as_json, human)


@click.command("restore")
@click.argument("archive", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--as", "as_name", metavar="NAME", help="Restore the (single) collection under this name instead.")
@json_option
def restore(archive: Path, as_name: str | None, as_json: bool) -> None:
    """Restore the collections in ARCHIVE (made by `rag backup`) into the configured stores.

    Refused, with nothing written, when a collection of that name exists (use --as), when the configured
    embedding model differs from the archive's, or when the archive is damaged.
    JSON: {"collections": [{"from", "name"}], "counts", "graph_restored", "notes"}.
    """
    result = get_services().scope(Principal.operator()).restore(archive, into_name=as_name)

    def human() -> None:
        for note in result.notes:
            click.echo(f"note: {note}")
        names = ", ".join(c["name"] if c["name"] == c["from"] else f"{c['from']} as {c['name']}"
                          for c in result.collections)
        click.echo(f"Restored {names}: {result.counts['documents']} documents, {result.counts['chunks']} chunks, "
                   f"{result.counts.get('facts', 0)} facts.")

    emit(result, as_json, human)
