"""``rag graph`` edits: merge, rename, retype, split, delete-entity, delete-fact, add-fact, suggestions, decide,
history, undo, export and import (services/graph/curation.py). Every edit is recorded with its author
(``--author``, else ``$RAG_AUTHOR``, else ``cli:<login>``) and can be undone."""

from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path
from typing import Any

import click

from cli.context import get_services
from cli.graph import group
from cli.output import emit, json_option, table
from services.authz.principal import Principal


def _author(fn: Any) -> Any:
    return click.option("--author", default=None, help="Who makes the edit (default: $RAG_AUTHOR or cli:<login>).")(fn)


def _coll(fn: Any) -> Any:
    return click.option("--collection", "-c", required=True, help="The collection whose graph to edit.")(fn)


def who(author: str | None) -> str:
    if author:
        return author
    try:
        login = getpass.getuser()
    except Exception:  # no login name (a container without a passwd entry)
        login = "unknown"
    return os.environ.get("RAG_AUTHOR") or f"cli:{login}"


def _done(edit: Any, as_json: bool) -> None:
    emit(edit.brief(), as_json, lambda: click.echo(f"Edit {edit.id} ({edit.kind}, {edit.status}): {edit.summary}."))


def _edit(kind: str, collection: str, *args: Any, **kw: Any) -> Any:
    """One graph edit, through the access scope (the CLI is the operator; the edit is audited)."""
    return get_services().scope(Principal.operator()).graph_edit(kind, collection, *args, **kw)


@group.command("merge")
@click.argument("names", nargs=-1, required=True)
@_coll
@_author
@json_option
def merge(names: tuple[str, ...], collection: str, author: str | None, as_json: bool) -> None:
    """Merge the second and later entities into the first (every fact kept; their names become aliases).

    Names are matched exactly (name, alias or key); an ambiguous name lists the keys to give instead.
    JSON: the edit {"id", "kind", "summary", "author", "status", "created_at", "params", "changed", ...}."""
    _done(_edit("merge", collection, list(names), author=who(author)), as_json)


@group.command("rename")
@click.argument("name")
@click.argument("new_name")
@_coll
@_author
@json_option
def rename(name: str, new_name: str, collection: str, author: str | None, as_json: bool) -> None:
    """Rename an entity (the old name stays an alias). JSON: the edit."""
    _done(_edit("rename", collection, name, new_name, author=who(author)), as_json)


@group.command("retype")
@click.argument("name")
@click.argument("new_type")
@_coll
@_author
@json_option
def retype(name: str, new_type: str, collection: str, author: str | None, as_json: bool) -> None:
    """Change an entity's type (PERSON, ORG, GPE, ...). JSON: the edit."""
    _done(_edit("retype", collection, name, new_type, author=who(author)), as_json)


@group.command("split")
@click.argument("name")
@click.argument("new_name")
@_coll
@click.option("--document", "documents", type=int, multiple=True, help="Move the facts of this document (repeatable).")
@click.option("--fact", "facts", multiple=True, help="Move this fact id (repeatable).")
@click.option("--type", "new_type", help="The new entity's type (default: the old one's).")
@_author
@json_option
def split(name: str, new_name: str, collection: str, documents: tuple[int, ...], facts: tuple[str, ...],
          new_type: str | None, author: str | None, as_json: bool) -> None:
    """Split an entity that conflates two things: the facts of some documents, or chosen facts, go to NEW_NAME.
    JSON: the edit."""
    _done(_edit("split", collection, name, new_name, new_type=new_type, documents=list(documents),
                                        fact_ids=list(facts), author=who(author)), as_json)


@group.command("delete-entity")
@click.argument("name")
@_coll
@_author
@json_option
def delete_entity(name: str, collection: str, author: str | None, as_json: bool) -> None:
    """Delete an entity with all its facts (undo brings them back). JSON: the edit."""
    _done(_edit("delete_entity", collection, name, author=who(author)), as_json)


@group.command("delete-fact")
@click.argument("fact_id")
@_coll
@_author
@json_option
def delete_fact(fact_id: str, collection: str, author: str | None, as_json: bool) -> None:
    """Delete one wrong fact by its id (`rag graph relationships --json` shows ids). JSON: the edit."""
    _done(_edit("delete_fact", collection, fact_id, author=who(author)), as_json)


@group.command("add-fact")
@click.argument("subject")
@click.argument("relation")
@click.argument("obj", metavar="OBJECT")
@_coll
@click.option("--from", "start", metavar="DATE", help="Valid from: YYYY, YYYY-MM or YYYY-MM-DD.")
@click.option("--until", "end", metavar="DATE", help="Valid until: YYYY, YYYY-MM or YYYY-MM-DD.")
@click.option("--note", help="Where the fact comes from, or why it is added.")
@click.option("--subject-type", help="The subject's type, when it is a new entity.")
@click.option("--object-type", help="The object's type, when it is a new entity.")
@_author
@json_option
def add_fact(subject: str, relation: str, obj: str, collection: str, start: str | None, end: str | None,
             note: str | None, subject_type: str | None, object_type: str | None, author: str | None,
             as_json: bool) -> None:
    """Add a fact SUBJECT -RELATION-> OBJECT, marked as added by its author (new names become entities).
    JSON: the edit (params.fact.id is the new fact's id)."""
    _done(_edit("add_fact", collection, subject, relation, obj, valid_from=start, valid_until=end,
                                           note=note, subject_type=subject_type, object_type=object_type,
                                           author=who(author)), as_json)


