"""MCP tools that ingest text, a server-side file or a server-side directory, reporting progress.

The ingest runs on worker threads; its progress callback hands each new count
to the event loop through an unbounded stream (it never waits on the client),
and a task beside it turns increases into MCP progress notifications.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Annotated, Any, Literal

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from mcp_server.context import scope_of, tool_errors
from services.container import Services
from services.ingest.pipeline import ITEM_OUTCOMES, IngestRequest, IngestResult
from services.ingest.requests import directory_request, paths_request, text_request
from services.jsonable import to_jsonable
from services.redaction import scrub

log = logging.getLogger(__name__)
MAX_ITEMS = 200

Collection = Annotated[str, Field(description="The collection to store into (it must exist; see list_collections).")]
Mode = Annotated[Literal["ingest", "reingest"], Field(
    description="ingest: skip a document whose title or content is already in the collection; "
                "reingest: replace the stored document that has the same title.")]
Metadata = Annotated[dict[str, Any] | None, Field(
    description="Metadata for the document(s), checked against the collection's schema, e.g. {\"year\": 1999}.")]


def _result(result: IngestResult) -> dict[str, Any]:
    """The job's outcome; a job that stored nothing because its items failed is a tool error instead.

    A ``partial`` job (some items stored, some failed) is a structured result whose
    ``status`` says so and whose ``items`` give each failure's reason.
    """
    if result.status == "failed":
        reasons = "; ".join(f"{i['title']}: {i.get('reason', '')}" for i in result.items if i["status"] == "failed")
        raise ToolError(scrub(f"IngestFailed: {result.summary()} {reasons}"[:4000]))
    return {
        "job_id": result.job_id, "status": result.status, "summary": result.summary(),
        "counts": {c: result.count(c) for c in ITEM_OUTCOMES}, "progress": to_jsonable(result.progress),
        "items": to_jsonable(result.items[:MAX_ITEMS]), "items_truncated": len(result.items) > MAX_ITEMS,
    }


async def run_ingest(ctx: Context, build: Callable[[Services], IngestRequest]) -> dict[str, Any]:
    """Build the request and ingest it on worker threads, sending progress (files done of total) as it moves."""
    with tool_errors():
        scope = await anyio.to_thread.run_sync(scope_of, ctx)
        svc = scope.services
        request = await anyio.to_thread.run_sync(build, svc)
        scope.collection(request.collection, "editor", "ingest into")  # refused before any file is read
        total = len(request.items)
        token = anyio.lowlevel.current_token()
        send, receive = anyio.create_memory_object_stream[int](max_buffer_size=math.inf)
        outcome: dict[str, Any] = {}

        def on_progress(progress: dict[str, Any]) -> None:
            """Called on the ingest threads: hand the count to the event loop, never raise into the ingest."""
            try:
                anyio.from_thread.run_sync(send.send_nowait, int(progress.get("files_done", 0)), token=token)
            except Exception:
                log.debug("progress not forwarded", exc_info=True)

        async def work() -> None:
            try:
                outcome["result"] = await anyio.to_thread.run_sync(
                    lambda: scope.ingest(request, wait=True, on_progress=on_progress))
            except Exception as exc:
                outcome["error"] = exc
            finally:
                send.close()

        async def forward() -> None:
            sent = -1  # progress must increase from one notification to the next
            async with receive:
                async for done in receive:
                    if done > sent and await _report(ctx, done, total, f"{done} of {total} files"):
                        sent = done

        async with anyio.create_task_group() as tg:
            tg.start_soon(forward)
            tg.start_soon(work)
        if "error" in outcome:
            raise outcome["error"]
        return _result(outcome["result"])


async def _report(ctx: Context, done: int, total: int, message: str) -> bool:
    try:
        await ctx.report_progress(done, total, message)
        return True
    except Exception:  # the client went away; the ingest carries on regardless
        log.warning("could not send progress", exc_info=True)
        return False


def register(server: MCPServer[Any]) -> None:
    @server.tool()
    async def ingest_text(
        ctx: Context,
        collection: Collection,
        title: Annotated[str, Field(description="A title, unique within the collection; reingest replaces by title.")],
        text: Annotated[str, Field(description="The full text. Markdown '#' headings become section paths.")],
        metadata: Metadata = None,
        mode: Mode = "ingest",
    ) -> dict[str, Any]:
        """Store a piece of text (a note, an answer, a pasted page) as a searchable document.

        It is chunked, embedded and its facts extracted into the knowledge graph. Returns the job
        outcome; items[0].document_id is the new document's id. A duplicate title or identical
        content is skipped (see items[0].reason) unless mode is reingest."""
        return await run_ingest(ctx, lambda svc: text_request(collection, title=title, text=text, metadata=metadata, mode=mode))

    @server.tool()
    async def ingest_file(
        ctx: Context,
        collection: Collection,
        path: Annotated[str, Field(description="Absolute path of a .txt .md .html .docx or .pdf file on the "
                                               "machine running this server (not the agent's machine).")],
        metadata: Metadata = None,
        mode: Mode = "ingest",
        password: Annotated[str | None, Field(description="Opens an encrypted PDF; used for this call only, "
                                                          "never stored.")] = None,
    ) -> dict[str, Any]:
        """Ingest one file that is on the server's disk; its file name becomes the title. Returns the job outcome."""
        def build(svc: Services) -> IngestRequest:
            return paths_request(collection, [path], settings=svc.settings, metadata=metadata, mode=mode,
                                 password=password)

        return await run_ingest(ctx, build)

    @server.tool()
    async def ingest_directory(
        ctx: Context,
        collection: Collection,
        path: Annotated[str, Field(description="A directory on the server's disk.")],
        include: Annotated[list[str] | None, Field(description="Only file names matching these globs, e.g. [\"*.md\"].")] = None,
        exclude: Annotated[list[str] | None, Field(description="Skip file names matching these globs.")] = None,
        recursive: Annotated[bool, Field(description="Also read sub-directories.")] = True,
        metadata: Metadata = None,
        mode: Mode = "ingest",
        title_template: Annotated[str | None, Field(description="Title each document from its metadata, e.g. "
                                                    "\"{president}, {year}\"; a 'title' column in metadata.csv "
                                                    "wins; default: the file's path.")] = None,
    ) -> dict[str, Any]:
        """Ingest every supported file under a server-side directory (a metadata.csv there adds per-file
        metadata). Sends progress notifications (files done of total) while it runs; may take minutes for
        large folders. Unsupported or duplicate files are skipped with a reason. The same request while one
        is running is refused. Returns the job outcome."""
        def build(svc: Services) -> IngestRequest:
            return directory_request(collection, path, settings=svc.settings, include=include, exclude=exclude,
                                     recursive=recursive, metadata=metadata, mode=mode, title_template=title_template)

        return await run_ingest(ctx, build)
