"""SQL of users, grants, anonymous collections, tokens and the audit log (migration 013)."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection


def users_exist(conn: Connection) -> bool:
    return bool(conn.execute(sa.text("SELECT EXISTS (SELECT 1 FROM app_users)")).scalar_one())


def user_row(conn: Connection, name: str) -> Any:
    return conn.execute(sa.text("SELECT id, name, password_hash, is_admin FROM app_users WHERE name = :n"),
                        {"n": name}).first()


def users(conn: Connection) -> list[dict[str, Any]]:
    rows = conn.execute(sa.text(
        "SELECT u.name, u.is_admin, u.created_at, "
        "(SELECT count(*) FROM collection_grants g WHERE g.user_id = u.id) AS grants, "
        "(SELECT count(*) FROM access_tokens t WHERE t.user_id = u.id AND t.revoked_at IS NULL) AS tokens "
        "FROM app_users u ORDER BY u.name"))
    return [{"name": r.name, "admin": r.is_admin, "created_at": r.created_at.isoformat(),
             "grants": int(r.grants), "tokens": int(r.tokens)} for r in rows]


def role(conn: Connection, user: str, collection_id: int) -> str | None:
    return conn.execute(sa.text(
        "SELECT g.role FROM collection_grants g JOIN app_users u ON u.id = g.user_id "
        "WHERE u.name = :u AND g.collection_id = :c"), {"u": user, "c": collection_id}).scalar_one_or_none()


def granted_ids(conn: Connection, user: str) -> dict[int, str]:
    rows = conn.execute(sa.text("SELECT g.collection_id, g.role FROM collection_grants g "
                                "JOIN app_users u ON u.id = g.user_id WHERE u.name = :u"), {"u": user})
    return {int(r.collection_id): r.role for r in rows}


def anonymous_ids(conn: Connection) -> set[int]:
    return {int(r[0]) for r in conn.execute(sa.text("SELECT collection_id FROM anonymous_collections"))}


def grants(conn: Connection) -> list[dict[str, Any]]:
    rows = conn.execute(sa.text(
        "SELECT u.name AS who, c.name AS collection, g.role FROM collection_grants g "
        "JOIN app_users u ON u.id = g.user_id JOIN collections c ON c.id = g.collection_id "
        "UNION ALL SELECT '(anonymous)', c.name, 'viewer' FROM anonymous_collections a "
        "JOIN collections c ON c.id = a.collection_id ORDER BY collection, who"))
    return [{"user": r.who, "collection": r.collection, "role": r.role} for r in rows]


def put_grant(conn: Connection, user_id: int, collection_id: int, role_name: str) -> None:
    conn.execute(sa.text(
        "INSERT INTO collection_grants (user_id, collection_id, role) VALUES (:u, :c, :r) "
        "ON CONFLICT (user_id, collection_id) DO UPDATE SET role = EXCLUDED.role"),
        {"u": user_id, "c": collection_id, "r": role_name})


def drop_grant(conn: Connection, user_id: int, collection_id: int) -> bool:
    return conn.execute(sa.text("DELETE FROM collection_grants WHERE user_id = :u AND collection_id = :c "
                                "RETURNING 1"), {"u": user_id, "c": collection_id}).first() is not None


def set_anonymous(conn: Connection, collection_id: int, readable: bool) -> None:
    if readable:
        conn.execute(sa.text("INSERT INTO anonymous_collections (collection_id) VALUES (:c) ON CONFLICT DO NOTHING"),
                     {"c": collection_id})
    else:
        conn.execute(sa.text("DELETE FROM anonymous_collections WHERE collection_id = :c"), {"c": collection_id})


def token_user(conn: Connection, digest: str) -> Any:
    return conn.execute(sa.text(
        "SELECT u.name, u.is_admin FROM access_tokens t JOIN app_users u ON u.id = t.user_id "
        "WHERE t.token_hash = :h AND t.revoked_at IS NULL"), {"h": digest}).first()


def tokens(conn: Connection, user: str | None) -> list[dict[str, Any]]:
    rows = conn.execute(sa.text(
        "SELECT t.id, u.name, t.label, t.created_at, t.revoked_at FROM access_tokens t "
        "JOIN app_users u ON u.id = t.user_id WHERE (CAST(:u AS text) IS NULL OR u.name = :u) ORDER BY t.id"),
        {"u": user})
    return [{"id": r.id, "user": r.name, "label": r.label, "created_at": r.created_at.isoformat(),
             "revoked_at": r.revoked_at.isoformat() if r.revoked_at else None} for r in rows]


def record(conn: Connection, actor: str, action: str, target: str, detail: dict[str, Any] | None = None) -> None:
    conn.execute(sa.text("INSERT INTO audit_log (actor, action, target, detail) VALUES (:a, :x, :t, CAST(:d AS jsonb))"),
                 {"a": actor, "x": action, "t": target, "d": json.dumps(detail or {}, default=str)})


def audit(conn: Connection, *, limit: int, actor: str | None, action: str | None) -> list[dict[str, Any]]:
    rows = conn.execute(sa.text(
        "SELECT id, at, actor, action, target, detail FROM audit_log "
        "WHERE (CAST(:a AS text) IS NULL OR actor = :a) AND (CAST(:x AS text) IS NULL OR action = :x) "
        "ORDER BY at DESC, id DESC LIMIT :n"), {"a": actor, "x": action, "n": max(1, min(limit, 10_000))})
    return [{"id": r.id, "at": r.at.isoformat(), "actor": r.actor, "action": r.action, "target": r.target,
             "detail": r.detail} for r in rows]
