"""Every piece of text Word shows is indexed once, and nothing it hides (tests/services/ingest/docx_fixtures.py is the truth).

Recall and duplication are counted in words over the whole generated fixture set;
each case is also checked on its own, so a failure names what was lost.
"""

from __future__ import annotations

import pytest

from services.ingest.chunking import chunk_text
from services.ingest.parsing import parse_bytes
from tests.services.ingest.docx_fixtures import all_cases, leaked, notes_and_margins, recall_and_duplication, words

CASES = all_cases()
LIMIT = 10**8


def _text(case) -> str:
    return parse_bytes(case.data, f"{case.name}.docx", max_bytes=LIMIT).text


def test_recall_is_at_least_99_percent_and_duplication_at_most_1_percent(record_property):
    texts = {case.name: _text(case) for case in CASES}
    recall, duplication = recall_and_duplication(CASES, texts)
    record_property("recall", recall)
    record_property("duplication", duplication)
    assert recall >= 0.99 and duplication <= 0.01, (recall, duplication)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_case_shows_its_text_once_and_hides_what_word_hides(case):
    text = _text(case)
    truth, got = words(" ".join(case.shown)), words(text)
    assert [w for w in truth if got[w] < truth[w]] == [], text  # lost
    assert [w for w in truth if got[w] > truth[w]] == [], text  # read twice
    assert leaked(case, text) == [], text


def test_margins_and_notes_are_labelled_sections_with_their_own_heading_path():
    text = _text(notes_and_margins())
    by_heading = {c.heading_path: c.text for c in chunk_text(text, size=1000, overlap=0)}
    assert "Confidential banner albatross" in by_heading[("Headers",)]
    assert "Printed copy bittern" in by_heading[("Footers",)]
    assert "Source citation cormorant" in by_heading[("Footnotes",)]
    assert "Closing remark dipper" in by_heading[("Endnotes",)]
    assert "Dana Reviewer: question about yellowhammer" in by_heading[("Comments",)]
    assert text.startswith("Annual report summary walrus\n\n# Headers")  # the body first, under no heading


def test_a_file_with_text_only_in_its_margins_is_read():
    case = next(c for c in CASES if c.name == "only-in-margins")
    assert "Letterhead flamingo" in _text(case)


def test_search_finds_a_footnote_and_the_hit_says_where_it_came_from(services, collection):
    from services.ingest.requests import files_request

    result = services.ingestion.run(files_request(collection, [("report.docx", notes_and_margins().data)],
                                                  settings=services.settings))
    assert result.status == "done", result.items
    hits = services.search.search("cormorant", collections=[collection], mode="keyword").hits
    assert hits and hits[0].heading_path == ["Footnotes"], hits
