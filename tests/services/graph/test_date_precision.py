"""A date keeps how precise its text was (issue 34, item 6): "in 1998" is stored as 1998-01-01 with the precision
``year`` and shown as 1998, "in March 1998" as 1998-03, and a real 1 January stays a day. Facts stored before
precisions were kept show a 1 January as its year, as they did.

From the text to the store (spaCy's clause dating, the LLM's dates, an analyst's fact, supersession) and back
(Fact.shown, the CLI's fact line); the Timeline's rendering is tests/ui/test_timeline_words.py.
"""

from __future__ import annotations

import pytest

from services.graph.dating import clause_dates
from services.graph.extraction import load_spacy
from services.graph.extraction_llm import _valid_iso
from services.graph.lookup import date_precision
from services.graph.model import Fact
from services.graph.temporal import dated_text, shown_date
from services.settings import get_settings
from tests.utils.graph import ingest


@pytest.mark.parametrize(("text", "expected"), [
    ("The treaty was signed in 1848.", ("1848-01-01", "year")),
    ("It was signed in March 1848.", ("1848-03-01", "month")),
    ("It was signed on 1 January 1848.", ("1848-01-01", "day")),
    ("It was signed on January 1, 1848.", ("1848-01-01", "day")),
    ("Signed 1848-01-01 in Geneva.", ("1848-01-01", "day")),
    ("Filed 2019-02-30 by mistake.", ("2019-01-01", "year")),  # an impossible day names only its year
])
def test_a_date_read_from_text_keeps_its_precision(text, expected):
    assert dated_text(text) == expected


@pytest.mark.parametrize(("iso", "precision", "shown"), [
    ("1998-01-01", "year", "1998"),
    ("1998-03-01", "month", "1998-03"),
    ("1998-01-01", "day", "1998-01-01"),  # a real 1 January is a day
    ("1998-05-04", "day", "1998-05-04"),
    ("1998-01-01", None, "1998"),  # stored before precisions were kept: as before
    ("1998-05-04", None, "1998-05-04"),
    (None, None, None),
])
def test_a_date_is_shown_at_its_precision(iso, precision, shown):
    assert shown_date(iso, precision) == shown


@pytest.fixture(scope="module")
def nlp():
    return load_spacy(get_settings().spacy_model)


def _dates(nlp, text: str, verb: str):
    sent = next(iter(nlp(text).sents))
    return clause_dates(sent, {t.i for t in sent if t.text == verb})


@pytest.mark.parametrize(("text", "verb", "expected"), [
    ("Acme opened a plant in Ohio in 1998.", "opened", ("1998-01-01", None, "year", None)),
    ("Acme opened a plant in Ohio in March 1998.", "opened", ("1998-03-01", None, "month", None)),
    ("Acme opened a plant in Ohio on 1 January 1998.", "opened", ("1998-01-01", None, "day", None)),
    ("Magnus ruled Sweden from 1364 to 1389.", "ruled", ("1364-01-01", "1389-01-01", "year", "year")),
    ("Magnus ruled Sweden from 1364 until 5 May 1389.", "ruled", ("1364-01-01", "1389-05-05", "year", "day")),
    ("Magnus ruled Sweden from March 1364 until 1389.", "ruled", ("1364-03-01", "1389-01-01", "month", "year")),
])
def test_a_clause_dates_its_fact_with_the_precision_it_states(nlp, text, verb, expected):
    span = _dates(nlp, text, verb)
    assert (span.valid_from, span.valid_until, span.from_precision, span.until_precision) == expected


@pytest.mark.parametrize(("value", "expected"), [
    ("1998", ("1998-01-01", "year")), ("1998-03", ("1998-03-01", "month")), ("1998-01-01", ("1998-01-01", "day")),
    ("1998-13", None), ("soon", None), (None, None),
])
def test_the_llm_gives_a_date_as_precise_as_its_clause(value, expected):
    assert _valid_iso(value) == expected


def test_a_typed_date_is_as_precise_as_typed():
    assert [date_precision(v) for v in ("1998", "1998-03", "1998-03-05", "", None)] == ["year", "month", "day", None, None]


def test_stored_facts_keep_each_dates_precision(services, dated):
    """Ada from a year, Ben from a real 1 January: Ada's fact ends on Ben's day, and each shows as stated."""
    ingest(services, dated.name, "Acme", "In 1998 Ada Chen became CEO of Acme Corp. On 1 January 2005 Ben Okafor "
                                         "became CEO of Acme Corp.", {"date": "2006-01-01"})
    facts = {f.source: f for f in services.graph.facts_of_entity("acme corp", [dated.id]) if f.relation == "ceo_of"}
    ada, ben = facts["Ada Chen"], facts["Ben Okafor"]
    assert (ada.valid_from, ada.valid_from_precision, ada.shown("valid_from")) == ("1998-01-01", "year", "1998")
    assert (ben.valid_from, ben.valid_from_precision, ben.shown("valid_from")) == ("2005-01-01", "day", "2005-01-01")
    assert ada.status == "superseded" and (ada.valid_until, ada.shown("valid_until")) == ("2005-01-01", "2005-01-01")
    assert (ada.stated_on_precision, ada.shown("stated_on")) == ("day", "2006-01-01")  # the document's own date

    from cli.graph import fact_line

    assert "(1998 → 2005-01-01)" in fact_line(ada) and "(2005-01-01)" in fact_line(ben)


def test_a_year_stated_by_metadata_is_a_year(services, dated):
    ingest(services, dated.name, "Bolt", "Bolt is a company based in Tallinn.", {"year": 2001})
    (fact,) = services.graph.facts_of_entity("bolt", [dated.id])
    assert (fact.stated_on, fact.stated_on_precision, fact.shown("when")) == ("2001-01-01", "year", "2001")


def test_an_analysts_fact_keeps_the_precision_typed(services, dated):
    services.curation.add_fact(dated.name, "Zorbex", "founded by", "Ivana Petrova", author="tester",
                               valid_from="2001", valid_until="2009-06")
    (fact,) = services.graph.facts_of_entity("zorbex", [dated.id])
    assert (fact.shown("valid_from"), fact.shown("valid_until")) == ("2001", "2009-06")


def test_a_fact_stored_before_precisions_reads_a_1_january_as_its_year():
    old = Fact(id="1:0", collection_id=1, source_key="a", source="A", source_type="", relation="ceo_of", target_key="b",
               target="B", target_type="", document_id=1, chunk_id=1, sentence="", valid_from="1998-01-01",
               valid_until="2003-04-05", status="superseded")
    assert (old.shown("valid_from"), old.shown("valid_until"), old.shown("when")) == ("1998", "2003-04-05", "1998")
