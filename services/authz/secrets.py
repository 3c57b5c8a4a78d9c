"""Password hashing (scrypt, from the standard library) and random API tokens (stored as SHA-256)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from services.errors import ValidationFailed

# scrypt cost: n=2^14, r=8, p=1 is 16 MiB and ~50 ms per hash (OWASP's minimum is n=2^17 with r=8 p=1
# or equivalents; 2^15 keeps a login under 0.2 s on a small shared machine while far above a fast hash).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1
MIN_PASSWORD, MAX_PASSWORD = 8, 1024
TOKEN_PREFIX = "rmw_"


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=128 * 1024 * 1024, dklen=32)


def hash_password(password: str) -> str:
    """``scrypt$n$r$p$salt$hash`` (base64); refuses a password too short or too long."""
    if not MIN_PASSWORD <= len(password or "") <= MAX_PASSWORD:
        raise ValidationFailed(f"A password has {MIN_PASSWORD} to {MAX_PASSWORD} characters.")
    salt = secrets.token_bytes(16)
    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    b64 = base64.b64encode
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${b64(salt).decode()}${b64(digest).decode()}"


def verify_password(password: str, stored: str | None) -> bool:
    """Whether ``password`` matches ``stored`` (constant-time compare); False for no or a malformed hash."""
    try:
        scheme, n, r, p, salt, digest = (stored or "").split("$")
        if scheme != "scrypt" or len(password or "") > MAX_PASSWORD:
            return False
        got = _scrypt(password, base64.b64decode(salt), int(n), int(r), int(p))
        return hmac.compare_digest(got, base64.b64decode(digest))
    except (ValueError, TypeError):
        return False


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """A token is 256 random bits: one SHA-256 is enough to store it (no guessing to slow down)."""
    return hashlib.sha256((token or "").encode("utf-8")).hexdigest()
