"""Text hygiene's pure rules (services/ingest/text_hygiene.py, issue 30); what a user sees of them, through
the real ingester, is in test_pdf_ingest.py."""

from __future__ import annotations

from services.ingest.pdf_layout import markdown_table, strip_running_lines
from services.ingest.text_hygiene import clean_text, clean_value, join_hyphenation


def test_ligatures_and_controls_go_and_spans_follow():
    text = "ﬁrst\x00 ﬂoor\x07, ﬀ\fend"
    spans = [(0, 4, "first"), (6, 10, "floor"), (13, 14, "ff"), (15, 18, "end")]  # offsets in the original
    cleaned, moved = clean_text(text, spans)
    assert cleaned == "first floor, ff\nend"
    assert [cleaned[s:e] for s, e, _ in moved] == ["first", "floor", "ff", "end"]


def test_hyphenation_joins_words_but_keeps_compounds_and_dashes():
    assert join_hyphenation("Lorem adip-\niscing elit") == "Lorem adipiscing elit"
    assert join_hyphenation("the Heine-\nBorel theorem") == "the Heine-\nBorel theorem"
    assert join_hyphenation("a pause -\nthen more") == "a pause -\nthen more"
    assert join_hyphenation("Straßen-\nbahn") == "Straßenbahn"


def test_values_are_cleaned_inside_lists_and_dicts():
    assert clean_value({"a": ["x\x00y", "ﬁ"], "n": 3}) == {"a": ["xy", "fi"], "n": 3}
    assert clean_value("Title\x00") == "Title"


def test_running_lines_and_page_numbers_are_stripped():
    bodies = [["Otters sleep.", "They hold hands."], ["Herons wait.", "Then strike."], ["Gulls shout.", "Loudly."],
              ["Crabs walk.", "Sideways."], ["Seals bask.", "On rocks."]]
    pages = [["Coastal report 2024", *body, f"- {n} -"] for n, body in enumerate(bodies, start=1)]
    assert strip_running_lines(pages) == bodies


def test_markdown_table_drops_empty_rows_and_columns_and_escapes_pipes():
    rows = [["Key", None, "Value"], [None, None, None], ["a|b", "", "1"]]
    assert markdown_table(rows) == "| Key | Value |\n| --- | --- |\n| a\\|b | 1 |"
