"""The ``rag`` command group: collections, ingest, documents, search, graph, backup/restore, config, status, stores, mcp.

Exit codes: 0 ok; 1 other error; 2 bad input (validation, unsupported input,
embedding-model mismatch, bad JSON); 3 not found; 4 already exists, already
in progress or in use; 5 configuration or store unavailable; 6 an ingest or crawl stored
nothing (every item failed or was refused); 7 an ingest or crawl stored some
items while others failed; 8 refused by the access rules; 130 a crawl stopped with Ctrl-C (it stays resumable). Errors print one line,
``Error: <message>``, on stderr and never a traceback (``RAG_DEBUG=1`` shows
the traceback of an unexpected error).
"""

from __future__ import annotations

import os
import warnings

# The bundled embedding model is on disk; never reach for the Hugging Face hub, and keep its
# loading bars off the terminal (stdout carries results, and MCP messages under `rag mcp`).
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")  # platformdirs, on hosts without it: harmless

from typing import Any  # noqa: E402

import click  # noqa: E402

from cli import access, ask, backup, collection, config, document, graph, graph_edit, ingest, mcp_cmd, search, stores, upgrade, web  # noqa: E402, F401
from cli.errors import CliError, from_workbench, one_line  # noqa: E402
from services.errors import WorkbenchError  # noqa: E402


class RagGroup(click.Group):
    """Turns domain errors raised anywhere below into ``Error: ...`` and the mapped exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        _protect_secrets()
        try:
            return super().invoke(ctx)
        except WorkbenchError as exc:
            raise from_workbench(exc) from None
        except (click.ClickException, click.exceptions.Exit, click.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:
            from pydantic import ValidationError

            if isinstance(exc, ValidationError):
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}" for e in exc.errors())
                raise CliError(f"Invalid settings: {problems}", 5) from None
            if os.environ.get("RAG_DEBUG"):
                raise
            raise CliError(f"Unexpected error: {exc.__class__.__name__}: {one_line(str(exc))} "
                           "(set RAG_DEBUG=1 to see the traceback)", 1) from None


def _protect_secrets() -> None:
    """Keep the configured secrets out of error lines and logs (invalid settings are reported by the command)."""
    from pydantic import ValidationError

    from cli import context
    from services.redaction import protect

    try:
        protect(context.get_settings())
    except ValidationError:
        pass


@click.group(cls=RagGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="rag-memory-workbench", message="rag %(version)s")
def cli() -> None:
    """RAG Memory Workbench from the command line: collections, ingestion, search and the knowledge graph.

    Uses the same settings and stores as the web app (see `rag config show`).
    Every command that prints results takes --json for machine-readable output.

    \b
    Exit codes:
      0  done
      1  unexpected error, or a job that was cancelled or interrupted
      2  bad input (validation, unsupported file, embedding-model mismatch, bad JSON)
      3  not found
      4  already exists, the same ingest is already running, or the stores are in use
      5  settings wrong or a store unavailable
      6  an ingest or crawl stored nothing: every item failed or was refused
      7  an ingest or crawl stored some items, and others failed
      8  refused: the user may not do this (roles, docs/access.md)
      130  a crawl stopped with Ctrl-C: it is cancelled and resumable (rag ingest resume ID)
    """


cli.add_command(collection.group)
ingest.group.add_command(web.url)
ingest.group.add_command(web.crawls)
ingest.group.add_command(web.resume)
cli.add_command(ingest.group)
cli.add_command(web.analyze)
cli.add_command(document.group)
cli.add_command(search.search)
cli.add_command(graph.group)
cli.add_command(config.group)
cli.add_command(config.status)
cli.add_command(stores.group)
cli.add_command(mcp_cmd.mcp)
cli.add_command(ask.ask)
cli.add_command(ask.memory)
cli.add_command(backup.backup)
cli.add_command(backup.restore)
cli.add_command(upgrade.upgrade)
cli.add_command(access.users)
cli.add_command(access.access)
cli.add_command(access.tokens)
cli.add_command(access.audit)


def main() -> None:
    """Console-script entry point (``rag``)."""
    cli(prog_name="rag")
