"""An entity's facts on a time axis: a fact that holds for a while is a bar, a statement is a point.

Only a single-valued relation (a CEO, a capital: one value at a time) has a known span: it holds from its
date until a later fact names someone else (then it is superseded, a grey bar), or until now while nothing
has (a green bar to today). Any other fact ("Mexico established a constitution") is a statement made on a
date, with no known end: it is drawn as a point, not as a bar running to today.
"""

from __future__ import annotations

import datetime as dt
import textwrap

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from components.graph_view import relation_words
from services.graph.model import Fact

ENDED, CURRENT, STATEMENT = ("ended or superseded (bar: valid from → until)",
                             "current, one at a time (bar: since its date, until something supersedes it)",
                             "statement on a date (point: when it happened, or when its document was stated)")
COLOURS = {ENDED: "#9e9e9e", CURRENT: "#2e7d32", STATEMENT: "#1f77b4"}
TIMELINE_LEGEND = ("Bars are facts that hold for a span: grey when a later fact ended or superseded them, green when "
                   "they still hold (one value at a time, such as a CEO). Points are statements made on a date, "
                   "whose end nobody stated.")


def kind_of(fact: Fact) -> str:
    if fact.valid_until:
        return ENDED
    return CURRENT if fact.single_valued and fact.when else STATEMENT


def dated(facts: list[Fact]) -> tuple[list[Fact], list[Fact]]:
    """(facts with a date: from their clause, or the day their document was stated; undated facts)."""
    return [f for f in facts if f.when or f.valid_until], [f for f in facts if not (f.when or f.valid_until)]


ROWS = 30  # rows drawn at first; the page offers more


def fact_label(fact: Fact, width: int = 34) -> str:
    """"Acme — CEO of → Alice" wrapped on at most two lines (Plotly breaks on <br>), the rest cut with "…"."""
    lines = textwrap.wrap(f"{fact.source} — {relation_words(fact.relation)} → {fact.target}", width) or [""]
    return "<br>".join(lines[:2]) + ("…" if len(lines) > 2 else "")


def timeline_rows(facts: list[Fact], today: dt.date) -> pd.DataFrame:
    rows = pd.DataFrame([{
        "fact": fact_label(f), "kind": kind_of(f),
        "start": f.when or f.valid_until, "end": f.valid_until or today.isoformat(),
        "when": f.shown("when") or f.shown("valid_until"),
        "sentence": (f.sentence[:160] + "…") if len(f.sentence) > 160 else f.sentence,
        "document": f.document_id,
        "valid_until": f.shown("valid_until") or ("(current)" if f.single_valued else "(no end known)"),
    } for f in facts])
    rows["start"] = pd.to_datetime(rows["start"], errors="coerce")
    rows["end"] = pd.to_datetime(rows["end"], errors="coerce")
    return rows.dropna(subset=["start"]).sort_values("start", kind="stable")


def row_count(facts: list[Fact], today: dt.date) -> int:
    return len(dict.fromkeys(timeline_rows(facts, today)["fact"])) if facts else 0


def timeline_figure(facts: list[Fact], today: dt.date, rows_shown: int = ROWS) -> go.Figure:
    """The first ``rows_shown`` rows (by date) of the entity's timeline."""
    rows = timeline_rows(facts, today)
    kept = list(dict.fromkeys(rows["fact"]))[:rows_shown]
    rows = rows[rows["fact"].isin(kept)]
    bars = rows[rows["kind"] != STATEMENT].copy()
    if len(bars):
        # A span stated within one day still gets a visible bar.
        shortest = bars["start"] + pd.DateOffset(days=60)
        bars["end"] = bars["end"].where(bars["end"] >= shortest, shortest)
        figure = px.timeline(bars, x_start="start", x_end="end", y="fact", color="kind", color_discrete_map=COLOURS,
                             hover_data={"when": True, "sentence": True, "document": True, "valid_until": True,
                                         "start": False, "end": False, "kind": False})
    else:
        figure = go.Figure()
        figure.update_xaxes(type="date")
    points = rows[rows["kind"] == STATEMENT]
    if len(points):
        figure.add_trace(go.Scatter(
            x=points["start"], y=points["fact"], mode="markers", name=STATEMENT,
            marker={"symbol": "diamond", "size": 11, "color": COLOURS[STATEMENT]},
            customdata=points[["sentence", "document", "when"]].to_numpy(),
            hovertemplate="%{y}<br>stated %{customdata[2]}<br>%{customdata[0]}<br>document %{customdata[1]}<extra></extra>"))
    order = list(dict.fromkeys(rows["fact"]))
    figure.update_yaxes(categoryorder="array", categoryarray=order[::-1], title=None)
    figure.update_layout(height=160 + 40 * len(order), legend_title_text="", legend={"orientation": "h", "y": -0.15},
                         margin={"l": 10, "r": 10, "t": 30, "b": 10})
    return figure
