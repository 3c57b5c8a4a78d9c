"""Pure temporal rules (services.graph.temporal) and entity resolution keys (services.graph.entities.entity_key)."""

from __future__ import annotations

import itertools
import random

import pytest

from services.graph.entities import ALIASES, display_name, entity_key
from services.graph.temporal import SINGLE_VALUED, ChainFact, date_from_text, dated_document, resolve_chain
from services.graph.vocabulary import LABELS, RELATED_TO, canonical, noun_label, verb_label

# -- date_from_text -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("The treaty was signed in 1848.", "1848-01-01"),
    ("Signed 2019-03-01 in Geneva.", "2019-03-01"),
    ("On December 7, 1941, Japan attacked.", "1941-12-07"),
    ("Japan attacked on 7 December 1941.", "1941-12-07"),
    ("Dec. 7, 1941 was a Sunday.", "1941-12-07"),
    ("The attacks of Sept. 11, 2001 changed aviation.", "2001-09-11"),
    ("Events of 2019 and 2021.", "2019-01-01"),  # the first year stated
    ("In 2099 the lease ends.", "2099-01-01"),
    ("Around 1066 the Normans came.", "1066-01-01"),
])
def test_date_from_text_finds_dates(text, expected):
    assert date_from_text(text) == expected


@pytest.mark.parametrize("text", [
    "Alice is the CEO of Acme.",
    "",
    "Room 42 on floor 7.",
    "In 999 nothing happened.",  # three-digit years are not read as dates
    "In 2200 robots rule.",  # beyond the supported range
    "Code 12019 is not a year.",  # no word boundary around a year
])
def test_date_from_text_returns_none_without_a_date(text):
    assert date_from_text(text) is None


def test_impossible_iso_date_falls_back_to_its_year():
    assert date_from_text("Filed 2019-02-30 by mistake.") == "2019-01-01"



@pytest.mark.parametrize("text, expected", [
    # the number of aircraft must not be read as the day or year
    ("Japan attacked Pearl Harbor with 353 aircraft on December 7, 1941.", "1941-12-07"),
    # the founding year must not win over the full date of the sale
    ("Acme Corp, founded in 1999, was sold on June 5, 2010.", "2010-06-05"),
    ("With 12 ships and 4000 men, they landed on 6 June 1944.", "1944-06-06"),
])
def test_date_is_parsed_only_from_the_matched_date_text(text, expected):
    assert date_from_text(text) == expected


# -- document_date --------------------------------------------------------------------------------

@pytest.mark.parametrize("metadata, expected", [
    ({"date": "2019-03-01"}, ("2019-03-01", "day")),
    ({"date": "2019-03-01T12:00:00Z"}, ("2019-03-01", "day")),
    ({"published": "2020-11-05"}, ("2020-11-05", "day")),
    ({"published_at": "2021-07-04T08:30:00+02:00"}, ("2021-07-04", "day")),
    ({"year": 1848}, ("1848-01-01", "year")),
    ({"year": "1848"}, ("1848-01-01", "year")),
    ({"date": "2019-03-01", "year": 1848}, ("2019-03-01", "day")),  # a full date wins over a year
    ({"date": "2019-02-30", "year": 2001}, ("2019-01-01", "year")),  # an impossible date still names its year
    ({"date": "yesterday", "year": 2001}, ("2001-01-01", "year")),  # an unreadable date falls back to the year
    ({"date": "2001-01-01"}, ("2001-01-01", "day")),  # a real 1 January is a day
])
def test_document_date(metadata, expected):
    assert dated_document(metadata) == expected


@pytest.mark.parametrize("metadata", [
    {},
    {"title": "no date here"},
    {"year": True},  # a bool is not a year
    {"year": False},
    {"year": "abc"},
    {"year": 0},
    {"year": 10000},
    {"year": 1848.5},
    {"date": "yesterday"},
    {"date": 20190301},
    {"date": None},
])
def test_document_date_missing_or_invalid_is_none(metadata):
    assert dated_document(metadata) is None


# -- resolve_chain --------------------------------------------------------------------------------

THREE_HOLDERS = [
    ChainFact("f1", "2019-03-01", "alice"),
    ChainFact("f2", "2021-03-01", "bob"),
    ChainFact("f3", "2023-03-01", "carol"),
]
THREE_EXPECTED = [
    ("f1", "2021-03-01", "superseded"),
    ("f2", "2023-03-01", "superseded"),
    ("f3", None, "current"),
]


def test_resolve_chain_three_holders_in_order():
    assert resolve_chain(THREE_HOLDERS) == THREE_EXPECTED


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))), ids=lambda o: "".join(map(str, o)))
def test_resolve_chain_is_independent_of_input_order(order):
    facts = [THREE_HOLDERS[i] for i in order]
    assert sorted(resolve_chain(facts)) == THREE_EXPECTED


