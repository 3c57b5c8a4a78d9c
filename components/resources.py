"""Every ``st.cache_resource`` of the app lives here."""

from __future__ import annotations

import streamlit as st

from components.state import Keys
from services.access import LoginThrottle
from services.authz.principal import Principal
from services.container import Services, build_services
from services.errors import WorkbenchError
from services.redaction import scrub


@st.cache_resource(show_spinner="Starting the stores…")
def _services() -> Services:
    return build_services()  # the model loads later: see start_loading_model


def get_services() -> Services:
    """The services as this browser session may use them: the process-wide container while no user exists
    (today's open app), else a view of it checked for the signed-in user (services/authz/view.py)."""
    services = base_services()
    if not services.access.users_exist():
        return services
    who = session_principal(services) or Principal.anonymous("")  # the gate let nobody in: the least rights
    return services.view(who)  # type: ignore[return-value]  # the same names the pages call, each checked


def session_principal(services: Services) -> Principal | None:
    """Who this browser session is signed in as (components/auth.py sets it), read again from the database
    at each run so a removed user is signed out at once; None while nobody is signed in."""
    name, visitor = st.session_state.get(Keys.AUTH_USER), st.session_state.get(Keys.AUTH_VISITOR)
    if name:
        try:
            return services.access.principal_for_user(name)
        except WorkbenchError:
            st.session_state[Keys.AUTH_USER] = ""
            return None
    return Principal.anonymous(visitor) if visitor else None


def base_services() -> Services:
    """The process-wide services; on a startup failure, show how to fix it and stop the page."""
    try:
        return _services()
    except WorkbenchError as exc:
        st.error(scrub(f"The workbench could not start: {exc}"), icon=":material/error:")
        st.stop()
        raise  # unreachable: st.stop() raises


def start_loading_model() -> None:
    """Load the embedding model in a background thread (once per process): called once a page whose
    actions embed passages has been drawn (components/app_shell.py), so that page never waits for the
    model's imports (seconds of CPU) and by the time someone has picked files the model is usually there.
    Searches never wait for it: queries are embedded without it."""
    try:
        _services().start_loading_model()
    except WorkbenchError:
        pass  # the stores did not start: the page has said so


def start_upgrade() -> None:
    """Once per process, after the first page is drawn: the background upgrade job, if data needs it."""
    try:
        _upgrade_started()
    except WorkbenchError:
        pass  # the stores did not start: the page has said so


@st.cache_resource(show_spinner=False)
def _upgrade_started() -> int | None:
    """Once per process: derive the BM25 and walk-graph data of rows stored by an older version, as a
    background job (listed with the ingestion jobs); None when nothing was pending."""
    return _services().start_upgrade()


@st.cache_resource(show_spinner=False)
def login_throttle() -> LoginThrottle:
    """Wrong-password counts per client address, shared by every browser session of this server."""
    return LoginThrottle()
