"""``rag ingest``: text, files or a directory into a collection, with a progress bar on a terminal."""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

import click

from cli.context import get_services
from cli.errors import fail_unless_done, parse_json
from cli.output import emit, json_option
from services.authz.principal import Principal

if TYPE_CHECKING:
    from services.ingest.pipeline import IngestRequest


class _Bar:
    """A click progress bar on stderr when it is a terminal; safe to update from the ingest threads."""

    def __init__(self, total: int, enabled: bool) -> None:
        self._lock = threading.Lock()
        self._done = 0
        self._bar = click.progressbar(length=max(total, 1), label="Ingesting", file=sys.stderr) if enabled else None

    def __call__(self, progress: dict[str, Any]) -> None:
        if self._bar is None:
            return
        with self._lock:
            done = int(progress.get("files_done", 0))
            if done > self._done:
                self._bar.update(done - self._done)
                self._done = done

    def finish(self) -> None:
        if self._bar is not None:
            self._bar.render_finish()


def run_request(request: IngestRequest, as_json: bool) -> None:
    """Run an ingest to completion, print the outcome; exit 6 when nothing was stored, 7 when some items failed."""
    svc = get_services()
    bar = _Bar(len(request.items), enabled=not as_json and sys.stderr.isatty())
    try:
        result = svc.scope(Principal.operator()).ingest(request, wait=True, on_progress=bar)
    finally:
        bar.finish()

    def human() -> None:
        click.echo(result.summary())
        for item in result.items:  # notes on stored items (e.g. a damaged part left out) on stdout
            if item.get("reason") and not _problem(item):
                click.echo(f"  {item['status']:<9} {item['title']}: {item['reason']}")

    emit(result, as_json, human)
    report_problems(result.items)
    fail_unless_done(result, "Ingest", "item")


def _problem(item: dict[str, Any]) -> bool:
    return item["status"] in ("skipped", "failed", "cancelled") or item.get("graph") == "failed"


def report_problems(items: list[dict[str, Any]]) -> None:
    """Each failed, refused, skipped or cancelled item on stderr, once: its title (the file), then the reason."""
    for item in items:
        if _problem(item):
            click.echo(f"  {item['status']:<9} {item['title']}: {item.get('reason') or '(no reason given)'}", err=True)


def common(fn: Any) -> Any:
    fn = json_option(fn)
    fn = click.option("--metadata", metavar="JSON", help='Metadata for every document, e.g. \'{"year": 1999}\'.')(fn)
    fn = click.option("--mode", type=click.Choice(["ingest", "reingest"]), default="ingest", show_default=True,
                      help="ingest refuses a duplicate title or content; reingest replaces a document with the same title.")(fn)
    return fn


@click.group("ingest")
def group() -> None:
    """Add text, files or a directory to a collection.

    JSON: the job result, {"job_id", "status", "progress", "items"} on stdout. Failed, refused, skipped
    and cancelled items are listed on stderr, each with its file and reason (also with --json).
    Exits 6 when nothing was stored because items failed, 7 when some failed, 1 when cancelled.
    """


@group.command("text")
@click.argument("collection")
@click.argument("text", required=False)
@click.option("--title", "-t", required=True, help="The document's title (unique within the collection).")
@common
def text(collection: str, text: str | None, title: str, mode: str, metadata: str | None, as_json: bool) -> None:
    """Ingest TEXT as one document (omit TEXT or use - to read standard input)."""
    from services.ingest.requests import text_request
    from services.ingest.stages import parse_mode

    meta = parse_json(metadata, "--metadata")
    if text is None or text == "-":
        text = click.get_text_stream("stdin").read()
    run_request(text_request(collection, title=title, text=text, metadata=meta, mode=parse_mode(mode)), as_json)


@group.command("file")
@click.argument("collection")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--password", metavar="TEXT", help="Opens encrypted PDFs; '-' asks for it without echo. "
                                                   "Used for this run only: never stored or logged.")
@common
def file(collection: str, paths: tuple[str, ...], mode: str, metadata: str | None, as_json: bool,
         password: str | None) -> None:
    """Ingest one or more files (.txt .md .html .docx .pdf); each file's name is its title.

    Files are read one at a time; one over max_file_bytes is skipped by its size on disk, unread.
    """
    from services.ingest.requests import paths_request
    from services.ingest.stages import parse_mode

    svc = get_services()
    meta = parse_json(metadata, "--metadata")
    if password == "-":
        password = click.prompt("PDF password", hide_input=True, err=True)
    request = paths_request(collection, list(paths), settings=svc.settings, metadata=meta, mode=parse_mode(mode),
                            password=password)
    run_request(request, as_json)


@group.command("directory")
@click.argument("collection")
@click.argument("path")
@click.option("--include", multiple=True, metavar="GLOB", help="Only files matching this glob (repeatable), e.g. '*.md'.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip files matching this glob (repeatable).")
@click.option("--recursive/--no-recursive", default=True, show_default=True, help="Descend into sub-directories.")
@click.option("--no-sidecar", is_flag=True, help="Ignore a metadata.csv sidecar (per-file metadata).")
@click.option("--title-template", metavar="TEMPLATE", default=None,
              help="Title each document from its metadata, e.g. '{president}, {year}' (a 'title' column in "
                   "metadata.csv wins; default: the file's path).")
@common
def directory(collection: str, path: str, include: tuple[str, ...], exclude: tuple[str, ...], recursive: bool,
              no_sidecar: bool, title_template: str | None, mode: str, metadata: str | None, as_json: bool) -> None:
    """Ingest every supported file under PATH (a metadata.csv beside them adds per-file metadata)."""
    from services.ingest.requests import directory_request
    from services.ingest.stages import parse_mode

    svc = get_services()
    meta = parse_json(metadata, "--metadata")
    request = directory_request(collection, path, settings=svc.settings, include=list(include), exclude=list(exclude),
                                recursive=recursive, metadata=meta, mode=parse_mode(mode), use_sidecar=not no_sidecar,
                                title_template=title_template)
    run_request(request, as_json)
