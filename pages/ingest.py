"""Ingest: paste text, upload files, read a server-side directory or a website, as a background job with live progress."""

import streamlit as st

from components.app_shell import serve
from components.graph_repair import graph_section
from components.ingest_job import job_section, started
from components.ingest_sources import (
    Target,
    directory_tab,
    metadata_box,
    pick_editable_collection,
    quiet_metadata,
    text_tab,
    upload_tab,
)
from components.resources import get_services
from components.url_ingest import url_tab


def render() -> None:
    svc = get_services()
    st.title("Ingest")

    left, mid = st.columns([2, 1])
    coll = pick_editable_collection(svc, container=left)
    mode = mid.radio("Mode", ["ingest", "reingest"], horizontal=True, key="ingest.mode",
                     help="ingest refuses a title or content already in the collection; "
                          "reingest replaces an existing document's content and chunks in one transaction.")
    metadata_text, example = metadata_box(coll)
    target = Target(coll, mode, metadata_text, example)

    text, upload, directory, url = st.tabs(["Text", "Upload files", "Directory on the server", "URL"])
    with text:
        text_tab(svc, target)
    with upload:
        upload_tab(svc, target)
    with directory:
        directory_tab(svc, target)
    with url:
        url_tab(svc, coll.name, mode, started)

    st.subheader("Progress")
    job_section(svc, lambda: quiet_metadata(metadata_text))
    if svc.graph is not None:
        graph_section(svc, coll)


serve(render)
