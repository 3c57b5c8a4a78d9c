"""Turn domain errors into inline messages; never show a traceback to a user."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from components.markdown_text import md_escape
from services.errors import WorkbenchError
from services.metadata_schema import json_problem, refuse_json_constant
from services.redaction import scrub

log = logging.getLogger(__name__)


@contextmanager
def user_errors(action: str = "That did not work") -> Iterator[None]:
    """Show a WorkbenchError as ``st.error``; log anything else and show a short message."""
    try:
        yield
    except WorkbenchError as exc:
        st.error(md_escape(scrub(str(exc))), icon=":material/error:")  # messages quote user text
    except Exception as exc:  # a bug: keep the page alive, keep the traceback in the log only
        log.exception("%s", action)
        st.error(f"{action}: unexpected {exc.__class__.__name__}. The details are in the server log.",
                 icon=":material/error:")


def parse_json_object(text: str, what: str) -> dict[str, Any] | None:
    """Parse a JSON object typed by a user; show an inline error and return None if it is not one."""
    if not (text or "").strip():
        return {}
    try:
        value = json.loads(text, parse_constant=refuse_json_constant)
    except json.JSONDecodeError as exc:
        st.error(f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}).",
                 icon=":material/error:")
        return None
    except (RecursionError, ValueError) as exc:  # nested thousands deep, or NaN/Infinity
        st.error(f"{what} is not valid JSON: {json_problem(exc)}", icon=":material/error:")
        return None
    if not isinstance(value, dict):
        st.error(f"{what} must be a JSON object, like {{\"year\": 1990}}.", icon=":material/error:")
        return None
    return value
