"""A date inside an event that "from" or "until" takes dates the fact's end it names (services/graph/dating.py), from
issue 29's round-13b judged sample, where "until his retirement in May 2016" became the fact's start."""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_fact_quality import extract


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


def test_from_an_event_until_a_date_inside_another_event(extractor):
    # the judged fact stored May 2016, the end, as its start: the date's own "in" hid "until", and "1990" only
    # qualified "election"
    _, facts = extract(extractor, "He was the member of the House of Representatives for Wide Bay from the 1990 "
                                  "election until his retirement in May 2016.", "Warren Truss")
    dated = [(p["valid_from"], p["valid_until"]) for s, r, t, p in facts if r == "member_of"]
    assert dated == [("1990-01-01", "2016-05-01")], facts
    _, facts = extract(extractor, "Iron Maiden released a 1975 film in 1980.", "Iron Maiden")
    assert all(p["valid_from"] != "1975-01-01" for *_, p in facts), facts  # a year that qualifies a noun dates nothing
