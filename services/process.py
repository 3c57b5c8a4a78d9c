"""One services container per process for the CLI and the MCP server, built on first use.

``get_services()`` builds it lazily (commands such as ``config show`` never
start the stores). ``set_services(services)`` is the documented hook for
tests and embedders: it makes every CLI command and the MCP server use that
container instead, which is then never closed here. (The web app caches its
container with Streamlit instead: ``components/resources.py``.)
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from services.container import Services
    from services.settings import Settings

_lock = threading.Lock()
_services: Services | None = None
_owned = False  # built here (so closed here), rather than handed in


def set_services(services: Services | None) -> None:
    """Use ``services`` for every command in this process (``None`` returns to building one lazily)."""
    global _services, _owned
    with _lock:
        _services, _owned = services, False


def get_services() -> Services:
    """The process's container, building it (stores, model) on first call."""
    global _services, _owned
    with _lock:
        if _services is None:
            from services.container import build_services

            _services, _owned = build_services(), True
        return _services


def get_settings() -> Settings:
    """The settings in use: the container's if one exists, else read them (without starting anything)."""
    if _services is not None:
        return _services.settings
    from services.settings import get_settings as read_settings

    return read_settings()


def close_services() -> None:
    """Close the container if this module built it; a handed-in one is left to its owner."""
    global _services, _owned
    with _lock:
        if _services is not None and _owned:
            _services.close()
            _services, _owned = None, False
