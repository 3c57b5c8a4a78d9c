"""The Timeline in an analyst's terms: a year-only date reads as a year, relations in words, readable rows
(AppTest on the real stores; issue 34, item 6)."""

from __future__ import annotations

import uuid

import pytest

from services.ingest.requests import text_request
from tests.utils.app import open_page


@pytest.fixture
def dated_by_year(services):
    """Acme's CEOs, dated by the year in each document's metadata only."""
    name = f"years-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Dated by year.", metadata_schema={"custom": {"year": "integer"}})
    for who, year in (("Alice", 1846), ("Bob", 1850)):
        services.ingestion.run(text_request(name, title=f"Acme {year}", text=f"{who} is the CEO of Acme.",
                                            metadata={"year": year}))
    yield name
    services.deletion.delete_collection(name)


def timeline_of(collection: str, entity: str):
    """The Timeline page showing ``entity`` of ``collection``."""
    at = open_page("timeline")
    at.selectbox(key="timeline.collection").set_value(collection).run()
    at.text_input(key="timeline.query").set_value(entity).run()
    assert not at.exception
    return at


def test_year_only_dates_read_as_years_and_relations_as_words(dated_by_year):
    at = timeline_of(dated_by_year, "Acme")
    table = at.dataframe[0].value
    rows = {r["subject"]: r for _, r in table.iterrows()}
    assert rows["Alice"]["stated_on"] == "1846" and rows["Alice"]["valid_until"] == "1850", dict(rows["Alice"])
    assert set(table["relation"]) == {"CEO of"}
    chart = at.get("plotly_chart")[0].proto.spec
    # The axis places the point on 1 January; what it says on hover is the year.
    assert "%Y-%m-%d" not in chart and '"1846"' in chart and "ceo_of" not in chart and "CEO of" in chart


@pytest.fixture
def a_year_and_a_first_of_january(services):
    """Ada became CEO "in 1998" (a year), Ben "on 1 January 2005" (a real day): both stored as a 1 January."""
    name = f"precision-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="A year and a day.")
    services.ingestion.run(text_request(name, title="Acme", text="In 1998 Ada Chen became CEO of Acme Corp. On 1 January "
                                                                "2005 Ben Okafor became CEO of Acme Corp."))
    yield name
    services.deletion.delete_collection(name)


def test_a_year_reads_as_a_year_and_a_first_of_january_as_a_day(a_year_and_a_first_of_january):
    at = timeline_of(a_year_and_a_first_of_january, "Acme Corp")
    rows = {r["subject"]: r for _, r in at.dataframe[0].value.iterrows()}
    assert rows["Ada Chen"]["valid_from"] == "1998" and rows["Ada Chen"]["valid_until"] == "2005-01-01", dict(rows["Ada Chen"])
    assert rows["Ben Okafor"]["valid_from"] == "2005-01-01", dict(rows["Ben Okafor"])
    chart = at.get("plotly_chart")[0].proto.spec  # the hover says what the table says
    assert '"1998"' in chart and '"2005-01-01"' in chart


def _fact(n: int, target: str, when: str = "1900-01-01"):
    from services.graph.model import Fact

    return Fact(id=str(n), collection_id=1, source_key="mexico", source="Mexico", source_type="GPE",
                relation="signed_treaty_with", target_key=target.lower(), target=target, target_type="GPE",
                document_id=1, chunk_id=1, sentence="", valid_from=when, valid_until=None, status="current")


def test_long_row_labels_wrap_and_many_rows_are_cut_with_a_count():
    import datetime as dt

    from components.timeline_chart import fact_label, row_count, timeline_figure

    label = fact_label(_fact(1, "the United States of America and the Kingdom of Great Britain"))
    assert label.startswith("Mexico — signed treaty with") and label.count("<br>") == 1 and label.endswith("…")
    facts = [_fact(n, f"Country {n:02}", f"{1800 + n}-05-02") for n in range(45)]
    assert row_count(facts, dt.date(2000, 1, 1)) == 45
    figure = timeline_figure(facts, dt.date(2000, 1, 1), rows_shown=30)
    shown = {y for trace in figure.data for y in trace.y}
    assert len(shown) == 30 and "Mexico — signed treaty with →<br>Country 00" in shown
