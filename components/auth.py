"""The login in front of every page, the Log out button, and the banner for an open network app.

``components.app_shell.main`` gets the page to run from :func:`access_gate`, and
every page is drawn through it (a deep link too: see ``components/app_shell.py``),
so nothing of a page is drawn before the visitor is signed in. The decisions are
in ``services/access.py``; this module only renders them.
"""

from __future__ import annotations

import math
import uuid

import streamlit as st
from pydantic import ValidationError
from streamlit.navigation.page import StreamlitPage

from components.resources import base_services, login_throttle, session_principal
from components.state import Keys
from services.access import AccessPolicy, decide_access, password_matches
from services.authz.principal import Principal
from services.errors import WorkbenchError
from services.redaction import protect
from services.settings import Settings, get_settings

LOGIN_TITLE = "RAG Memory Workbench"
WRONG_PASSWORD = "Wrong password."
WRONG_LOGIN = "Wrong user name or password."
TOO_MANY = "Too many wrong passwords from your address. Try again in {seconds} s."


def access_gate(pages: list[StreamlitPage]) -> StreamlitPage | None:
    """Build the navigation behind the login; the page to run, or None while the login is drawn instead.

    Also registers the settings' secrets for redaction (messages and logs), and
    shows the exposure warning when nobody has to log in but the server listens
    beyond this machine. The navigation is built before the login form so that
    the form's widgets belong to the requested page, as a page's own would, and
    a submit is not lost to a page change.
    """
    settings = _settings_or_stop()
    protect(settings)
    if users_configured():  # users and roles (docs/access.md) replace the shared password and open access
        page = st.navigation(pages, position="hidden")
        return page if _user_gate() else None
    policy = _policy_or_stop(settings)
    signed_in = {"none": True, "password": bool(st.session_state.get(Keys.AUTH_SIGNED_IN)),
                 "oidc": bool(st.user.get("is_logged_in"))}[policy.method]
    page = st.navigation(pages, position="hidden")  # the app shell draws the links once the visitor is in
    if policy.method == "password":
        expected = settings.auth_password.get_secret_value() if settings.auth_password else ""
        return page if _password_gate(signed_in, expected) else None
    if policy.method == "oidc":
        return page if _oidc_gate(signed_in) else None
    if policy.exposed_without_login:
        address = st.get_option("server.address") or "every network interface"
        st.warning(f"This app listens on {address} and asks nobody to log in: anyone who can reach it can read "
                   "and change every collection. Set RAG_AUTH_PASSWORD or configure OIDC login "
                   "(docs/setup.md, 'Deploying on a network'), or listen on 127.0.0.1.", icon=":material/lock_open:")
    return page


def _settings_or_stop() -> Settings:
    try:
        return get_settings()
    except ValidationError as exc:  # name the field and the rule, never the value given
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}" for e in exc.errors())
        st.error(f"Invalid settings: {problems}", icon=":material/error:")
        st.stop()
        raise  # unreachable: st.stop() raises


def _oidc_configured() -> bool:
    """True when the secrets have an ``[auth]`` section (Streamlit's OIDC configuration)."""
    return bool(st.secrets.load_if_toml_exists() and "auth" in st.secrets)


def _policy_or_stop(settings: Settings) -> AccessPolicy:
    try:
        return decide_access(
            mode=settings.auth_mode,
            password_set=bool(settings.auth_password and settings.auth_password.get_secret_value()),
            oidc_configured=_oidc_configured(),
            listen_address=st.get_option("server.address"),
        )
    except WorkbenchError as exc:  # a login was asked for but cannot work: stay closed
        st.error(str(exc), icon=":material/error:")
        st.stop()
        raise  # unreachable: st.stop() raises


def _sign_out() -> None:
    st.session_state[Keys.AUTH_SIGNED_IN] = False


