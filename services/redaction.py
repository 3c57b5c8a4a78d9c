"""Keep secrets out of what people see: displayed URLs, error messages and log records.

Two layers. :func:`mask_url` hides the password of a connection URL wherever
one is displayed (``config show``, the Home page, store health). And every
entry point (the app, the CLI, the MCP server) calls :func:`protect` with its
settings: from then on :func:`scrub` replaces each configured secret value in
a message, and every log record made in the process is scrubbed the same way,
tracebacks included, whatever logger or handler it goes to.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, SecretStr

MASK = "********"
# Shorter values would blank out ordinary words; a secret that short is not worth much anyway.
MIN_SECRET_LENGTH = 4

_SECRET_QUERY = re.compile(
    r"(?i)(^|[?&;])((?:ssl)?password|passwd|pwd|secret|token|access_token|api[_-]?key)=([^&;#]*)"
)


def mask_url(url: str) -> str:
    """``url`` with the password in its user info and in password-like query parameters masked."""
    if "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    authority_end = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    authority, tail = rest[:authority_end], rest[authority_end:]
    userinfo, at, hostport = authority.rpartition("@")
    if at and ":" in userinfo:
        user, password = userinfo.split(":", 1)
        if password:
            authority = f"{user}:{MASK}@{hostport}"
    tail = _SECRET_QUERY.sub(lambda m: f"{m.group(1)}{m.group(2)}={MASK}" if m.group(3) else m.group(0), tail)
    return f"{scheme}://{authority}{tail}"


def _url_secrets(url: str) -> list[str]:
    """The password and secret query values written in a URL (raw and percent-decoded)."""
    found: list[str] = []
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    if password:
        found.append(password)
    query = url.split("?", 1)[1] if "?" in url else ""
    found += [m.group(3) for m in _SECRET_QUERY.finditer("?" + query) if m.group(3)]
    return found + [unquote(value) for value in found]


def secret_values(settings: BaseModel) -> list[str]:
    """Every secret the settings hold (SecretStr fields, and passwords inside URLs), longest first."""
    values: list[str] = []
    for name in type(settings).model_fields:
        value = getattr(settings, name)
        if isinstance(value, SecretStr):
            values.append(value.get_secret_value())
        elif isinstance(value, str) and "://" in value:
            values += _url_secrets(value)
    return sorted({v for v in values if len(v) >= MIN_SECRET_LENGTH}, key=len, reverse=True)


_registered: tuple[str, ...] = ()
_factory_installed = False


def scrub(text: str, secrets: Iterable[str] | None = None) -> str:
    """``text`` with each secret (by default, those registered by :func:`protect`) replaced by a mask."""
    for secret in _registered if secrets is None else secrets:
        if secret:
            text = text.replace(secret, MASK)
    return text


def protect(settings: BaseModel) -> None:
    """Register the secrets of ``settings`` for :func:`scrub` and scrub every log record from now on.

    Safe to call again (each call replaces the registered secrets); the log
    record factory is installed once per process.
    """
    global _registered, _factory_installed
    _registered = tuple(secret_values(settings))
    if _factory_installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if _registered:
            _scrub_record(record)
        return record

    logging.setLogRecordFactory(factory)
    _factory_installed = True


def _scrub_record(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a bad format string: logging reports it later, as usual
        return
    clean = scrub(message)
    if clean != message:
        record.msg, record.args = clean, ()
    if record.exc_info and record.exc_info[0] is not None:
        text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        clean = scrub(text)
        if clean != text:
            record.exc_text = clean  # formatters use this instead of formatting the exception again
    if record.stack_info:
        record.stack_info = scrub(record.stack_info)
