"""A long report (20,000 paragraphs, 2,000 styles, tables) is read whole; budgets and unreadable variants refuse in words.

The fixture is generated (tests/utils/docx_build.py), as Word writes such a file:
rsid attributes, run properties and bookmarks make document.xml about 8 times
its text. Speed is measured in ``make bench`` (scripts/bench/bench_docx.py), not here.
"""

from __future__ import annotations

import re

import pytest

from services.errors import UnsupportedInput
from services.ingest import docx_package
from services.ingest.budget import parse_budget
from services.ingest.parsing import parse_bytes
from tests.utils.docx_build import document_xml_size, large_docx

PARAGRAPHS = 20_000


@pytest.fixture(scope="module")
def report() -> bytes:
    return large_docx(PARAGRAPHS, styles=2_000, tables=4, runs=2)


@pytest.mark.slow
def test_every_paragraph_heading_and_table_cell_is_read_once(report):
    text = parse_bytes(report, "report.docx", max_bytes=10**9).text
    found = re.findall(r"\bpara(\d+)\b", text)
    assert len(found) == PARAGRAPHS and len(set(found)) == PARAGRAPHS  # each once
    headings = re.findall(r"^(#+) Section heading (\d+)$", text, flags=re.M)
    assert len(headings) == PARAGRAPHS // 40
    assert {len(h) for h, n in headings if int(n) % 3 == 0} == {1}  # Heading1 → #, by the style's name
    for t in range(4):
        assert text.count(f"| table{t} header span | table{t} header last |") == 1  # a merged cell once
        assert text.count(f"table{t} group") == 1  # a vertical merge once
        assert len(re.findall(rf"table{t} row\d+ col\d", text)) == 22


def test_a_file_over_the_time_budget_is_refused_with_a_message_that_says_so(report):
    with parse_budget(seconds=0), pytest.raises(UnsupportedInput) as info:
        parse_bytes(report, "report.docx", max_bytes=10**9)
    assert info.value.reason == ("refused: reading it took longer than the 0 s budget (parse_seconds); the file is "
                                 "too large or too complex to read in time.")


def test_a_part_over_the_memory_budget_is_refused_with_a_message_that_says_so(report, monkeypatch):
    assert document_xml_size(report) > 2 * 1_048_576
    monkeypatch.setattr(docx_package, "MAX_PART_BYTES", 2 * 1_048_576)
    with pytest.raises(UnsupportedInput) as info:
        parse_bytes(report, "report.docx", max_bytes=10**9)
    assert info.value.reason == "refused: word/document.xml expands past 2 MB, the reader's memory budget for one part."


def test_a_strict_open_xml_document_is_refused_as_such_not_as_empty():
    from tests.utils.docx_build import package

    strict = ('<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/'
              'main"><w:body><w:p><w:r><w:t>Strict words</w:t></w:r></w:p></w:body></w:document>')
    with pytest.raises(UnsupportedInput) as info:
        parse_bytes(package({"word/document.xml": strict}), "strict.docx", max_bytes=10**9)
    assert info.value.reason == ("this is a Strict Open XML document, which this reader cannot read; save it in Word "
                                 "as a Word Document (.docx) and try again.")
