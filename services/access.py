"""Who may use the app: the login method in force and whether the server is exposed without one.

Plain decisions for ``components/auth.py`` (which renders them) and the CLI, so
that they can be tested without a browser. Nothing here reads Streamlit's
config or secrets: the caller passes the listening address and whether an
OIDC ``[auth]`` section exists.
"""

from __future__ import annotations

import hmac
import ipaddress
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from services.errors import ConfigError

AuthMode = Literal["auto", "none", "password", "oidc"]
LoginMethod = Literal["none", "password", "oidc"]

LOGIN_FREE_ATTEMPTS = 5  # wrong passwords from one client before each try must wait
LOGIN_BASE_DELAY = 30.0  # seconds of the first wait; doubled per further wrong password
LOGIN_MAX_DELAY = 900.0  # the longest wait, seconds


def is_loopback_address(address: str | None) -> bool:
    """True when a server bound to ``address`` is reachable from this machine only.

    Loopback is ``localhost`` and any literal address in 127.0.0.0/8 or ``::1``
    (also IPv4-mapped, ``::ffff:127.0.0.1``, and in brackets, ``[::1]``). An empty
    address is not: Streamlit then listens on every interface. Any other host
    name is not either: it is not resolved here, and it could name a public
    interface, so it is treated as exposed.
    """
    host = (address or "").strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])  # drop an IPv6 zone id (fe80::1%eth0)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


@dataclass(frozen=True)
class AccessPolicy:
    """The login method in force and whether the app is open to a network without one."""

    method: LoginMethod
    exposed_without_login: bool


def decide_access(*, mode: AuthMode, password_set: bool, oidc_configured: bool,
                  listen_address: str | None) -> AccessPolicy:
    """Pick the login method and say whether the exposure warning applies.

    ``auto`` uses OIDC when an ``[auth]`` section is configured, else the
    password when one is set, else no login. An explicit ``password`` or
    ``oidc`` mode without what it needs raises :class:`ConfigError`, so the app
    refuses to open rather than falling back to no login.
    """
    if mode == "oidc" and not oidc_configured:
        raise ConfigError("auth_mode is 'oidc' but .streamlit/secrets.toml has no [auth] section; "
                          "add one (see docs/setup.md, 'Deploying on a network') or choose another auth_mode.")
    if mode == "password" and not password_set:
        raise ConfigError("auth_mode is 'password' but no password is set: set RAG_AUTH_PASSWORD "
                          "(environment or .streamlit/secrets.toml) or choose another auth_mode.")
    method: LoginMethod
    if mode == "auto":
        method = "oidc" if oidc_configured else "password" if password_set else "none"
    else:
        method = mode
    return AccessPolicy(method, method == "none" and not is_loopback_address(listen_address))


def password_matches(candidate: str, expected: str) -> bool:
    """Compare a typed password with the configured one in constant time."""
    return bool(expected) and hmac.compare_digest(candidate.encode("utf-8"), expected.encode("utf-8"))


class LoginThrottle:
    """Slows down password guessing: after ``free_attempts`` wrong passwords from one client, each
    further try waits ``base_delay`` seconds, doubling per wrong password up to ``max_delay``.

    One instance serves the whole process (``components/resources.py``), so a new browser session
    does not reset it; the right password does, for that client. Keys are client addresses; at most
    ``max_keys`` are remembered (the oldest are forgotten first). Thread-safe.
    """

    def __init__(self, *, free_attempts: int | None = None, base_delay: float | None = None,
                 max_delay: float | None = None, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.free_attempts = LOGIN_FREE_ATTEMPTS if free_attempts is None else free_attempts
        self.base_delay = LOGIN_BASE_DELAY if base_delay is None else base_delay
        self.max_delay = LOGIN_MAX_DELAY if max_delay is None else max_delay
        self.max_keys, self.clock = max_keys, clock
        self._lock = threading.Lock()
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # key -> (wrong passwords, locked until)

    def retry_after(self, key: str) -> float:
        """Seconds before ``key`` may try a password again (0 when it may now)."""
        with self._lock:
            _, until = self._failures.get(key, (0, 0.0))
            return max(0.0, until - self.clock())

    def failed(self, key: str) -> float:
        """Count a wrong password from ``key``; return how long it must now wait (0 while attempts are free)."""
        with self._lock:
            count = self._failures.pop(key, (0, 0.0))[0] + 1
            over = count - self.free_attempts + 1  # the free_attempts-th wrong password starts the waits
            delay = min(self.max_delay, self.base_delay * 2 ** (over - 1)) if over > 0 else 0.0
            self._failures[key] = (count, self.clock() + delay)
            while len(self._failures) > self.max_keys:
                self._failures.popitem(last=False)
            return delay

    def succeeded(self, key: str) -> None:
        """The right password: forget ``key``'s wrong ones."""
        with self._lock:
            self._failures.pop(key, None)
