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


def test_directory_preview_shows_titles_from_a_template(collection, allowed_root):
    (allowed_root / "1846_polk.txt").write_text("The war with Mexico goes on.")
    (allowed_root / "metadata.csv").write_text("file,president,year\n1846_polk.txt,James K. Polk,1846\n")
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(collection).run()
    at.text_input(key="ingest.dir_path").set_value(str(allowed_root)).run()
    at.text_input(key="ingest.title_template").set_value("{president}, {year}").run()
    at.button(key="ingest.dir_preview").click().run()
    assert not at.exception and not at.error
    assert "James K. Polk, 1846" in "\n".join(c.value for c in at.code)
    at.text_input(key="ingest.title_template").set_value("{president} ({party})").run()
    at.button(key="ingest.dir_preview").click().run()
    said = " ".join(e.value for e in at.error).replace("\\", "")  # the page escapes Markdown
    assert "{party}" in said and "1846_polk.txt" in said, said
