"""Canonical URLs and the SSRF guard, decided with an injected resolver (no DNS, no packets)."""

from __future__ import annotations

import pytest

from services.errors import ValidationFailed
from services.settings import Settings
from services.web.fetch import Fetcher
from services.web.url_safety import UnsafeURL, canonical_url, check_url


def fake_dns(host: str) -> list[str]:
    table = {"internal.example": ["10.0.0.1"], "metadata.example": ["169.254.169.254"],
             "public.example": ["93.184.216.34"], "mixed.example": ["93.184.216.34", "127.0.0.1"],
             "v6meta.example": ["fd00:ec2::254"]}
    if host not in table:
        raise OSError("unknown host")
    return table[host]


def test_canonical_url_normalises():
    assert canonical_url("HTTP://Example.COM:80/Docs/?b=2&utm_source=x&a=1&gclid=9#frag") == \
        "http://example.com/Docs?a=1&b=2"
    assert canonical_url("https://example.com:443") == "https://example.com/"
    assert canonical_url("https://example.com:8443/a/") == "https://example.com:8443/a"
    assert canonical_url("https://example.com/?fbclid=1") == "https://example.com/"


@pytest.mark.parametrize("url", ["ftp://example.com/x", "file:///etc/passwd", "javascript:alert(1)"])
def test_non_http_schemes_are_refused(url):
    with pytest.raises(UnsafeURL):
        check_url(url, resolver=fake_dns, allowed=[])


@pytest.mark.parametrize("url", [
    "http://127.0.0.1/", "http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/",
    "http://internal.example/", "http://metadata.example/", "http://mixed.example/", "http://[::1]/",
    "http://v6meta.example/", "http://192.168.1.1/", "http://172.16.0.5/", "http://0.0.0.0/", "http://224.0.0.1/",
])
def test_forbidden_addresses_are_refused(url):
    with pytest.raises(UnsafeURL) as err:
        check_url(url, resolver=fake_dns, allowed=[])
    assert isinstance(err.value, ValidationFailed)
    assert "Refusing to fetch" in str(err.value) and "fetch_allow_hosts" in str(err.value)


def test_metadata_address_is_named():
    with pytest.raises(UnsafeURL, match="metadata"):
        check_url("http://metadata.example/", resolver=fake_dns, allowed=[])


def test_public_address_passes():
    assert check_url("https://public.example/a", resolver=fake_dns, allowed=[]) == ["93.184.216.34"]


@pytest.mark.parametrize(("url", "allowed"), [
    ("http://127.0.0.1:8000/", ["127.0.0.1"]),
    ("http://10.0.0.1/", ["10.0.0.0/8"]),
    ("http://internal.example/", ["internal.example"]),
    ("http://internal.example/", ["10.0.0.1"]),
    ("http://169.254.169.254/", ["169.254.169.254"]),
])
def test_allow_list_permits(url, allowed):
    assert check_url(url, resolver=fake_dns, allowed=allowed)


def test_unresolvable_host_is_refused():
    with pytest.raises(UnsafeURL, match="resolve"):
        check_url("http://nowhere.example/", resolver=fake_dns, allowed=[])


def test_fetcher_refuses_without_sending_anything():
    """The fetcher reports the refusal as a reason; the resolver sends every name to loopback (never outside)."""
    settings = Settings(fetch_allow_hosts=[], fetch_delay=0)
    with Fetcher(settings=settings, resolver=lambda host: ["127.0.0.1"]) as fetcher:
        result = fetcher.fetch("http://rebind.example/page", robots=False)
    assert not result.ok and "loopback" in (result.reason or "")


def test_connect_time_guard_refuses_even_when_the_url_check_is_bypassed():
    """The network backend checks the address it connects to (DNS-rebinding defence)."""
    import httpx

    settings = Settings(fetch_allow_hosts=[], fetch_delay=0)
    with Fetcher(settings=settings, resolver=lambda host: ["127.0.0.1"]) as fetcher:
        with pytest.raises(httpx.ConnectError, match="loopback"):
            fetcher.client.get("http://rebind.example/")