@group.command("suggestions")
@_coll
@click.option("--all", "include_decided", is_flag=True, help="Also pairs already rejected or marked never.")
@click.option("--limit", type=click.IntRange(1, 1000), default=50, show_default=True, help="At most this many pairs.")
@click.option("--no-embeddings", is_flag=True, help="Skip the name-embedding evidence (no model is loaded).")
@json_option
def suggestions(collection: str, include_decided: bool, limit: int, no_embeddings: bool, as_json: bool) -> None:
    """Likely duplicate entities with their evidence; answer with `rag graph decide`.

    JSON: [{"key_a", "key_b", "name_a", "name_b", "type_a", "type_b", "facts_a", "facts_b", "evidence",
    "score", "decision"}, ...] (key_a is the one a merge keeps)."""
    found = get_services().curation.suggestions(collection, include_decided=include_decided, limit=limit,
                                                by_meaning=not no_embeddings)
    emit(found, as_json, lambda: table(
        [[s.name_a, s.key_a, s.name_b, s.key_b, f"{s.score:.2f}", s.evidence_text, s.decision or ""] for s in found],
        ["keep", "key", "fold in", "key", "score", "evidence", "answer"]) if found else click.echo("No suggestions."))


@group.command("decide")
@click.argument("key_a")
@click.argument("key_b")
@click.argument("decision", type=click.Choice(["accept", "reject", "never"]))
@_coll
@_author
@json_option
def decide(key_a: str, key_b: str, decision: str, collection: str, author: str | None, as_json: bool) -> None:
    """Answer a suggestion: accept (merge the pair), reject (until its evidence changes) or never.
    JSON: {"decision", "edit" (accept) or null, "suggestion"}."""
    out = _edit("decide", collection, key_a, key_b, decision, author=who(author))
    data = {**out, "edit": out["edit"].brief() if out["edit"] else None}
    emit(data, as_json, lambda: click.echo(
        f"Accepted: edit {out['edit'].id}, {out['edit'].summary}." if out["edit"] else f"Answered {decision}."))


@group.command("history")
@_coll
@click.option("--limit", type=click.IntRange(1, 1000), default=50, show_default=True, help="At most this many edits.")
@json_option
def history(collection: str, limit: int, as_json: bool) -> None:
    """The collection's graph edits, newest first. JSON: [edit, ...]."""
    edits = get_services().curation.history(collection, limit)
    emit([e.brief() for e in edits], as_json, lambda: table(
        [[e.id, f"{e.created_at:%Y-%m-%d %H:%M}", e.author, e.kind, e.status, e.summary] for e in edits],
        ["id", "when (UTC)", "who", "kind", "status", "what"]) if edits else click.echo("No edits."))


@group.command("undo")
@_coll
@_author
@json_option
def undo(collection: str, author: str | None, as_json: bool) -> None:
    """Take back the newest edit still applied (run again for the one before). JSON: the undone edit."""
    edit = _edit("undo", collection, author=who(author))
    emit(edit.brief(), as_json, lambda: click.echo(f"Undid edit {edit.id}: {edit.summary}."))


@group.command("export")
@_coll
@click.option("--format", "fmt", type=click.Choice(["graphml", "csv", "json"]), default="graphml", show_default=True,
              help="graphml (Gephi, yEd), csv (neo4j-admin import) or json (rag graph import).")
@click.option("--out", "-o", type=click.Path(path_type=Path), help="File (graphml, json; '-' for stdout) or folder "
              "(csv: nodes.csv, relationships.csv). Default: named after the collection, in this folder.")
@json_option
def export(collection: str, fmt: str, out: Path | None, as_json: bool) -> None:
    """Write the collection's whole graph: every entity (name, type, aliases) and fact (relation, phrase, dates,
    status, document and chunk ids, sentence). JSON: {"format", "files": [path, ...], "entities", "facts"}."""
    svc = get_services()
    files = svc.curation.export(collection, fmt)
    if str(out) == "-" and len(files) == 1:
        sys.stdout.buffer.write(next(iter(files.values())))
        return
    if fmt == "csv":
        folder = out or Path(f"{collection}-graph")
        folder.mkdir(parents=True, exist_ok=True)
        paths = [folder / name for name in files]
    else:
        paths = [out if out and not out.is_dir() else (out or Path(".")) / next(iter(files))]
    for path, content in zip(paths, files.values(), strict=True):
        path.write_bytes(content)
    counts = svc.graph.counts([svc.collections.get(collection).id]) if svc.graph else {}
    data = {"format": fmt, "files": [str(p) for p in paths], **counts}
    emit(data, as_json, lambda: click.echo(f"Wrote {', '.join(data['files'])}: {counts.get('entities')} entities, "
                                           f"{counts.get('facts')} facts."))


@group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_coll
@json_option
def import_graph(file: Path, collection: str, as_json: bool) -> None:
    """Load a JSON export (`rag graph export --format json`) into a collection with no graph yet.
    JSON: {"entities", "facts"}."""
    counts = _edit("import_json", collection, file.read_bytes())
    emit(counts, as_json, lambda: click.echo(f"Imported {counts['entities']} entities and {counts['facts']} facts."))
