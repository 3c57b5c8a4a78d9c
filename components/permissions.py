"""Which controls a page draws for the signed-in user. The services refuse a forbidden call anyway
(services/authz/scope.py); this only keeps viewers from seeing buttons they cannot use."""

from __future__ import annotations

from typing import Any

from services.authz.principal import Need, role_allows


def may(svc: Any, collection: str, need: Need) -> bool:
    """Whether the user holds ``need`` in ``collection``; always, in an app without users."""
    role = getattr(svc, "role", None)
    return True if role is None else role_allows(role(collection), need)


def may_create(svc: Any) -> bool:
    """Anonymous visitors may not create collections; everyone else may (and owns what they create)."""
    who = getattr(svc, "who", None)
    return who is None or who.kind != "anonymous"
