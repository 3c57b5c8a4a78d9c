"""What an AppTest run put on the screen: every element, and all of its text, for assertions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from streamlit.testing.v1 import AppTest

# Containers and bookkeeping nodes that show nothing by themselves.
STRUCTURAL = {"sidebar", "event", "main", "container", "column", "form", "vertical", "horizontal"}


def _walk(node: Any) -> Iterator[Any]:
    children = getattr(node, "children", None)
    if isinstance(children, dict) and children:
        for child in children.values():
            yield from _walk(child)
    else:
        yield node


def elements(at: AppTest, *, where: str = "all") -> list[Any]:
    """The leaf elements drawn by the last run (``where``: all, main or sidebar), containers left out."""
    root = {"all": at._tree, "main": at.main, "sidebar": at.sidebar}[where]
    return [n for n in _walk(root) if n.type not in STRUCTURAL]


def element_types(at: AppTest, *, where: str = "all") -> list[str]:
    return [n.type for n in elements(at, where=where)]


def rendered_text(at: AppTest) -> str:
    """Every field of every element drawn (labels, values, bodies, table bytes), as one string."""
    return "\n".join(str(n.proto) for n in _walk(at._tree) if getattr(n, "proto", None) is not None)


def log_in(at: AppTest, password: str) -> AppTest:
    """Type ``password`` into the login form and submit it."""
    at.text_input(key="auth.password").set_value(password)
    next(b for b in at.button if b.label == "Log in").click().run()
    return at
