"""What the Graph page draws: a capped, ranked scene with generic concepts folded; distinct routes;
document frequencies from the real graph store; single-valued facts; marked diagram steps."""

from __future__ import annotations

from services.graph.diagrams import DiagramView
from services.graph.model import Fact, Subgraph
from services.graph.scene import build_scene
from tests.utils.graph import ingest


def _fact(fid, src, dst, *, src_type="ORG", dst_type="PERSON", relation="employs"):
    return Fact(id=str(fid), collection_id=1, source_key=src, source=src.title(), source_type=src_type,
                relation=relation, target_key=dst, target=dst.title(), target_type=dst_type, document_id=1,
                chunk_id=None, sentence="", valid_from="2020-01-01", valid_until=None, status="current")


def _hub(spokes: int) -> Subgraph:
    """acme hires person0..; person0 knows far0 (two hops out); acme values 'law', a concept in every document."""
    graph = Subgraph()
    for i in range(spokes):
        graph.add(_fact(i, "acme", f"person{i:02d}"))
    graph.add(_fact("far", "person00", "far0", src_type="PERSON", relation="know"))
    graph.add(_fact("law", "acme", "law", dst_type="CONCEPT", relation="value"))
    return graph


def test_scene_is_capped_by_hops_then_connections_and_folds_generic_concepts():
    graph = _hub(70)
    frequencies = {"law": 9, "person00": 1}
    scene = build_scene(graph, ["acme"], frequencies=frequencies, documents=10, limit=60)
    keys = [e.key for e in scene.nodes]
    assert len(keys) == 60 and keys[0] == "acme"
    assert "far0" not in keys  # two hops: ranked after every one-hop neighbour
    assert keys[1] == "person00"  # one hop and two facts: before the one-fact neighbours
    assert [e.key for e, _ in scene.folded] == ["law"] and scene.folded[0][1] == 9
    assert scene.total == 73 and scene.left_out == 72 - 60
    assert all(f.source_key in keys and f.target_key in keys for f in scene.facts)


def test_an_expanded_node_brings_its_neighbours_in_and_generic_can_be_shown():
    graph = _hub(70)
    scene = build_scene(graph, ["acme", "person00"], frequencies={"law": 9}, documents=10, limit=60)
    assert "far0" in [e.key for e in scene.nodes]  # one hop from an expanded node
    shown = build_scene(graph, ["acme"], frequencies={"law": 9}, documents=10, limit=200, fold_generic=False)
    assert "law" in [e.key for e in shown.nodes] and not shown.folded and shown.left_out == 0


def test_a_concept_in_few_documents_is_kept():
    scene = build_scene(_hub(3), ["acme"], frequencies={"law": 1}, documents=10)
    assert "law" in [e.key for e in scene.nodes] and not scene.folded


def test_paths_count_routes_not_facts_and_document_frequencies_come_from_the_graph(services, dated):
    ingest(services, dated.name, "one", "Alice works for Acme. Alice joined Acme in 2010. Acme is located in Berlin.",
           {"date": "2020-01-01"})
    ingest(services, dated.name, "two", "Bob works for Acme.", {"date": "2021-01-01"})
    paths = services.graph.paths(dated.id, "alice", "berlin")
    assert len(paths) == 1  # two facts link Alice and Acme: still one route
    assert {f.relation for f in services.graph.facts_between(dated.id, "acme", "alice")} == {"worked_for", "part_of"}
    frequencies = services.graph.document_frequencies(dated.id, ["acme", "alice", "nobody"])
    assert frequencies == {"acme": 2, "alice": 1}


def test_only_relations_that_hold_one_value_at_a_time_are_single_valued():
    assert _fact(1, "erin", "acme", relation="ceo_of").single_valued
    assert not _fact(2, "mexico", "constitution", relation="establish").single_valued
    marked = Fact(**{**_fact(3, "a", "b", relation="lead").__dict__, "exclusive": "object"})
    assert marked.single_valued


def test_diagram_steps_a_passage_talks_about_are_outlined():
    view = DiagramView("dgm-1-1", 1, "policy", 1, "native", nodes=[
        {"id": "a", "text": "Submit expense claim", "kind": "process"},
        {"id": "b", "text": "Manager approves?", "kind": "decision"},
        {"id": "c", "text": "Yes", "kind": "process"}], edges=[{"source": "a", "target": "b", "label": ""}])
    text = view.mermaid_marking(["The employee must submit the expense claim within 30 days."])
    assert text.rstrip().endswith("class n0 hit") and "classDef hit" in text
    assert "class " not in view.mermaid


def test_named_entities_then_linking_concepts_then_leaf_concepts_and_leaves_are_counted():
    """Mexico's star of fifty one-sentence concepts must not crowd out the places and people two hops out."""
    graph = Subgraph()
    for i in range(50):  # concepts that one sentence attached to mexico: leaves
        graph.add(_fact(f"leaf{i}", "mexico", f"idea{i:02d}", src_type="GPE", dst_type="CONCEPT", relation="have"))
    graph.add(_fact("t", "mexico", "texas", src_type="GPE", dst_type="GPE", relation="border"))
    graph.add(_fact("h", "texas", "houston", src_type="GPE", dst_type="PERSON", relation="elect"))
    graph.add(_fact("b1", "mexico", "treaty", src_type="GPE", dst_type="CONCEPT", relation="sign"))
    graph.add(_fact("b2", "spain", "treaty", src_type="GPE", dst_type="CONCEPT", relation="sign"))
    scene = build_scene(graph, ["mexico"], frequencies={}, documents=15, limit=6)
    keys = [e.key for e in scene.nodes]
    # Houston is two hops out but named: before the one-hop concepts; the treaty links Mexico to Spain.
    assert keys[:3] == ["mexico", "texas", "houston"]
    assert keys[3:5] == ["treaty", "spain"]
    assert len(keys) == 6 and keys[5].startswith("idea")  # one leaf fits
    assert scene.leaves == {"mexico": 49}  # the other leaves are counted on the entity they hang off
    assert scene.left_out == 49
    assert all(f.source_key in keys and f.target_key in keys for f in scene.facts)
