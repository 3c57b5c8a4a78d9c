"""``rag search``: semantic, keyword or hybrid search over one or more collections."""

from __future__ import annotations

import click

from cli.context import get_services
from cli.errors import parse_json
from cli.output import emit, json_option


def _snippet(segments: list[tuple[str, bool]], width: int = 240) -> str:
    """The chunk text with matched terms in [brackets], shortened around the first match."""
    text = "".join(f"[{t}]" if hit else t for t, hit in segments)
    text = " ".join(text.split())
    start = max(0, text.find("[") - 60) if "[" in text else 0
    out = text[start : start + width]
    return ("…" if start else "") + out + ("…" if start + width < len(text) else "")


@click.command("search")
@click.argument("query")
@click.option("--collection", "-c", "collections", multiple=True, help="Search this collection (repeatable; default: all).")
@click.option("--mode", type=click.Choice(["semantic", "keyword", "hybrid"]), default="hybrid", show_default=True,
              help="semantic (meaning), keyword (full text) or hybrid (both, fused).")
@click.option("--threshold", type=click.FloatRange(-1.0, 1.0), help="Minimum cosine similarity [default: the setting, 0.35].")
@click.option("--limit", type=click.IntRange(1, 200), help="At most this many hits [default: the setting, 10].")
@click.option("--filter", "filter_", metavar="JSON",
              help='Metadata filter, e.g. \'{"party": "Whig"}\' or \'{"year": {"gte": 1900}}\'.')
@json_option
def search(query: str, collections: tuple[str, ...], mode: str, threshold: float | None, limit: int | None,
           filter_: str | None, as_json: bool) -> None:
    """Search documents for QUERY.

    JSON: {"query", "mode", "hits": [{"chunk_id", "document_id", "title", "score", "text", ...}], "counts",
    "timings_ms", "notes"}.
    """
    from services.page_ref import page_ref
    from services.retrieval.search import parse_search_mode

    svc = get_services()
    filters = parse_json(filter_, "--filter")
    response = svc.search.search(
        query, collections=list(collections) or None, mode=parse_search_mode(mode),
        threshold=svc.settings.search_threshold if threshold is None else threshold,
        limit=svc.settings.search_limit if limit is None else limit, filters=filters,
    )

    def human() -> None:
        for note in response.notes:
            click.echo(f"note: {note}")
        if not response.hits:
            click.echo("No results.")
        for n, hit in enumerate(response.hits, 1):
            where = " > ".join(hit.heading_path)
            page = page_ref(hit.chunk_metadata)
            click.echo(f"{n}. {hit.title}{', ' + page if page else ''} (document {hit.document_id}, "
                       f"score {hit.score:.3f}){'  ' + where if where else ''}")
            click.echo(f"   {_snippet(hit.segments)}")

    emit(response, as_json, human)
