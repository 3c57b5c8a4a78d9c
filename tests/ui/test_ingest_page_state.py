"""Ingest page state an analyst relies on (AppTest on the real stores)."""

from __future__ import annotations

from tests.utils.app import open_page


def test_directory_preview_says_when_it_lists_only_some_files(collection, allowed_root):
    for n in range(13):
        (allowed_root / f"note-{n:02}.txt").write_text(f"Note {n}.")
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(collection).run()
    at.text_input(key="ingest.dir_path").set_value(str(allowed_root)).run()
    at.button(key="ingest.dir_preview").click().run()
    assert not at.exception and not at.error
    listed = "\n".join(c.value for c in at.code)
    assert listed.count("note-") == 10
    said = " ".join(e.value for e in list(at.markdown) + list(at.caption))
    assert "13 files match" in said
    assert "first 10 of 13" in said and "3 more" in said, said
