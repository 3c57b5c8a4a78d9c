"""URL hygiene for web ingestion: canonical URLs and an SSRF guard.

``canonical_url`` gives one spelling per page, so a re-crawl finds the document it
stored before (a page's title is its canonical URL). ``check_url`` refuses URLs
whose host resolves to an address a server should not reach on a user's behalf
(loopback, private networks, link-local, cloud metadata...) unless the host or
address is in the ``fetch_allow_hosts`` setting. The resolver is injected so tests
never touch real DNS; the fetcher re-checks every address at connect time.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from services.errors import ValidationFailed

Resolver = Callable[[str], list[str]]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_DEFAULT_PORTS = {"http": 80, "https": 443}
_TRACKING = {"gclid", "fbclid", "dclid", "msclkid", "mc_cid", "mc_eid", "yclid"}
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
_BLOCKED_NETS = [ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
    "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4",
    "::1/128", "::/128", "fc00::/7", "fe80::/10", "ff00::/8",
)]


class UnsafeURL(ValidationFailed):
    """A URL the fetcher refuses: a non-http(s) scheme or a host on a forbidden network."""


def canonical_url(url: str) -> str:
    """Lowercase scheme and host, drop default ports, fragments, tracking parameters and a trailing slash.

    The remaining query parameters are sorted. Raises :class:`UnsafeURL` for a URL
    that is not http(s) or has no host.
    """
    raw = (url or "").strip()
    if "://" not in raw and raw and not raw.startswith("/"):
        raw = "https://" + raw  # "example.com/docs" typed without a scheme
    parts = urlsplit(raw)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise UnsafeURL(f"Only http and https URLs can be fetched, not {parts.scheme or 'this'!r}: {url}")
    host = (parts.hostname or "").lower().rstrip(".")
    if not host:
        raise UnsafeURL(f"The URL has no host: {url}")
    try:
        port = parts.port
    except ValueError:
        raise UnsafeURL(f"The URL has an invalid port: {url}") from None
    netloc = f"[{host}]" if ":" in host else host
    if port and port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    path = parts.path or "/"
    if len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/") or "/"
    query = sorted(
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.lower().startswith("utm_") and k.lower() not in _TRACKING
    )
    return urlunsplit((scheme, netloc, path, urlencode(query), ""))


def system_resolver(host: str) -> list[str]:
    """Every address ``host`` resolves to (the operating system's resolver)."""
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _allowed(host: str, ip: IPAddress | None, allowed: list[str]) -> bool:
    for entry in allowed:
        entry = entry.strip().lower()
        if not entry:
            continue
        if entry == host:
            return True
        if ip is not None:
            try:
                if ip in ipaddress.ip_network(entry, strict=False):
                    return True
            except ValueError:
                continue
    return False


def blocked_reason(ip: IPAddress) -> str | None:
    """Why an address must not be fetched, or None when it is a public address."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return blocked_reason(ip.ipv4_mapped)
    if ip in _METADATA:
        return "a cloud metadata address"
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_unspecified:
        return "an unspecified address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_multicast:
        return "a multicast address"
    if ip.is_private or any(ip in net for net in _BLOCKED_NETS if net.version == ip.version):
        return "a private-network address"
    return None


def check_ip(host: str, ip_text: str, allowed: list[str]) -> None:
    """Raise :class:`UnsafeURL` unless ``ip_text`` (an address of ``host``) may be fetched."""
    try:
        ip = ipaddress.ip_address(ip_text.split("%", 1)[0])
    except ValueError:
        raise UnsafeURL(f"{host} resolved to an invalid address {ip_text!r}.") from None
    if _allowed(host, ip, allowed):
        return
    reason = blocked_reason(ip)
    if reason:
        shown = host if host == ip_text else f"{host} ({ip_text})"
        raise UnsafeURL(
            f"Refusing to fetch {shown}: it is {reason}. Add the host to fetch_allow_hosts to allow it."
        )


def check_url(url: str, *, resolver: Resolver, allowed: list[str]) -> list[str]:
    """Check a URL before fetching it; returns the addresses it may connect to.

    Raises :class:`UnsafeURL` for a non-http(s) URL, a host that does not resolve,
    or any resolved address on a forbidden network (one bad address refuses the
    whole host, so a round-robin name cannot slip an internal address through).
    """
    parts = urlsplit(canonical_url(url))
    host = (parts.hostname or "").lower()
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is None and _allowed(host, None, allowed):
        return _resolve(host, resolver)
    addresses = [host] if literal is not None else _resolve(host, resolver)
    for address in addresses:
        check_ip(host, address, allowed)
    return addresses


def _resolve(host: str, resolver: Resolver) -> list[str]:
    try:
        addresses = resolver(host)
    except (OSError, UnicodeError) as exc:
        raise UnsafeURL(f"Could not resolve {host}: {exc}") from None
    if not addresses:
        raise UnsafeURL(f"Could not resolve {host}: no addresses.")
    return addresses
