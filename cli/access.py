"""``rag users``, ``rag access``, ``rag tokens`` and ``rag audit``: who may see and change what (issue 32).

The CLI runs as the operator of the data folder (every right); what it changes is recorded in the audit
log as "operator". Adding the first user turns logins on in the web app (docs/access.md).
"""

from __future__ import annotations

import sys

import click

from cli.context import get_services
from cli.errors import CliError
from cli.output import emit, json_option, table
from services.authz.principal import ROLES, Principal

OPERATOR = Principal.operator()


def _read_password(from_stdin: bool, name: str) -> str:
    if from_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise CliError("--password-stdin: no password on standard input.", 2)
        return password
    return click.prompt(f"Password for {name}", hide_input=True, confirmation_prompt=True)


@click.group("users")
def users() -> None:
    """Users of the web app and the MCP server (with no user, nobody logs in, or the shared password)."""


@users.command("add")
@click.argument("name")
@click.option("--admin", is_flag=True, help="An admin manages users and may do everything in every collection.")
@click.option("--password-stdin", is_flag=True, help="Read the password from the first line of standard input.")
@click.option("--no-password", is_flag=True, help="A user who signs in with a token only (MCP), not in the app.")
@json_option
def users_add(name: str, admin: bool, password_stdin: bool, no_password: bool, as_json: bool) -> None:
    """Add user NAME (the password is asked for, or read with --password-stdin; stored scrypt-hashed).
    JSON: {"user", "admin"}."""
    password = None if no_password else _read_password(password_stdin, name)
    get_services().access.add_user(name, password, admin=admin, by=OPERATOR)
    emit({"user": name, "admin": admin}, as_json, lambda: click.echo(f"Added {'admin' if admin else 'user'} {name}."))


@users.command("password")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from the first line of standard input.")
@json_option
def users_password(name: str, password_stdin: bool, as_json: bool) -> None:
    """Set the password of user NAME. JSON: {"user", "password_set"}."""
    get_services().access.set_password(name, _read_password(password_stdin, name), by=OPERATOR)
    emit({"user": name, "password_set": True}, as_json, lambda: click.echo(f"Password of {name} set."))


@users.command("list")
@json_option
def users_list(as_json: bool) -> None:
    """Users, whether admin, how many grants and live tokens. JSON: [{"name", "admin", "created_at", "grants",
    "tokens"}]."""
    rows = get_services().access.users(by=OPERATOR)
    emit(rows, as_json, lambda: table([[r["name"], "yes" if r["admin"] else "", r["grants"], r["tokens"]]
                                       for r in rows], ["user", "admin", "grants", "tokens"]))


@users.command("remove")
@click.argument("name")
@json_option
def users_remove(name: str, as_json: bool) -> None:
    """Remove user NAME with their grants, tokens, conversations and memory facts. JSON: {"removed"}."""
    get_services().access.remove_user(name, by=OPERATOR)
    emit({"removed": name}, as_json, lambda: click.echo(f"Removed user {name}."))


@click.group("access")
def access() -> None:
    """Roles per collection: viewer (read), editor (+ ingest, edit, delete documents), owner (+ delete, grant)."""


@access.command("grant")
@click.argument("user")
@click.argument("collection")
@click.argument("role", type=click.Choice(ROLES))
@json_option
def access_grant(user: str, collection: str, role: str, as_json: bool) -> None:
    """Give USER the ROLE in COLLECTION (replacing the role they had). JSON: {"user", "collection", "role"}."""
    get_services().access.grant(user, collection, role, by=OPERATOR)
    emit({"user": user, "collection": collection, "role": role}, as_json,
         lambda: click.echo(f"{user} is now {role} of {collection}."))


@access.command("revoke")
@click.argument("user")
@click.argument("collection")
@json_option
def access_revoke(user: str, collection: str, as_json: bool) -> None:
    """Take USER's role in COLLECTION away. JSON: {"user", "collection", "had_role"}."""
    had = get_services().access.revoke(user, collection, by=OPERATOR)
    emit({"user": user, "collection": collection, "had_role": bool(had)}, as_json,
         lambda: click.echo(f"{user} has no role in {collection}." if had else f"{user} had no role in {collection}."))


@access.command("anonymous")
@click.argument("collection")
@click.option("--off", is_flag=True, help="Stop anonymous visitors reading COLLECTION.")
@json_option
def access_anonymous(collection: str, off: bool, as_json: bool) -> None:
    """Let visitors who do not log in read COLLECTION (the demo case), or stop them with --off. JSON:
    {"collection", "anonymous"}."""
    get_services().access.set_anonymous(collection, not off, by=OPERATOR)
    emit({"collection": collection, "anonymous": not off}, as_json,
         lambda: click.echo(f"Anonymous visitors {'may no longer' if off else 'may'} read {collection}."))


@access.command("list")
@json_option
def access_list(as_json: bool) -> None:
    """Every grant. JSON: [{"user", "collection", "role"}] ("(anonymous)" for the visitors' collections)."""
    rows = get_services().access.grants(by=OPERATOR)
    emit(rows, as_json, lambda: table([[r["collection"], r["user"], r["role"]] for r in rows],
                                      ["collection", "user", "role"]))


@click.group("tokens")
def tokens() -> None:
    """Tokens for the MCP server over HTTP: each tool call acts as the token's user."""


@tokens.command("create")
@click.argument("user")
@click.option("--label", default="", help="What the token is for (shown by `rag tokens list`).")
@json_option
def tokens_create(user: str, label: str, as_json: bool) -> None:
    """A new token for USER, printed once (only its hash is stored). JSON: {"id", "user", "token"}."""
    token_id, token = get_services().access.create_token(user, label=label, by=OPERATOR)
    emit({"id": token_id, "user": user, "token": token}, as_json,
         lambda: click.echo(f"Token {token_id} for {user} (shown once, keep it secret):\n{token}"))


@tokens.command("list")
@click.option("--user", default=None, help="Only USER's tokens.")
@json_option
def tokens_list(user: str | None, as_json: bool) -> None:
    """Tokens (never their value). JSON: [{"id", "user", "label", "created_at", "revoked_at"}]."""
    rows = get_services().access.tokens(user, by=OPERATOR)
    emit(rows, as_json, lambda: table([[r["id"], r["user"], r["label"], r["created_at"][:19],
                                        (r["revoked_at"] or "")[:19]] for r in rows],
                                      ["id", "user", "label", "created", "revoked"]))


@tokens.command("revoke")
@click.argument("token_id", type=int)
@json_option
def tokens_revoke(token_id: int, as_json: bool) -> None:
    """Revoke token TOKEN_ID: the MCP server refuses it from its next call. JSON: {"revoked"}."""
    get_services().access.revoke_token(token_id, by=OPERATOR)
    emit({"revoked": token_id}, as_json, lambda: click.echo(f"Token {token_id} revoked."))


@click.command("audit")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1, 10_000),
              help="At most this many entries, newest first.")
@click.option("--user", "actor", default=None, help="Only what USER did.")
@click.option("--action", default=None, help="Only this action (e.g. document.delete, access.grant).")
@json_option
def audit(limit: int, actor: str | None, action: str | None, as_json: bool) -> None:
    """The audit log, newest first: who changed what, when. JSON: [{"id", "at", "actor", "action", "target",
    "detail"}]."""
    rows = get_services().access.audit(by=OPERATOR, limit=limit, actor=actor, action=action)
    emit(rows, as_json, lambda: table([[r["at"][:19], r["actor"], r["action"], r["target"]] for r in rows],
                                      ["when (UTC)", "who", "action", "target"]))
