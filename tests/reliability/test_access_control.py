"""Access control: the login gate on every page (password and OIDC), log out, and the open-network banner.

The gate runs in the real app under AppTest, on the session's real stores once
a page is let through. The decisions behind it (what counts as loopback, which
login applies) are pure functions, tested exhaustively here too.
"""

from __future__ import annotations

import time

import pytest
import streamlit as st
from streamlit import config as st_config
from streamlit.testing.v1 import AppTest

import services.access
from components.auth import LOGIN_TITLE, WRONG_PASSWORD
from services.access import AccessPolicy, LoginThrottle, decide_access, is_loopback_address, password_matches
from services.errors import ConfigError
from services.redaction import protect
from services.settings import get_settings
from tests.utils.app import HOME
from tests.utils.rendered import element_types, log_in, rendered_text

PAGES = ["home", "collections", "ingest", "search", "documents", "graph", "timeline", "ask", "memory"]
PASSWORD = "correct-horse-battery-staple"
LOGIN_FORM = ["title", "caption", "text_input", "button"]
BANNER = "asks nobody to log in"


@pytest.fixture
def app_env(monkeypatch, services):
    """``app_env(NAME=value, ...)``: run the app with these environment settings; undone afterwards."""

    def apply(**env: str) -> None:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()

    from tests.utils.app import fresh_app_caches

    with fresh_app_caches(monkeypatch):
        yield apply
    monkeypatch.undo()
    get_settings.cache_clear()
    protect(get_settings())
    st.cache_resource.clear()


@pytest.fixture
def listen_on():
    """``listen_on(address)``: the address Streamlit reports it listens on; restored afterwards."""
    original = st_config.get_option("server.address")
    yield lambda address: st_config.set_option("server.address", address)
    st_config.set_option("server.address", original)


