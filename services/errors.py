"""Domain errors. Every front end turns these into a clear message.

Each error carries a message meant for a person; front ends show ``str(err)``
and never a traceback.
"""

from __future__ import annotations


class WorkbenchError(Exception):
    """Base class for every error a service raises on purpose."""


class ConfigError(WorkbenchError):
    """A setting is missing or wrong, or a store cannot be reached."""


class StoreUnavailable(ConfigError):
    """A backing store (PostgreSQL, graph) did not start or answer."""


class NotFound(WorkbenchError):
    """A collection, document or job does not exist."""


class AlreadyExists(WorkbenchError):
    """A unique name or an identical document is already present."""


class ValidationFailed(WorkbenchError):
    """Input does not satisfy the rules (schema, lengths, ranges)."""


class AmbiguousName(ValidationFailed):
    """A name that several entities carry: the message lists them, ``candidates`` holds their keys."""

    def __init__(self, message: str, candidates: list[str]) -> None:
        super().__init__(message)
        self.candidates = candidates


class EmbeddingMismatch(WorkbenchError):
    """The configured embedding model differs from the one a collection was built with."""


class UnsupportedInput(WorkbenchError):
    """A file or payload the ingester cannot read (binary, corrupt, too large).

    ``reason`` says why; ``file`` names the file when it is known. ``str()`` is
    "file: reason", for callers that show the error alone; a job's item already
    shows its title, so it records ``reason`` (the file is named once).
    """

    def __init__(self, reason: str, *, file: str | None = None) -> None:
        super().__init__(f"{file}: {reason}" if file else reason)
        self.reason = reason
        self.file = file


class JobInProgress(WorkbenchError):
    """The same request is already running; it is refused rather than run twice."""


class EditConflict(WorkbenchError):
    """A change was based on a copy that someone else has changed since; reload it and try again."""


class InUse(WorkbenchError):
    """Something other processes still use (the embedded stores) was not stopped."""


class Forbidden(WorkbenchError):
    """The signed-in user may not do this (a role too low, a collection not theirs); nothing was changed."""
