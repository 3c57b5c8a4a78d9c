"""Ingest: paste text, upload files, read a server-side directory or a website, as a background job with live progress."""

import streamlit as st

from components.app_shell import serve
from components.feedback import parse_json_object, user_errors
from components.jobs_view import jobs_table, running_elsewhere, show_job
from components.markdown_text import md_escape
from components.resources import get_services
from components.state import Keys
from components.url_ingest import url_tab
from services.ingest.parsing import SUPPORTED_SUFFIXES
from services.ingest.requests import describe_directory, directory_request, files_request, text_request


def render() -> None:
    svc = get_services()
    st.title("Ingest")

    collections = svc.collections.list()
    if not collections:
        st.info("Create a collection first.", icon=":material/info:")
        st.page_link("pages/collections.py", label="Collections", icon=":material/folder_special:")
        st.stop()


    @st.fragment(run_every=1.0)
    def live_job() -> None:
        job_id = st.session_state.get(Keys.INGEST_JOB)
        recent = svc.jobs.recent(10)
        running_elsewhere(recent, own=job_id)
        if job_id is None:
            st.caption("Start an ingest above; its progress shows here.")
            st.markdown("**Recent jobs**")
            jobs_table(recent)
            return
        job = show_job(svc, job_id)
        if job.status == "running":
            if st.button("Cancel", key="ingest.cancel", icon=":material/cancel:"):
                svc.jobs.request_cancel(job_id)
        elif st.session_state.get("ingest.was_running"):
            st.session_state["ingest.was_running"] = False
            st.rerun()  # refresh counts elsewhere on the page once the job ends
        st.session_state["ingest.was_running"] = job.status == "running"
        st.markdown("**Recent jobs**")
        jobs_table(recent)


    def submit(build) -> None:
        """Build a request and start it as a background job; errors are shown inline."""
        with user_errors("Could not start the ingest"):
            request = build()
            started(svc.ingestion.submit(request))


    def started(job_id: int) -> None:
        """Show this job in the live progress view below."""
        st.session_state[Keys.INGEST_JOB] = job_id
        st.session_state["ingest.was_running"] = True


    names = [c.name for c in collections]
    left, mid = st.columns([2, 1])
    collection = left.selectbox("Collection", names, key="ingest.collection")
    mode = mid.radio("Mode", ["ingest", "reingest"], horizontal=True, key="ingest.mode",
                     help="ingest refuses a title or content already in the collection; "
                          "reingest replaces an existing document's content and chunks in one transaction.")
    coll = next(c for c in collections if c.name == collection)
    fields = coll.metadata_schema.get("custom", {})
    if fields:
        st.caption("Schema: " + ", ".join(f"{k} ({v['type']}{', required' if v['required'] else ''})" for k, v in fields.items()))
    metadata_text = st.text_input("Metadata for these documents (JSON object)", key="ingest.metadata",
                                  placeholder='{"year": 1990}')

    text_tab, upload_tab, dir_tab, url_tab_ = st.tabs(["Text", "Upload files", "Directory on the server", "URL"])
    with text_tab:
        with st.form("ingest.text_form"):
            title = st.text_input("Title")
            body = st.text_area("Text", height=200)
            if st.form_submit_button("Ingest text", type="primary"):
                metadata = parse_json_object(metadata_text, "Metadata")
                if metadata is not None:
                    submit(lambda: text_request(collection, title=title, text=body, metadata=metadata, mode=mode))
    with upload_tab:
        nonce = st.session_state[Keys.INGEST_UPLOAD_NONCE]
        uploads = st.file_uploader("Files", type=[s.lstrip(".") for s in SUPPORTED_SUFFIXES],
                                   accept_multiple_files=True, key=f"ingest.uploads.{nonce}")
        if st.button("Ingest files", type="primary", disabled=not uploads, key="ingest.upload_go"):
            metadata = parse_json_object(metadata_text, "Metadata")
            if metadata is not None:
                files = [(u.name, u.getvalue()) for u in uploads]
                submit(lambda: files_request(collection, files, settings=svc.settings, metadata=metadata, mode=mode))
                st.session_state[Keys.INGEST_UPLOAD_NONCE] = nonce + 1
    with dir_tab:
        path = st.text_input("Directory path on the server", key="ingest.dir_path", placeholder="/srv/corpus")
        c1, c2, c3 = st.columns([2, 2, 1])
        include = c1.text_input("Include globs (comma-separated)", value="*", key="ingest.include")
        exclude = c2.text_input("Exclude globs", value="", key="ingest.exclude")
        recursive = c3.checkbox("Recursive", value=True, key="ingest.recursive")
        globs = ([g for g in include.split(",")], [g for g in exclude.split(",")])
        st.caption("A metadata.csv in the folder (a 'file' column plus one column per field) gives per-file metadata.")
        p1, p2 = st.columns(2)
        if p1.button("Preview", key="ingest.dir_preview", disabled=not path.strip()):
            with user_errors("Could not read the directory"):
                info = describe_directory(path, settings=svc.settings, include=globs[0], exclude=globs[1], recursive=recursive)
                st.write(f"{info['matched']} files match, {info['supported']} of a supported type"
                         + (" · metadata.csv found" if info["has_sidecar"] else ""))
                st.code("\n".join(info["sample"]) or "(none)", language=None)
        if p2.button("Ingest directory", type="primary", key="ingest.dir_go", disabled=not path.strip()):
            metadata = parse_json_object(metadata_text, "Metadata")
            if metadata is not None:
                submit(lambda: directory_request(collection, path, settings=svc.settings, include=globs[0],
                                                 exclude=globs[1], recursive=recursive, metadata=metadata, mode=mode))

    with url_tab_:
        url_tab(svc, collection, mode, started)

    st.subheader("Progress")
    live_job()

    if svc.graph is not None:
        st.subheader("Knowledge graph")
        docs = svc.documents.list(collection_id=coll.id, limit=1000)
        by_status = svc.documents.graph_status_counts(coll.id)
        st.caption(f"{md_escape(coll.name)}: " + (", ".join(f"{n} {s}" for s, n in sorted(by_status.items())) or "no documents"))
        troubled = svc.documents.list(collection_id=coll.id, graph_status=("pending", "failed", "none"), limit=1000)
        if troubled:
            st.dataframe(
                [{"id": d.id, "title": d.title, "graph": d.graph_status, "error": d.graph_error or ""} for d in troubled],
                hide_index=True, width="stretch",
            )
        g1, g2 = st.columns(2)
        doc_choice = g1.selectbox("Document", [d.id for d in docs], key="ingest.graph_doc",
                                  format_func=lambda i: next(f"{d.title} ({d.graph_status})" for d in docs if d.id == i))
        if g1.button("Rebuild graph for this document", key="ingest.rebuild_doc", disabled=not docs):
            with user_errors("Could not start the rebuild"):
                st.session_state[Keys.INGEST_JOB] = svc.ingestion.submit_graph_rebuild(coll.name, [doc_choice])
                st.session_state["ingest.was_running"] = True
                st.rerun()
        if g2.button(f"Rebuild graph for all of {coll.name!r}", key="ingest.rebuild_all", disabled=not docs):
            with user_errors("Could not start the rebuild"):
                st.session_state[Keys.INGEST_JOB] = svc.ingestion.submit_graph_rebuild(coll.name)
                st.session_state["ingest.was_running"] = True
                st.rerun()


serve(render)
