"""``rag document``: list, view, update metadata, delete."""

from __future__ import annotations

import click

from cli.context import get_services
from cli.errors import CliError, parse_json
from cli.output import emit, json_option, table
from services.authz.principal import Principal


@click.group("document")
def group() -> None:
    """List, read, re-tag and delete documents."""


@group.command("list")
@click.option("--collection", "-c", help="Only documents in this collection.")
@click.option("--title", default="", help="Only titles containing this text (case-insensitive).")
@click.option("--filter", "filter_", metavar="JSON", help='Metadata equality filter, e.g. \'{"party": "Whig"}\'.')
@click.option("--limit", type=click.IntRange(1, 1000), default=100, show_default=True, help="At most this many.")
@click.option("--offset", type=click.IntRange(0), default=0, help="Skip this many (for paging).")
@json_option
def list_(collection: str | None, title: str, filter_: str | None, limit: int, offset: int, as_json: bool) -> None:
    """List documents, by title. JSON: a list of document summaries."""
    svc = get_services()
    cid = svc.collections.get(collection).id if collection else None
    docs = svc.documents.list(collection_id=cid, title_contains=title, metadata_filter=parse_json(filter_, "--filter"),
                              limit=limit, offset=offset)

    def human() -> None:
        if not docs:
            click.echo("No documents match.")
            return
        table([[d.id, d.title[:50], d.chunk_count, d.graph_status, ", ".join(d.collections)] for d in docs],
              ["ID", "TITLE", "CHUNKS", "GRAPH", "COLLECTIONS"])

    emit(docs, as_json, human)


@group.command("view")
@click.argument("document_id", type=int)
@click.option("--chunks", is_flag=True, help="Also list the chunks with their offsets and heading paths.")
@json_option
def view(document_id: int, chunks: bool, as_json: bool) -> None:
    """Show a document's details and full text. JSON: {"summary", "content", "chunks"} (chunks only with --chunks)."""
    doc = get_services().documents.get(document_id, with_chunks=chunks)

    def human() -> None:
        s = doc.summary
        click.echo(f"#{s.id} {s.title}  (v{s.version}, {s.chunk_count} chunks, {s.char_count} chars)")
        click.echo(f"source: {s.source}   collections: {', '.join(s.collections)}")
        click.echo(f"graph: {s.graph_status}" + (f" ({s.graph_error})" if s.graph_error else ""))
        if s.metadata:
            click.echo("metadata: " + ", ".join(f"{k}={v}" for k, v in s.metadata.items()))
        click.echo("")
        click.echo(doc.content)
        for c in doc.chunks:
            click.echo(f"\n--- chunk {c.chunk_index} [{c.char_start}:{c.char_end}] {' > '.join(c.heading_path)}")
            click.echo(c.text)

    emit(doc, as_json, human)


@group.command("update")
@click.argument("document_id", type=int)
@click.option("--metadata", metavar="JSON", help="Keys to set (merged into the existing metadata).")
@click.option("--remove", multiple=True, metavar="KEY", help="A metadata key to drop (repeatable).")
@click.option("--replace", is_flag=True, help="--metadata is the whole new metadata: keys not in it are dropped.")
@click.option("--if-match", "if_match", metavar="ETAG",
              help="Only if the metadata is unchanged since you read this metadata_etag (from view --json); "
                   "else exit 4 and change nothing.")
@json_option
def update(document_id: int, metadata: str | None, remove: tuple[str, ...], replace: bool, if_match: str | None,
           as_json: bool) -> None:
    """Change a document's metadata (validated against its collections' schemas). JSON: the summary.

    Concurrent updates of different keys are all kept; use --if-match to refuse a change based on an old copy.
    """
    changes = parse_json(metadata, "--metadata")
    if not (changes or remove or (replace and changes is not None)):
        raise CliError("Nothing to change: give --metadata and/or --remove.", 2)
    summary = get_services().scope(Principal.operator()).update_metadata(
        document_id, changes or {}, remove=list(remove), replace=replace, expected_etag=if_match)
    emit(summary, as_json, lambda: click.echo(f"Updated document {summary.id}: {summary.metadata}"))


@group.command("delete")
@click.argument("document_id", type=int)
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@json_option
def delete(document_id: int, yes: bool, as_json: bool) -> None:
    """Delete a document everywhere, with its chunks and facts. JSON: {"document_id", "deleted"}."""
    svc = get_services()
    summary = svc.documents.get(document_id, with_chunks=False).summary
    if not yes:
        click.confirm(f"Delete document {summary.id} {summary.title!r}?", abort=True, err=True)
    svc.scope(Principal.operator()).delete_document(document_id)
    emit({"document_id": document_id, "deleted": True}, as_json,
         lambda: click.echo(f"Deleted document {document_id} {summary.title!r}."))