def _password_gate(signed_in: bool, expected: str) -> bool:
    if signed_in:
        st.sidebar.button("Log out", key="auth.logout", icon=":material/logout:", on_click=_sign_out)
        return True
    st.title(LOGIN_TITLE)
    st.caption("Enter the password to continue.")
    with st.form("auth.login", clear_on_submit=True):
        typed = st.text_input("Password", type="password", key="auth.password")
        submitted = st.form_submit_button("Log in", type="primary")
    if submitted:
        throttle, client = login_throttle(), _client_address()
        wait = throttle.retry_after(client)
        if wait > 0:  # not even compared: a guess made while locked out tells nothing
            st.error(TOO_MANY.format(seconds=math.ceil(wait)), icon=":material/timer:")
            return False
        if password_matches(typed, expected):
            throttle.succeeded(client)
            st.session_state[Keys.AUTH_SIGNED_IN] = True
            st.rerun()
        wait = throttle.failed(client)
        st.error(WRONG_PASSWORD + (" " + TOO_MANY.format(seconds=math.ceil(wait)) if wait else ""),
                 icon=":material/error:")
    return False


def users_configured() -> bool:
    return base_services().access.users_exist()


def current_principal() -> Principal | None:
    return session_principal(base_services())


def _sign_out_user() -> None:
    st.session_state[Keys.AUTH_USER] = ""
    st.session_state[Keys.AUTH_VISITOR] = ""


def _user_gate() -> bool:
    """Sign in with a user name and password (or, when collections are open to visitors, as a visitor)."""
    who = current_principal()
    if who is not None:
        label = "a visitor (read-only)" if who.kind == "anonymous" else who.name + (" (admin)" if who.admin else "")
        st.sidebar.caption(f"Signed in as {label}")
        st.sidebar.button("Log out", key="auth.logout", icon=":material/logout:", on_click=_sign_out_user)
        return True
    st.title(LOGIN_TITLE)
    st.caption("Log in with your user name and password.")
    with st.form("auth.user_login", clear_on_submit=True):
        name = st.text_input("User name", key="auth.user_name")
        typed = st.text_input("Password", type="password", key="auth.password")
        submitted = st.form_submit_button("Log in", type="primary")
    if submitted:
        throttle, client = login_throttle(), _client_address()
        wait = throttle.retry_after(client)
        if wait > 0:
            st.error(TOO_MANY.format(seconds=math.ceil(wait)), icon=":material/timer:")
            return False
        principal = base_services().access.authenticate(name, typed)
        if principal is not None:
            throttle.succeeded(client)
            st.session_state[Keys.AUTH_USER] = principal.name
            st.rerun()
        wait = throttle.failed(client)
        st.error(WRONG_LOGIN + (" " + TOO_MANY.format(seconds=math.ceil(wait)) if wait else ""),
                 icon=":material/error:")
    if base_services().access.anonymous_allowed():
        st.divider()
        if st.button("Continue as a visitor (read-only)", key="auth.visitor", icon=":material/visibility:"):
            st.session_state[Keys.AUTH_VISITOR] = uuid.uuid4().hex
            st.rerun()
    return False


def _client_address() -> str:
    """The visitor's address ("local" for localhost, where Streamlit gives none, and under AppTest)."""
    address = st.context.ip_address
    return address if isinstance(address, str) and address else "local"


def _oidc_gate(signed_in: bool) -> bool:
    from streamlit.errors import StreamlitAPIException

    if signed_in:
        who = st.user.get("name") or st.user.get("email")
        if who:
            st.sidebar.caption(f"Signed in as {who}")
        st.sidebar.button("Log out", key="auth.logout", icon=":material/logout:", on_click=st.logout)
        return True
    st.title(LOGIN_TITLE)
    st.caption("Log in with your organisation's account to continue.")
    if st.button("Log in", key="auth.oidc_login", type="primary", icon=":material/login:"):
        try:
            st.login()  # redirects to the identity provider configured in [auth]
        except StreamlitAPIException as exc:  # Authlib missing, or [auth] incomplete: names keys, not values
            st.error(f"The login is not set up correctly: {exc}", icon=":material/error:")
    return False
