"""Who acts: the operator (the CLI, or an app with no users), a user, or an anonymous visitor.

A principal carries no roles: they are read from the database at each check, so a grant or a revoke
takes effect at the next operation and nothing one user was allowed can linger for another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["viewer", "editor", "owner"]
ROLES: tuple[Role, ...] = ("viewer", "editor", "owner")
RANK: dict[str, int] = {"viewer": 1, "editor": 2, "owner": 3}

# What each operation needs in its collection: read (viewer), write (editor), own (owner).
Need = Literal["viewer", "editor", "owner"]


@dataclass(frozen=True)
class Principal:
    """``kind``: operator (every right; the data folder's owner), user, or anonymous (reads the demo
    collections only). ``name`` is the user's, "operator" or "anonymous"."""

    kind: Literal["operator", "user", "anonymous"]
    name: str
    admin: bool = False
    session: str = ""  # an anonymous visitor's browser session: their conversations last as long as it

    @classmethod
    def operator(cls) -> Principal:
        return cls("operator", "operator", admin=True)

    @classmethod
    def anonymous(cls, session: str = "") -> Principal:
        return cls("anonymous", "anonymous", session=session)

    @classmethod
    def user(cls, name: str, *, admin: bool = False) -> Principal:
        return cls("user", name, admin=admin)

    @property
    def unrestricted(self) -> bool:
        """The operator and admins may do everything in every collection."""
        return self.kind == "operator" or self.admin

    @property
    def owner_key(self) -> str | None:
        """Whose conversations and memory facts: None (shared, as before users existed) for the operator."""
        if self.kind == "operator":
            return None
        return f"anonymous:{self.session}" if self.kind == "anonymous" else f"user:{self.name}"


def role_allows(role: str | None, need: Need) -> bool:
    return role is not None and RANK.get(role, 0) >= RANK[need]
