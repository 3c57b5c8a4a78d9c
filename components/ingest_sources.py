"""The Ingest page's parts: the collection to add to, the metadata box every file of an ingest gets, and the
Text, Upload and Directory tabs (the URL tab is components/url_ingest.py). Keys start with ``ingest.``."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import streamlit as st

from components.feedback import parse_json_object, user_errors
from components.ingest_job import submit
from components.markdown_text import md_escape
from components.permissions import may
from components.pickers import collection_index, remember_collection
from components.schema_editor import metadata_example
from components.state import Keys
from services.collections import Collection
from services.container import Services
from services.errors import ValidationFailed
from services.ingest.parsing import SUPPORTED_SUFFIXES
from services.ingest.requests import describe_directory, directory_request, files_request, text_request
from services.metadata_schema import validate_metadata


@dataclass(frozen=True)
class Target:
    """Where an ingest goes and what it carries: the collection, the mode and the metadata box's text."""

    coll: Collection
    mode: str
    metadata_text: str
    example: str  # a metadata object the collection's schema accepts, shown in hints

    def metadata_for_all(self) -> dict[str, Any] | None:
        """The metadata box, parsed and checked against the schema before a text or an upload starts: every
        file of the ingest gets it, so a missing required field would fail them all. None (the error shown)
        when it is not valid."""
        metadata = parse_json_object(self.metadata_text, "Metadata")
        if metadata is None:
            return None
        try:
            validate_metadata(self.coll.metadata_schema, metadata)
        except ValidationFailed as exc:
            st.error(md_escape(f"{exc} Type it in the metadata box above, e.g. {self.example}."),
                     icon=":material/error:")
            return None
        return metadata


def quiet_metadata(text: str) -> dict[str, Any] | None:
    """The metadata box as an object, or None when it does not parse (for the retry button, every second)."""
    try:
        value = json.loads(text) if text.strip() else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def pick_editable_collection(svc: Services, *, container: Any = st) -> Collection:
    """A collection the user may add to (the one last used first); stops the page, saying why, when there is none."""
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
    name = container.selectbox("Collection", [c.name for c in collections], key="ingest.collection",
                               index=collection_index(svc, collections))
    remember_collection(name)
    return next(c for c in collections if c.name == name)


def metadata_box(coll: Collection) -> tuple[str, str]:
    """What the collection's schema asks for, and the box for metadata given to every document of the ingest;
    returns (its text, an example object)."""
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
    text = st.text_input("Metadata for these documents (JSON object)", key="ingest.metadata",
                         placeholder=example if fields else '{"source": "archive"}')
    return text, example


def text_tab(svc: Services, target: Target) -> None:
    with st.form("ingest.text_form"):
        title = st.text_input("Title")
        body = st.text_area("Text", height=200)
        if st.form_submit_button("Ingest text", type="primary"):
            metadata = target.metadata_for_all()
            if metadata is not None:
                submit(svc, lambda: text_request(target.coll.name, title=title, text=body, metadata=metadata,
                                                 mode=target.mode))


def upload_tab(svc: Services, target: Target) -> None:
    nonce = st.session_state[Keys.INGEST_UPLOAD_NONCE]  # a new nonce empties the picker after a stored upload
    limit_mb = math.ceil(svc.settings.max_file_bytes / (1024 * 1024))
    uploads = st.file_uploader("Files", type=[s.lstrip(".") for s in SUPPORTED_SUFFIXES],
                               accept_multiple_files=True, key=f"ingest.uploads.{nonce}", max_upload_size=limit_mb)
    password = ""
    if any(u.name.lower().endswith(".pdf") for u in uploads or []):
        password = st.text_input("PDF password (only for an encrypted PDF; used for this upload, never stored)",
                                 type="password", key=f"ingest.pdf_password.{nonce}")
    if st.button("Ingest files", type="primary", disabled=not uploads, key="ingest.upload_go"):
        metadata = target.metadata_for_all()
        if metadata is not None:
            files = [(u.name, u.getvalue()) for u in uploads]
            submit(svc, lambda: files_request(target.coll.name, files, settings=svc.settings, metadata=metadata,
                                              mode=target.mode, password=password or None), clears_uploads=True)


def directory_tab(svc: Services, target: Target) -> None:
    path = st.text_input("Directory path on the server", key="ingest.dir_path", placeholder="/srv/corpus")
    c1, c2, c3 = st.columns([2, 2, 1])
    include = c1.text_input("Include globs (comma-separated)", value="*", key="ingest.include").split(",")
    exclude = c2.text_input("Exclude globs", value="", key="ingest.exclude").split(",")
    recursive = c3.checkbox("Recursive", value=True, key="ingest.recursive")
    st.caption("A metadata.csv in the folder (a 'file' column plus one column per field) gives per-file metadata; "
               "its 'title' column, if any, titles each document.")
    template = st.text_input("Title from metadata (optional)", key="ingest.title_template",
                             placeholder="{president}, {year}",
                             help="Fields in braces, filled from each file's metadata; empty: the file's path.")
    template = template.strip() or None
    p1, p2 = st.columns(2)
    if p1.button("Preview", key="ingest.dir_preview", disabled=not path.strip()):
        with user_errors("Could not read the directory"):
            info = describe_directory(path, settings=svc.settings, include=include, exclude=exclude, recursive=recursive,
                                      title_template=template)
            st.write(f"{info['matched']} files match, {info['supported']} of a supported type"
                     + (" · metadata.csv found" if info["has_sidecar"] else ""))
            st.code("\n".join(info["sample"]) or "(none)", language=None)
            if info["matched"] > len(info["sample"]):
                st.caption(f"Listing the first {len(info['sample'])} of {info['matched']} files; "
                           f"{info['matched'] - len(info['sample'])} more are not listed.")
    if p2.button("Ingest directory", type="primary", key="ingest.dir_go", disabled=not path.strip()):
        metadata = parse_json_object(target.metadata_text, "Metadata")  # a metadata.csv may give the required fields
        if metadata is not None:
            submit(svc, lambda: directory_request(target.coll.name, path, settings=svc.settings, include=include,
                                                  exclude=exclude, recursive=recursive, metadata=metadata,
                                                  mode=target.mode, title_template=template))
