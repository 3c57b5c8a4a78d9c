"""``rag graph``: facts about an entity, facts in a time window, neighbourhoods, paths and Mermaid."""

from __future__ import annotations

from typing import Any

import click

from cli.context import get_services
from cli.output import emit, json_option
from services.authz.principal import Principal
from services.graph.model import Fact


def fact_line(f: Fact) -> str:
    when = f.shown("valid_from") or ("?" if f.valid_until else (f"stated {f.shown('stated_on')}" if f.stated_on
                                                                 else "undated"))
    if f.valid_until:
        when += f" → {f.shown('valid_until')}"
    flag = "" if f.status == "current" else f" [{f.status}]"
    return f"{f.source} —{f.relation}→ {f.target}  ({when}){flag}  doc {f.document_id}"


def _facts(data: dict[str, Any]) -> None:
    ent = data["entity"]
    click.echo(f"{ent.name} ({ent.type or 'entity'}, key {ent.key!r}): {len(data['facts'])} facts")
    for fact in data["facts"]:
        click.echo("  " + fact_line(fact))


def _collections(fn: Any) -> Any:
    return click.option("--collection", "-c", "collections", multiple=True,
                        help="Look in this collection (repeatable; default: all).")(fn)


def _one_collection(fn: Any) -> Any:
    return click.option("--collection", "-c", required=True, help="The collection whose graph to read.")(fn)


@click.group("graph")
def group() -> None:
    """Query the knowledge graph extracted from the documents (entities and dated facts)."""


@group.command("relationships")
@click.argument("entity")
@_collections
@click.option("--limit", type=click.IntRange(1, 10_000), default=200, show_default=True, help="At most this many facts.")
@json_option
def relationships(entity: str, collections: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Every fact about ENTITY (a name; partial names match), current and superseded.

    JSON: {"entity": {"collection_id", "key", "name", "type", "degree"}, "facts": [fact, ...]}.
    """
    data = get_services().lookup.relationships(entity, list(collections), limit)
    emit(data, as_json, lambda: _facts(data))


@group.command("temporal")
@click.argument("entity")
@click.option("--from", "start", metavar="DATE", help="Window start: YYYY, YYYY-MM or YYYY-MM-DD.")
@click.option("--until", "end", metavar="DATE", help="Window end (inclusive): YYYY, YYYY-MM or YYYY-MM-DD.")
@_collections
@json_option
def temporal(entity: str, start: str | None, end: str | None, collections: tuple[str, ...], as_json: bool) -> None:
    """Facts about ENTITY that were valid at some time in a date window.

    JSON: {"entity", "from", "until", "facts"}.
    """
    data = get_services().lookup.temporal(entity, start, end, list(collections))
    emit(data, as_json, lambda: _facts(data))


@group.command("neighbourhood")
@click.argument("entity")
@_one_collection
@click.option("--depth", type=click.IntRange(1, 3), default=1, show_default=True, help="Hops from the entity.")
@click.option("--relation", "relations", multiple=True, help="Only this relation (repeatable), e.g. ceo_of.")
@click.option("--status", type=click.Choice(["current", "superseded"]), help="Only current or only superseded facts.")
@click.option("--from", "start", metavar="DATE", help="Only facts valid after this date.")
@click.option("--until", "end", metavar="DATE", help="Only facts valid before this date.")
@json_option
def neighbourhood(entity: str, collection: str, depth: int, relations: tuple[str, ...], status: str | None,
                  start: str | None, end: str | None, as_json: bool) -> None:
    """The facts within DEPTH hops of ENTITY. JSON: {"entity", "nodes": {key: entity}, "facts"}."""
    ent, graph = get_services().lookup.neighbourhood(collection, entity, depth=depth, relations=list(relations),
                                         status=status, start=start, end=end)
    emit({"entity": ent, "nodes": graph.nodes, "facts": graph.facts}, as_json,
         lambda: _facts({"entity": ent, "facts": graph.facts}))


@group.command("paths")
@click.argument("source")
@click.argument("target")
@_one_collection
@click.option("--max-hops", type=click.IntRange(1, 3), default=3, show_default=True, help="Longest path to look for.")
@click.option("--limit", type=click.IntRange(1, 50), default=5, show_default=True, help="At most this many paths.")
@json_option
def paths(source: str, target: str, collection: str, max_hops: int, limit: int, as_json: bool) -> None:
    """How SOURCE relates to TARGET: the shortest chains of facts between them.

    JSON: {"from": entity, "to": entity, "paths": [[fact, ...], ...]}.
    """
    data = get_services().lookup.paths(collection, source, target, max_hops=max_hops, limit=limit)

    def human() -> None:
        if not data["paths"]:
            click.echo(f"No path from {data['from'].name} to {data['to'].name} within {max_hops} hops.")
        for n, path in enumerate(data["paths"], 1):
            click.echo(f"Path {n}:")
            for fact in path:
                click.echo("  " + fact_line(fact))

    emit(data, as_json, human)


@group.command("mermaid")
@click.argument("entity")
@_one_collection
@click.option("--depth", type=click.IntRange(1, 3), default=1, show_default=True, help="Hops from the entity.")
@click.option("--direction", type=click.Choice(["LR", "TD", "TB", "RL", "BT"]), default="LR", show_default=True,
              help="Flowchart direction.")
@json_option
def mermaid(entity: str, collection: str, depth: int, direction: str, as_json: bool) -> None:
    """Print ENTITY's neighbourhood as a Mermaid flowchart (save it as .mmd). JSON: {"entity", "mermaid"}."""
    data = get_services().lookup.mermaid(collection, entity, depth=depth, direction=direction)
    emit(data, as_json, lambda: click.echo(data["mermaid"], nl=False))


@group.command("rebuild")
@_one_collection
@click.option("--document", "documents", type=int, multiple=True,
              help="Only this document id (repeatable; default: every document of the collection).")
@json_option
def rebuild(collection: str, documents: tuple[int, ...], as_json: bool) -> None:
    """Extract the graph of a collection's documents again, with the current extractor (a repair, or an upgrade
    of a graph an older version built). JSON: {"job", "status", "documents", "facts", "entities", "failed"}."""
    svc = get_services()
    job = svc.jobs.get(svc.scope(Principal.operator()).rebuild_graph(collection, list(documents) or None, wait=True))
    p = job.progress
    data = {"job": job.id, "status": job.status, "documents": p.get("files_done", 0), "facts": p.get("graph_facts", 0),
            "entities": p.get("graph_entities", 0), "failed": p.get("graph_failed", 0)}
    emit(data, as_json, lambda: click.echo(
        f"Rebuilt the graph of {data['documents']} documents of {collection!r}: {data['facts']} facts, "
        f"{data['entities']} entities, {data['failed']} failed ({job.status})."))
