"""``rag collection``: create, list, info, update, delete, schema."""

from __future__ import annotations

from typing import Any

import click

from cli.context import get_services
from cli.errors import parse_json
from cli.output import emit, json_option, table, to_jsonable
from services.authz.principal import Principal
from services.metadata_schema import schema_from_fields


def _describe(coll: Any, counts: dict[str, int] | None = None) -> None:
    click.echo(f"{coll.name}: {coll.description}")
    click.echo(f"  documents {coll.document_count}, chunks {coll.chunk_count}")
    click.echo(f"  embedding {coll.embedding_model} ({coll.embedding_dim}-d), created {coll.created_at:%Y-%m-%d %H:%M}")
    if counts is not None:
        click.echo(f"  graph: {counts['entities']} entities, {counts['facts']} facts")
    fields = coll.metadata_schema.get("custom", {})
    if fields:
        click.echo("  metadata fields: " + ", ".join(
            f"{n} ({s['type']}{', required' if s.get('required') else ''})" for n, s in sorted(fields.items())))


@click.group("collection")
def group() -> None:
    """Create, inspect, change and delete collections."""


@group.command("create")
@click.argument("name")
@click.option("--description", "-d", required=True, help="What the collection holds and what it is for (required).")
@click.option("--schema", "schema", metavar="JSON",
              help='Metadata schema, e.g. \'{"year": {"type": "integer", "required": true}}\'.')
@json_option
def create(name: str, description: str, schema: str | None, as_json: bool) -> None:
    """Create a collection bound to the configured embedding model. JSON: the collection."""
    raw = parse_json(schema, "--schema")
    coll = get_services().scope(Principal.operator()).create_collection(name=name, description=description,
                                             metadata_schema=schema_from_fields(raw) if raw else None)
    emit(coll, as_json, lambda: click.echo(f"Created collection {coll.name!r}."))


@group.command("list")
@json_option
def list_(as_json: bool) -> None:
    """List collections with document and chunk counts. JSON: a list of collections."""
    colls = get_services().collections.list()

    def human() -> None:
        if not colls:
            click.echo("No collections yet. Create one with `rag collection create NAME -d DESCRIPTION`.")
            return
        table([[c.name, c.document_count, c.chunk_count, c.embedding_model, c.description[:60]] for c in colls],
              ["NAME", "DOCS", "CHUNKS", "MODEL", "DESCRIPTION"])

    emit(colls, as_json, human)


@group.command("info")
@click.argument("name")
@json_option
def info(name: str, as_json: bool) -> None:
    """Show one collection: description, counts, model, schema and graph size.

    JSON: the collection plus "graph": {"entities", "facts"} (null when the graph is off).
    """
    svc = get_services()
    coll = svc.collections.get(name)
    counts = svc.graph.counts([coll.id]) if svc.graph is not None else None
    emit({**to_jsonable(coll), "graph": counts}, as_json, lambda: _describe(coll, counts))


@group.command("update")
@click.argument("name")
@click.option("--description", "-d", required=True, help="The new description.")
@json_option
def update(name: str, description: str, as_json: bool) -> None:
    """Change a collection's description. JSON: the collection."""
    coll = get_services().scope(Principal.operator()).update_description(name, description)
    emit(coll, as_json, lambda: click.echo(f"Updated {coll.name!r}."))


@group.command("schema")
@click.argument("name")
@click.option("--add", "add", metavar="JSON",
              help='Fields to add, e.g. \'{"year": "integer"}\' or \'{"party": {"type": "string"}}\'.')
@click.option("--optional", "optional", metavar="FIELD", multiple=True,
              help="Stop requiring this field (the way out of a required field added by mistake).")
@click.option("--drop", "drop", metavar="FIELD", multiple=True,
              help="Remove this field from the schema; refused while a document of the collection has a value for it.")
@json_option
def schema(name: str, add: str | None, optional: tuple[str, ...], drop: tuple[str, ...], as_json: bool) -> None:
    """Show a collection's metadata schema, add fields to it, make fields optional or drop unused ones.

    Existing fields never change type. JSON: the schema, {"custom": {field: {"type", "required"}}}.
    """
    svc = get_services()
    raw = parse_json(add, "--add")
    changing = bool(raw or optional or drop)
    collections = svc.scope(Principal.operator()).editing(name, "collection.schema") if changing else svc.collections
    for field in optional:
        collections.make_field_optional(name, field)
    for field in drop:
        collections.drop_schema_field(name, field)
    coll = collections.add_schema_fields(name, schema_from_fields(raw)) if raw else svc.collections.get(name)
    fields = coll.metadata_schema.get("custom", {})

    def human() -> None:
        if not fields:
            click.echo(f"{coll.name!r} has no metadata fields.")
        for field, spec in sorted(fields.items()):
            click.echo(f"{field}: {spec['type']}{' (required)' if spec.get('required') else ''}")

    emit(coll.metadata_schema, as_json, human)


@group.command("delete")
@click.argument("name")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@json_option
def delete(name: str, yes: bool, as_json: bool) -> None:
    """Delete a collection, its graph and the documents only it holds.

    JSON: {"collection", "documents_deleted"}.
    """
    svc = get_services()
    coll = svc.collections.get(name)
    if not yes:
        click.confirm(f"Delete {coll.name!r} and its {coll.document_count} documents?", abort=True, err=True)
    gone = svc.scope(Principal.operator()).delete_collection(coll.name)
    emit({"collection": coll.name, "documents_deleted": gone}, as_json,
         lambda: click.echo(f"Deleted {coll.name!r} ({gone} documents removed)."))
