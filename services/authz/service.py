"""Users, grants, tokens and the audit log: the rules of who may manage them, and who a request is.

Every method that changes something takes ``by``, the principal asking, checks it, writes the change and
its audit record in one transaction, and raises :class:`Forbidden` (changing nothing) when ``by`` may not.
Users and tokens are an admin's (the operator is one); a collection's grants are its owner's or an admin's.
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from services.authz import store
from services.authz.principal import ROLES, Need, Principal, role_allows
from services.authz.secrets import hash_password, new_token, token_hash, verify_password
from services.errors import AlreadyExists, Forbidden, NotFound, ValidationFailed

USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")
_DUMMY_HASH = hash_password("not-a-password-of-anyone")  # a missing user costs a login as long as a wrong password


class AccessService:
    def __init__(self, *, engine: Engine) -> None:
        self.engine = engine

    # -- who is asking ---------------------------------------------------------------------------------
    def users_exist(self) -> bool:
        """Whether access control is on: with no user, everyone acts as the operator (today's behaviour)."""
        with self.engine.connect() as conn:
            return store.users_exist(conn)

    def authenticate(self, name: str, password: str) -> Principal | None:
        """The user whose name and password these are, or None."""
        with self.engine.connect() as conn:
            row = store.user_row(conn, (name or "").strip())
        if row is None:
            verify_password(password, _DUMMY_HASH)
            return None
        return Principal.user(row.name, admin=row.is_admin) if verify_password(password, row.password_hash) else None

    def principal_for_token(self, token: str) -> Principal:
        """The user a token acts as; :class:`Forbidden` for an unknown or revoked token."""
        with self.engine.connect() as conn:
            row = store.token_user(conn, token_hash(token))
        if row is None:
            raise Forbidden("Unknown or revoked token.")
        return Principal.user(row.name, admin=row.is_admin)

    def principal_for_user(self, name: str) -> Principal:
        with self.engine.connect() as conn:
            row = store.user_row(conn, name)
        if row is None:
            raise NotFound(f"No user named {name!r}.")
        return Principal.user(row.name, admin=row.is_admin)

    # -- what they may do ------------------------------------------------------------------------------
    def role(self, who: Principal, collection_id: int, conn: Connection | None = None) -> str | None:
        """``who``'s role in a collection, read now (never cached): owner for the operator and admins."""
        if who.unrestricted:
            return "owner"
        if conn is None:
            with self.engine.connect() as own:
                return self.role(who, collection_id, own)
        if who.kind == "anonymous":
            return "viewer" if collection_id in store.anonymous_ids(conn) else None
        return store.role(conn, who.name, collection_id)

    def readable_ids(self, who: Principal) -> set[int] | None:
        """The collections ``who`` may read; None means every one."""
        if who.unrestricted:
            return None
        with self.engine.connect() as conn:
            if who.kind == "anonymous":
                return store.anonymous_ids(conn)
            return set(store.granted_ids(conn, who.name))

    def roles(self, who: Principal) -> dict[int, str] | None:
        """Collection id -> role of ``who``; None for the operator and admins (owner of everything)."""
        if who.unrestricted:
            return None
        with self.engine.connect() as conn:
            if who.kind == "anonymous":
                return dict.fromkeys(store.anonymous_ids(conn), "viewer")
            return store.granted_ids(conn, who.name)

    def require(self, who: Principal, collection_id: int, need: Need, what: str) -> None:
        if not role_allows(self.role(who, collection_id), need):
            raise Forbidden(f"{who.name} may not {what}: it needs the {need} role in that collection.")

    @staticmethod
    def require_admin(who: Principal, what: str) -> None:
        if not who.unrestricted:
            raise Forbidden(f"{who.name} may not {what}: only an admin may.")

    # -- users -----------------------------------------------------------------------------------------
    def add_user(self, name: str, password: str | None, *, admin: bool = False, by: Principal) -> None:
        self.require_admin(by, "add users")
        name = (name or "").strip()
        if not USER_NAME.match(name) or name in ("operator", "anonymous"):
            raise ValidationFailed("A user name has 1 to 64 letters, digits, '.', '_', '@' or '-' (not 'operator' "
                                   "or 'anonymous').")
        digest = hash_password(password) if password is not None else None
        with self.engine.begin() as conn:
            if store.user_row(conn, name) is not None:
                raise AlreadyExists(f"A user named {name!r} already exists.")
            conn.execute(sa.text("INSERT INTO app_users (name, password_hash, is_admin) VALUES (:n, :h, :a)"),
                         {"n": name, "h": digest, "a": admin})
            store.record(conn, by.name, "user.add", name, {"admin": admin})

    def set_password(self, name: str, password: str, *, by: Principal) -> None:
        if by.kind != "user" or by.name != name:
            self.require_admin(by, "set another user's password")
        digest = hash_password(password)
        with self.engine.begin() as conn:
            user = self._user(conn, name)
            conn.execute(sa.text("UPDATE app_users SET password_hash = :h WHERE id = :id"), {"h": digest, "id": user.id})
            store.record(conn, by.name, "user.password", name)

    def remove_user(self, name: str, *, by: Principal) -> None:
        """Remove a user with their grants and tokens; their conversations and memory facts go too."""
        self.require_admin(by, "remove users")
        with self.engine.begin() as conn:
            user = self._user(conn, name)
            conn.execute(sa.text("DELETE FROM app_users WHERE id = :id"), {"id": user.id})
            for table in ("conversations", "memory_facts"):
                conn.execute(sa.text(f"DELETE FROM {table} WHERE owner = :o"), {"o": f"user:{user.name}"})
            store.record(conn, by.name, "user.remove", name)

    def users(self, *, by: Principal) -> list[dict[str, Any]]:
        self.require_admin(by, "list users")
        with self.engine.connect() as conn:
            return store.users(conn)

    @staticmethod
    def _user(conn: Connection, name: str) -> Any:
        row = store.user_row(conn, (name or "").strip())
        if row is None:
            raise NotFound(f"No user named {name!r}.")
        return row

    # -- grants ----------------------------------------------------------------------------------------
    def _collection_id(self, conn: Connection, collection: str) -> int:
        cid = conn.execute(sa.text("SELECT id FROM collections WHERE name = :n"), {"n": collection}).scalar_one_or_none()
        if cid is None:
            raise NotFound(f"No collection named {collection!r}.")
        return int(cid)

    def _owned(self, conn: Connection, collection: str, by: Principal) -> int:
        """The collection's id when ``by`` owns it (or is an admin); Forbidden otherwise."""
        cid = self._collection_id(conn, collection)
        if not role_allows(self.role(by, cid, conn), "owner"):
            raise Forbidden(f"{by.name} may not change access to {collection!r}: only its owner or an admin may.")
        return cid

    def grant(self, user: str, collection: str, role: str, *, by: Principal) -> None:
        """Give ``user`` a role in a collection (replacing the one they had); an owner's or an admin's act."""
        if role not in ROLES:
            raise ValidationFailed(f"A role is one of {', '.join(ROLES)}, not {role!r}.")
        with self.engine.begin() as conn:
            cid = self._owned(conn, collection, by)
            store.put_grant(conn, self._user(conn, user).id, cid, role)
            store.record(conn, by.name, "access.grant", collection, {"user": user, "role": role})

    def revoke(self, user: str, collection: str, *, by: Principal) -> bool:
        with self.engine.begin() as conn:
            cid = self._owned(conn, collection, by)
            dropped = store.drop_grant(conn, self._user(conn, user).id, cid)
            store.record(conn, by.name, "access.revoke", collection, {"user": user, "had_grant": dropped})
        return dropped

    def set_anonymous(self, collection: str, readable: bool, *, by: Principal) -> None:
        """Let anonymous visitors read a collection (the demo case), or stop them."""
        with self.engine.begin() as conn:
            cid = self._owned(conn, collection, by)
            store.set_anonymous(conn, cid, readable)
            store.record(conn, by.name, "access.anonymous", collection, {"readable": readable})

    def anonymous_allowed(self) -> bool:
        """Whether any collection is open to anonymous visitors."""
        with self.engine.connect() as conn:
            return bool(store.anonymous_ids(conn))

    def grants(self, *, by: Principal) -> list[dict[str, Any]]:
        """Every grant an admin may see; a user sees those of collections they own, and their own."""
        with self.engine.connect() as conn:
            rows = store.grants(conn)
            if by.unrestricted:
                return rows
            owned = {r["collection"] for r in rows if r["user"] == by.name and r["role"] == "owner"}
            return [r for r in rows if r["collection"] in owned or r["user"] == by.name]

    # -- tokens ----------------------------------------------------------------------------------------
    def create_token(self, user: str, *, label: str = "", by: Principal) -> tuple[int, str]:
        """A new token for ``user`` (shown once; only its hash is kept): (id, token)."""
        if by.kind != "user" or by.name != user:
            self.require_admin(by, "create tokens for another user")
        token = new_token()
        with self.engine.begin() as conn:
            uid = self._user(conn, user).id
            tid = conn.execute(sa.text("INSERT INTO access_tokens (user_id, token_hash, label) VALUES (:u, :h, :l) "
                                       "RETURNING id"), {"u": uid, "h": token_hash(token), "l": label[:200]}).scalar_one()
            store.record(conn, by.name, "token.create", user, {"token_id": tid, "label": label[:200]})
        return int(tid), token

    def tokens(self, user: str | None = None, *, by: Principal) -> list[dict[str, Any]]:
        if by.kind != "user" or by.name != user:
            self.require_admin(by, "list other users' tokens")
        with self.engine.connect() as conn:
            return store.tokens(conn, user)

    def revoke_token(self, token_id: int, *, by: Principal) -> None:
        with self.engine.begin() as conn:
            owner = conn.execute(sa.text("SELECT u.name FROM access_tokens t JOIN app_users u ON u.id = t.user_id "
                                         "WHERE t.id = :id"), {"id": token_id}).scalar_one_or_none()
            if owner is None:
                raise NotFound(f"No token {token_id}.")
            if by.kind != "user" or by.name != owner:
                self.require_admin(by, "revoke another user's token")
            conn.execute(sa.text("UPDATE access_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = :id"),
                         {"id": token_id})
            store.record(conn, by.name, "token.revoke", owner, {"token_id": token_id})

    # -- audit -----------------------------------------------------------------------------------------
    def record(self, by: Principal, action: str, target: str, detail: dict[str, Any] | None = None) -> None:
        with self.engine.begin() as conn:
            store.record(conn, by.name, action, target, detail)

    def audit(self, *, by: Principal, limit: int = 100, actor: str | None = None,
              action: str | None = None) -> list[dict[str, Any]]:
        self.require_admin(by, "read the audit log")
        with self.engine.connect() as conn:
            return store.audit(conn, limit=limit, actor=actor, action=action)
