"""Ingest: paste text, upload files, read a server-side directory or a website, as a background job with live progress."""

import json
import math

import streamlit as st

from components.app_shell import serve
from components.feedback import parse_json_object, user_errors
from components.graph_repair import graph_section
from components.ingest_job import job_section, started, submit
from components.markdown_text import md_escape
from components.permissions import may
from components.pickers import collection_index, remember_collection
from components.resources import get_services
from components.schema_editor import metadata_example
from components.state import Keys
from components.url_ingest import url_tab
from services.errors import ValidationFailed
from services.ingest.parsing import SUPPORTED_SUFFIXES
from services.ingest.requests import describe_directory, directory_request, files_request, text_request
from services.metadata_schema import validate_metadata


def _quiet_metadata(text: str):
    """The metadata box as an object, or None when it does not parse (for the retry button, every second)."""
    try:
        value = json.loads(text) if text.strip() else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _metadata_for_all(schema, text: str, example: str):
    """The metadata box, parsed and checked against the schema before a text or an upload starts: every
    file of the ingest gets it, so a missing required field would fail them all."""
    metadata = parse_json_object(text, "Metadata")
    if metadata is None:
        return None
    try:
        validate_metadata(schema, metadata)
    except ValidationFailed as exc:
        st.error(md_escape(f"{exc} Type it in the metadata box above, e.g. {example}."),
                 icon=":material/error:")
        return None
    return metadata


def render() -> None:
    svc = get_services()
    st.title("Ingest")

    readable = svc.collections.list()
    collections = [c for c in readable if may(svc, c.name, "editor")]
    if readable and not collections:
        st.info("You may read these collections but not add to them: ingesting needs the editor role.",
                icon=":material/lock:")
        st.stop()
    if not collections:
        st.info("Create a collection first.", icon=":material/info:")
        st.page_link("pages/collections.py", label="Collections", icon=":material/folder_special:")
        st.stop()

    names = [c.name for c in collections]
    left, mid = st.columns([2, 1])
    collection = left.selectbox("Collection", names, key="ingest.collection", index=collection_index(svc, collections))
    remember_collection(collection)
    mode = mid.radio("Mode", ["ingest", "reingest"], horizontal=True, key="ingest.mode",
                     help="ingest refuses a title or content already in the collection; "
                          "reingest replaces an existing document's content and chunks in one transaction.")
    coll = next(c for c in collections if c.name == collection)
    fields = coll.metadata_schema.get("custom", {})
    required = {k: v for k, v in fields.items() if v.get("required")}
    if required:
        st.info(md_escape(f"Every document in {coll.name!r} needs: "
                          + ", ".join(f"{k} ({v['type']})" for k, v in required.items())
                          + ". Give it in the metadata box below (it applies to every file of this ingest), or in a "
                            "metadata.csv beside a directory. Change the schema on the Collections page."),
                icon=":material/rule:")
    elif fields:
        st.caption(md_escape("Optional metadata fields: " + ", ".join(f"{k} ({v['type']})" for k, v in fields.items())))
    example = metadata_example(required or fields)
    metadata_text = st.text_input("Metadata for these documents (JSON object)", key="ingest.metadata",
                                  placeholder=example if fields else '{"source": "archive"}')

    text_tab, upload_tab, dir_tab, url_tab_ = st.tabs(["Text", "Upload files", "Directory on the server", "URL"])
    with text_tab:
        with st.form("ingest.text_form"):
            title = st.text_input("Title")
            body = st.text_area("Text", height=200)
            if st.form_submit_button("Ingest text", type="primary"):
                metadata = _metadata_for_all(coll.metadata_schema, metadata_text, example)
                if metadata is not None:
                    submit(svc, lambda: text_request(collection, title=title, text=body, metadata=metadata, mode=mode))
    with upload_tab:
        nonce = st.session_state[Keys.INGEST_UPLOAD_NONCE]
        limit_mb = math.ceil(svc.settings.max_file_bytes / (1024 * 1024))
        uploads = st.file_uploader("Files", type=[s.lstrip(".") for s in SUPPORTED_SUFFIXES],
                                   accept_multiple_files=True, key=f"ingest.uploads.{nonce}", max_upload_size=limit_mb)
        password = ""
        if any(u.name.lower().endswith(".pdf") for u in uploads or []):
            password = st.text_input("PDF password (only for an encrypted PDF; used for this upload, never stored)",
                                     type="password", key=f"ingest.pdf_password.{nonce}")
        if st.button("Ingest files", type="primary", disabled=not uploads, key="ingest.upload_go"):
            metadata = _metadata_for_all(coll.metadata_schema, metadata_text, example)
            if metadata is not None:
                files = [(u.name, u.getvalue()) for u in uploads]
                submit(svc, lambda: files_request(collection, files, settings=svc.settings, metadata=metadata, mode=mode,
                                                  password=password or None), clears_uploads=True)
    with dir_tab:
        path = st.text_input("Directory path on the server", key="ingest.dir_path", placeholder="/srv/corpus")
        c1, c2, c3 = st.columns([2, 2, 1])
        include = c1.text_input("Include globs (comma-separated)", value="*", key="ingest.include")
        exclude = c2.text_input("Exclude globs", value="", key="ingest.exclude")
        recursive = c3.checkbox("Recursive", value=True, key="ingest.recursive")
        globs = ([g for g in include.split(",")], [g for g in exclude.split(",")])
        st.caption("A metadata.csv in the folder (a 'file' column plus one column per field) gives per-file metadata; "
                   "its 'title' column, if any, titles each document.")
        template = st.text_input("Title from metadata (optional)", key="ingest.title_template",
                                 placeholder="{president}, {year}",
                                 help="Fields in braces, filled from each file's metadata; empty: the file's path.")
        template = template.strip() or None
        p1, p2 = st.columns(2)
        if p1.button("Preview", key="ingest.dir_preview", disabled=not path.strip()):
            with user_errors("Could not read the directory"):
                info = describe_directory(path, settings=svc.settings, include=globs[0], exclude=globs[1], recursive=recursive,
                                          title_template=template)
                st.write(f"{info['matched']} files match, {info['supported']} of a supported type"
                         + (" · metadata.csv found" if info["has_sidecar"] else ""))
                st.code("\n".join(info["sample"]) or "(none)", language=None)
                if info["matched"] > len(info["sample"]):
                    st.caption(f"Listing the first {len(info['sample'])} of {info['matched']} files; "
                               f"{info['matched'] - len(info['sample'])} more are not listed.")
        if p2.button("Ingest directory", type="primary", key="ingest.dir_go", disabled=not path.strip()):
            metadata = parse_json_object(metadata_text, "Metadata")
            if metadata is not None:
                submit(svc, lambda: directory_request(collection, path, settings=svc.settings, include=globs[0],
                                                      exclude=globs[1], recursive=recursive, metadata=metadata, mode=mode,
                                                      title_template=template))

    with url_tab_:
        url_tab(svc, collection, mode, started)

    st.subheader("Progress")
    job_section(svc, lambda: _quiet_metadata(metadata_text))
    if svc.graph is not None:
        graph_section(svc, coll)


serve(render)
