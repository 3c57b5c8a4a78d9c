"""Every ``st.cache_resource`` of the app lives here."""

from __future__ import annotations

import streamlit as st

from services.access import LoginThrottle
from services.container import Services, build_services
from services.errors import WorkbenchError
from services.redaction import scrub


@st.cache_resource(show_spinner="Starting the stores and loading the embedding model…")
def _services() -> Services:
    return build_services(defer_model=True)  # Home draws while the model finishes loading


def get_services() -> Services:
    """The process-wide services; on a startup failure, show how to fix it and stop the page."""
    try:
        return _services()
    except WorkbenchError as exc:
        st.error(scrub(f"The workbench could not start: {exc}"), icon=":material/error:")
        st.stop()
        raise  # unreachable: st.stop() raises


@st.cache_resource(show_spinner=False)
def login_throttle() -> LoginThrottle:
    """Wrong-password counts per client address, shared by every browser session of this server."""
    return LoginThrottle()