def test_resolve_chain_random_orders_of_a_longer_chain():
    facts = [ChainFact(f"f{i}", f"{2000 + i}-01-01", f"p{i}") for i in range(8)]
    expected = sorted(resolve_chain(facts))
    assert [status for _, _, status in expected].count("current") == 1
    rng = random.Random(7)
    for _ in range(20):
        shuffled = facts[:]
        rng.shuffle(shuffled)
        assert sorted(resolve_chain(shuffled)) == expected


def test_same_holder_restated_does_not_supersede_itself():
    facts = [ChainFact("a1", "2019-01-01", "a"), ChainFact("a2", "2020-01-01", "a"), ChainFact("b", "2021-01-01", "b")]
    for order in itertools.permutations(facts):
        assert sorted(resolve_chain(list(order))) == [
            ("a1", "2021-01-01", "superseded"),
            ("a2", "2021-01-01", "superseded"),
            ("b", None, "current"),
        ]


def test_same_holder_only_is_all_current():
    facts = [ChainFact("a1", "2019-01-01", "a"), ChainFact("a2", "2020-01-01", "a")]
    assert sorted(resolve_chain(facts)) == [("a1", None, "current"), ("a2", None, "current")]


def test_facts_with_equal_valid_from_do_not_supersede_each_other():
    facts = [ChainFact("x", "2020-01-01", "alice"), ChainFact("y", "2020-01-01", "bob")]
    for order in (facts, facts[::-1]):
        assert sorted(resolve_chain(order)) == [("x", None, "current"), ("y", None, "current")]
    later = facts + [ChainFact("z", "2022-01-01", "carol")]
    assert sorted(resolve_chain(later)) == [
        ("x", "2022-01-01", "superseded"), ("y", "2022-01-01", "superseded"), ("z", None, "current")]


def test_resolve_chain_of_nothing_and_of_one():
    assert resolve_chain([]) == []
    assert resolve_chain([ChainFact("only", "2020-01-01", "a")]) == [("only", None, "current")]


# -- relation names -------------------------------------------------------------------------------

def test_single_valued_key_sides():
    assert SINGLE_VALUED["ceo_of"] == "object"  # a company has one CEO at a time
    assert SINGLE_VALUED["located_in"] == "subject"  # a thing is in one place at a time
    assert set(SINGLE_VALUED.values()) == {"object", "subject"}


def test_single_valued_relations_are_labels_of_the_vocabulary():
    assert set(SINGLE_VALUED) <= set(LABELS)
    assert 60 <= len(LABELS) <= 120  # "about a hundred canonical labels"


@pytest.mark.parametrize("raw, expected", [
    ("locate_in", "located_in"), ("located in", "located_in"), ("located at", "located_in"),
    ("Chief Executive of", "ceo_of"), ("chief executive officer of", "ceo_of"), ("CEO of", "ceo_of"),
    ("  Work For  ", "worked_for"), ("was born in", "born_in"), ("founded", "founded"), ("acquired", "acquired"),
    ("ceo_of", "ceo_of"), ("", RELATED_TO), ("--- !!", RELATED_TO), ("frobnicated", RELATED_TO),
])
def test_canonical_labels(raw, expected):
    assert canonical(raw) == expected


def test_verb_and_noun_triggers():
    assert verb_label("locate", "on") == verb_label("situate", "in") == "located_in"
    assert verb_label("bear", "in") == "born_in"
    assert verb_label("direct") == "directed"
    assert verb_label("frobnicate") == RELATED_TO
    assert noun_label("capital", "of") == "capital_of"
    assert noun_label("heavy metal band", "from") is None


# -- entity keys ----------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [
    ("  ACME   Corp ", "acme corp"),
    ("Acme\tCorp\n", "acme corp"),
    ("The Acme", "acme"),
    ("the acme", "acme"),
    ("Acme's", "acme"),
    ("Acme’s", "acme"),
    ("U.S.", "united states"),
    ("The U.S.", "united states"),
    ("USA", "united states"),
    ("U.K.", "united kingdom"),
])
def test_entity_key_merges_surface_forms(a, b):
    assert entity_key(a) == entity_key(b) == b


def test_entity_key_keeps_distinct_entities_apart():
    assert entity_key("Acme") != entity_key("Acme Corp")
    assert entity_key("Theodore") == "theodore"  # "The" only as a separate word
    assert entity_key("Uranus") == "uranus"


def test_every_alias_maps_to_its_entity():
    checked = list(ALIASES)
    assert len(checked) >= 15
    for alias in checked:
        assert entity_key(alias) == ALIASES[alias], alias
        assert entity_key(alias.upper()) == ALIASES[alias], alias


@pytest.mark.parametrize("name, shown", [
    ("the company", "company"),
    ("a man", "man"),
    ("an apple", "apple"),
    ("The United States", "United States"),
    ("  Acme    Corp ", "Acme Corp"),
    ("Acme", "Acme"),
    ("A Tribe Called Quest", "A Tribe Called Quest"),  # a capitalised "A" is part of the name
])
def test_display_name(name, shown):
    assert display_name(name) == shown