def _app() -> AppTest:
    at = AppTest.from_file(HOME, default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    return at


def _titles(at: AppTest) -> list[str]:
    return [t.value for t in at.title]


def _on_home_page(at: AppTest) -> bool:
    """The Home page itself (its title is the login's too), not the login form."""
    return "Recent ingestion jobs" in [s.value for s in at.subheader] and "text_input" not in element_types(at)


# -- the password gate ----------------------------------------------------------------------------


def test_every_page_shows_only_the_login_form_until_the_password_is_given(app_env):
    app_env(RAG_AUTH_PASSWORD=PASSWORD)
    at = _app()
    for page in PAGES:
        if page != "home":
            at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, (page, at.exception)
        assert element_types(at) == LOGIN_FORM, (page, element_types(at))
        assert _titles(at) == [LOGIN_TITLE]
        assert element_types(at, where="sidebar") == []
        assert "type: PASSWORD" in str(at.text_input(key="auth.password").proto)  # typed characters are hidden
    assert "auth.signed_in" not in at.session_state or at.session_state["auth.signed_in"] is False


def test_wrong_password_is_refused_the_right_one_opens_the_page_and_log_out_closes_it(app_env):
    app_env(RAG_AUTH_PASSWORD=PASSWORD)
    at = _app()
    at.switch_page("pages/search.py").run()
    for wrong in ("", "correct-horse-battery", PASSWORD.upper(), PASSWORD + " "):
        log_in(at, wrong)
        assert not at.exception, at.exception
        assert element_types(at) == [*LOGIN_FORM, "error"], element_types(at)
        assert [e.value for e in at.error] == [WRONG_PASSWORD]
        assert "Search" not in _titles(at)

    log_in(at, PASSWORD)
    assert not at.exception, at.exception
    assert _titles(at) == ["Search"]
    assert not at.error
    assert at.session_state["auth.signed_in"] is True
    logout = [b for b in at.sidebar.button if b.label == "Log out"]
    assert len(logout) == 1

    at.switch_page("pages/collections.py").run()  # signed in for the whole session
    assert _titles(at) == ["Collections"]

    next(b for b in at.sidebar.button if b.label == "Log out").click().run()
    assert not at.exception, at.exception
    assert element_types(at) == LOGIN_FORM
    assert at.session_state["auth.signed_in"] is False
    at.switch_page("pages/documents.py").run()
    assert element_types(at) == LOGIN_FORM and _titles(at) == [LOGIN_TITLE]


def test_repeated_wrong_passwords_lock_the_client_out_across_sessions(app_env, monkeypatch):
    monkeypatch.setattr(services.access, "LOGIN_FREE_ATTEMPTS", 3)
    monkeypatch.setattr(services.access, "LOGIN_BASE_DELAY", 2.0)
    app_env(RAG_AUTH_PASSWORD=PASSWORD)
    at = _app()
    for _ in range(2):
        log_in(at, "guess")
        assert [e.value for e in at.error] == [WRONG_PASSWORD]
    log_in(at, "guess")  # the third wrong password starts the wait
    assert at.error[0].value.startswith(WRONG_PASSWORD + " Too many wrong passwords"), at.error[0].value
    assert "Try again in 2 s." in at.error[0].value

    log_in(at, PASSWORD)  # even the right password is not compared while locked out
    assert "Too many wrong passwords" in at.error[0].value and not _on_home_page(at)
    other = _app()  # a new browser session from the same address is locked out too
    log_in(other, PASSWORD)
    assert "Too many wrong passwords" in other.error[0].value and not _on_home_page(other)
    assert "auth.signed_in" not in other.session_state or other.session_state["auth.signed_in"] is False

    time.sleep(2.1)
    log_in(other, PASSWORD)
    assert not other.error and _on_home_page(other)
    log_in(at, "guess")  # the right password cleared the count: one wrong guess is free again
    assert [e.value for e in at.error] == [WRONG_PASSWORD]


def test_login_throttle_waits_double_up_to_the_cap_and_are_per_client():
    now = [1000.0]
    throttle = LoginThrottle(free_attempts=3, base_delay=30, max_delay=100, max_keys=2, clock=lambda: now[0])
    assert [throttle.failed("a") for _ in range(2)] == [0, 0]
    assert throttle.retry_after("a") == 0
    assert throttle.failed("a") == 30 and throttle.retry_after("a") == 30
    assert throttle.retry_after("b") == 0  # another client is not slowed down
    now[0] += 10
    assert throttle.retry_after("a") == 20
    now[0] += 20
    assert throttle.retry_after("a") == 0
    assert throttle.failed("a") == 60
    assert throttle.failed("a") == 100  # capped
    throttle.succeeded("a")
    assert throttle.retry_after("a") == 0 and throttle.failed("a") == 0
    for key in ("b", "c", "d"):  # only max_keys clients are remembered, the oldest forgotten first
        throttle.failed(key)
    assert throttle.failed("a") == 0  # "a" was forgotten: its count restarted


def test_password_mode_without_a_password_stays_closed(app_env):
    app_env(RAG_AUTH_MODE="password")
    at = _app()
    assert element_types(at) == ["error"], element_types(at)
    assert "no password is set" in at.error[0].value and "RAG_AUTH_PASSWORD" in at.error[0].value


def test_auth_mode_none_turns_a_configured_password_off(app_env, listen_on):
    listen_on("127.0.0.1")
    app_env(RAG_AUTH_PASSWORD=PASSWORD, RAG_AUTH_MODE="none")
    at = _app()
    assert _on_home_page(at)
    assert not [w for w in at.warning if BANNER in w.value]


# -- OIDC (st.login) ------------------------------------------------------------------------------

OIDC = {
    "redirect_uri": "http://localhost:8501/oauth2callback",
    "cookie_secret": "cookie-secret-5b0e7d41c2",
    "client_id": "workbench-client",
    "client_secret": "client-secret-9a7c3e11f0",
    "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration",
}


def test_oidc_gates_on_st_user_and_logs_out(app_env):
    app_env(RAG_AUTH_PASSWORD=PASSWORD)  # an [auth] section wins over the password in auto mode
    at = AppTest.from_file(HOME, default_timeout=120)
    at.secrets["auth"] = dict(OIDC)
    at.user = {"is_logged_in": False}
    at.run()
    assert not at.exception, at.exception
    assert element_types(at) == ["title", "caption", "button"], element_types(at)
    assert [b.label for b in at.button] == ["Log in"]
    at.switch_page("pages/memory.py").run()
    assert _titles(at) == [LOGIN_TITLE]

    at.user = {"is_logged_in": True, "name": "Ada Lovelace", "email": "ada@example.org"}
    at.run()
    assert not at.exception, at.exception
    assert _titles(at) == ["Memory"]
    assert any("Signed in as Ada Lovelace" in c.value for c in at.sidebar.caption)
    text = rendered_text(at)
    assert OIDC["client_secret"] not in text and OIDC["cookie_secret"] not in text

    next(b for b in at.sidebar.button if b.label == "Log out").click().run()  # st.logout()
    assert not at.exception, at.exception
    assert at.user == {"is_logged_in": False}
    assert _titles(at) == [LOGIN_TITLE] and [b.label for b in at.button] == ["Log in"]


def test_oidc_mode_without_an_auth_section_stays_closed(app_env):
    app_env(RAG_AUTH_MODE="oidc")
    at = _app()
    assert element_types(at) == ["error"] and "[auth]" in at.error[0].value


# -- the banner for an app open to the network ----------------------------------------------------


@pytest.mark.parametrize(("address", "banner"), [("0.0.0.0", True), ("", True), ("127.0.0.1", False)])
def test_banner_when_listening_beyond_loopback_without_login(app_env, listen_on, address, banner):
    listen_on(address)
    app_env()
    at = _app()
    shown = [w.value for w in at.warning if BANNER in w.value]
    assert bool(shown) is banner, shown
    assert _on_home_page(at)  # the page itself still runs
    if banner:
        assert (address or "every network interface") in shown[0]
        at.switch_page("pages/graph.py").run()  # on every page
        assert [w for w in at.warning if BANNER in w.value] and _titles(at) == ["Graph"]


def test_no_banner_when_a_login_guards_an_open_address(app_env, listen_on):
    listen_on("0.0.0.0")
    app_env(RAG_AUTH_PASSWORD=PASSWORD)
    at = _app()
    assert element_types(at) == LOGIN_FORM
    log_in(at, PASSWORD)  # on the first page shown, as a browser's first visit would
    assert not at.exception, at.exception
    assert _on_home_page(at)
    assert not [w for w in at.warning if BANNER in w.value]


# -- the decisions, as pure functions -------------------------------------------------------------

LOOPBACK = ["127.0.0.1", "127.0.0.53", "127.255.255.254", "localhost", "LOCALHOST", "localhost.", "app.localhost",
            "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", " 127.0.0.1 "]
EXPOSED = [None, "", "   ", "0.0.0.0", "::", "[::]", "192.168.1.10", "10.0.0.5", "172.16.0.1", "8.8.8.8",
           "128.0.0.1", "126.255.255.255", "::ffff:10.0.0.1", "fe80::1%eth0", "2001:db8::1", "example.com",
           "my-laptop", "localhost.example.com", "evil-localhost", "127.0.0.1.nip.io", "127.0.0.1:8501"]


@pytest.mark.parametrize("address", LOOPBACK)
def test_loopback_addresses(address):
    assert is_loopback_address(address) is True


@pytest.mark.parametrize("address", EXPOSED)
def test_addresses_that_are_not_loopback(address):
    assert is_loopback_address(address) is False


@pytest.mark.parametrize(("mode", "password", "oidc", "address", "expected"), [
    ("auto", False, False, "127.0.0.1", AccessPolicy("none", False)),
    ("auto", False, False, "localhost", AccessPolicy("none", False)),
    ("auto", False, False, "0.0.0.0", AccessPolicy("none", True)),
    ("auto", False, False, None, AccessPolicy("none", True)),
    ("auto", True, False, "0.0.0.0", AccessPolicy("password", False)),
    ("auto", True, False, "127.0.0.1", AccessPolicy("password", False)),
    ("auto", False, True, "0.0.0.0", AccessPolicy("oidc", False)),
    ("auto", True, True, None, AccessPolicy("oidc", False)),
    ("none", True, True, "0.0.0.0", AccessPolicy("none", True)),
    ("none", False, False, "::1", AccessPolicy("none", False)),
    ("password", True, True, "0.0.0.0", AccessPolicy("password", False)),
    ("oidc", True, True, "10.1.2.3", AccessPolicy("oidc", False)),
])
def test_decide_access(mode, password, oidc, address, expected):
    assert decide_access(mode=mode, password_set=password, oidc_configured=oidc, listen_address=address) == expected


@pytest.mark.parametrize(("mode", "text"), [("password", "RAG_AUTH_PASSWORD"), ("oidc", "[auth]")])
def test_an_explicit_login_without_its_configuration_is_an_error(mode, text):
    with pytest.raises(ConfigError, match=text.replace("[", r"\[").replace("]", r"\]")):
        decide_access(mode=mode, password_set=False, oidc_configured=False, listen_address="127.0.0.1")


def test_password_matches():
    assert password_matches(PASSWORD, PASSWORD)
    assert password_matches("pässwörd ✓", "pässwörd ✓")
    for wrong in ("", PASSWORD[:-1], PASSWORD + "x", PASSWORD.upper(), " " + PASSWORD):
        assert not password_matches(wrong, PASSWORD)
    assert not password_matches("", "")  # no password configured never lets anyone in
