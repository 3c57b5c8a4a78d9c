"""``rag ask`` (one question, answered with citations) and ``rag memory`` (remember, recall, forget, list)."""

from __future__ import annotations

import sys

import click

from cli.context import get_services
from cli.output import emit, json_option


@click.command("ask")
@click.argument("question")
@click.option("--collection", "-c", "collections", multiple=True, help="Ask about this collection (repeatable; default: all).")
@click.option("--conversation", type=int, help="Continue this conversation (its id); default: a new one.")
@json_option
def ask(question: str, collections: tuple[str, ...], conversation: int | None, as_json: bool) -> None:
    """Answer QUESTION from the documents, citing the passages used as [n].

    With an LLM configured the answer is generated (streamed to the terminal); otherwise the best
    sentences are extracted and labelled so. JSON: {"conversation_id", "answer": {"text", "mode",
    "citations": {n: chunk_id}}, "sources": [{"n", "title", "document_id", "chunk_index", "page", "pages"}], "facts", "mermaid",
    "diagnostics"}.
    """
    from services.retrieval.ask import cited_sources

    svc = get_services()
    streaming = not as_json and sys.stdout.isatty()
    result = svc.ask.ask(question, conversation_id=conversation, collections=list(collections) or None,
                         on_token=(lambda piece: click.echo(piece, nl=False)) if streaming else None)
    sources = cited_sources(result)
    payload = {"conversation_id": result.conversation_id, "answer": result.answer, "sources": sources,
               "facts": result.facts, "mermaid": result.mermaid, "diagnostics": result.diagnostics}

    def human() -> None:
        if streaming and result.answer.mode == "generated":
            click.echo()
        else:
            label = {"extracted": "(extracted from your documents, not generated)",
                     "nothing": "(nothing relevant found)"}.get(result.answer.mode)
            if label:
                click.echo(label)
            click.echo(result.answer.text)
        for source in sources:
            page = f", {source['page']}" if source["page"] else ""
            click.echo(f"[{source['n']}] {source['title']}{page} (document {source['document_id']}, "
                       f"chunk {source['chunk_index']})")
        click.echo(f"conversation {result.conversation_id}")

    emit(payload, as_json, human)


@click.group("memory")
def memory() -> None:
    """Short facts about you that Ask takes into account (remember, recall, forget, list)."""


@memory.command("remember")
@click.argument("fact")
@json_option
def remember(fact: str, as_json: bool) -> None:
    """Store FACT. JSON: {"id", "text", "created_at"}."""
    saved = get_services().memory.remember(fact)
    emit(saved, as_json, lambda: click.echo(f"Remembered ({saved.id}): {saved.text}"))


@memory.command("recall")
@click.argument("query")
@click.option("--limit", type=click.IntRange(1, 200), default=10, show_default=True, help="At most this many facts.")
@json_option
def recall(query: str, limit: int, as_json: bool) -> None:
    """Facts ranked by similarity to QUERY. JSON: [{"id", "text", "created_at", "similarity"}]."""
    facts = get_services().memory.recall(query, limit=limit)
    emit(facts, as_json, lambda: [click.echo(f"{f.similarity:.3f}  ({f.id}) {f.text}") for f in facts]
         or click.echo("No memory facts."))


@memory.command("list")
@json_option
def list_facts(as_json: bool) -> None:
    """Every memory fact. JSON: [{"id", "text", "created_at", "similarity": null}]."""
    facts = get_services().memory.list()
    emit(facts, as_json, lambda: [click.echo(f"({f.id}) {f.text}") for f in facts] or click.echo("No memory facts."))


@memory.command("forget")
@click.argument("fact_id", type=int)
@json_option
def forget(fact_id: int, as_json: bool) -> None:
    """Delete the memory fact FACT_ID. JSON: {"forgotten": FACT_ID}."""
    get_services().memory.forget(fact_id)
    emit({"forgotten": fact_id}, as_json, lambda: click.echo(f"Forgot {fact_id}."))
