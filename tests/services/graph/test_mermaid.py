"""services.graph.mermaid: deterministic, escaped Mermaid flowchart text (pure functions)."""

from __future__ import annotations

import dataclasses
import html
import random
import re

import pytest

from services.graph.mermaid import MAX_LABEL, MermaidEdge, MermaidNode, escape_label, subgraph_to_mermaid, to_mermaid
from services.graph.model import Fact, Subgraph

# One line per node, in one of the four shapes, with the label quoted.
NODE_LINE = re.compile(
    r'^    (?P<id>n\d+)(?:\["(?P<a>[^"]*)"\]|\{"(?P<b>[^"]*)"\}|\(\["(?P<c>[^"]*)"\]\)|\[/"(?P<d>[^"]*)"/\])$'
)
EDGE_LINE = re.compile(r'^    (?P<a>n\d+) -->(?:\|"(?P<label>[^"]*)"\|)? (?P<b>n\d+)$')
ENTITY = re.compile(r"#(?:[a-z]+|\d+);")
UNSAFE = set('"[]{}()|<>`\\%&')


def _decode(label: str) -> str:
    """Mermaid entity codes back to text (#quot; #35; …) to check that nothing was lost."""

    def one(m: re.Match) -> str:
        code = m.group(1)
        return chr(int(code)) if code.isdigit() else html.unescape(f"&{code};")
    return re.sub(r"#([a-z]+|\d+);", one, label)


def _assert_safe(label: str) -> None:
    assert not UNSAFE & set(label), label
    rest = ENTITY.sub("", label)  # every '#' and ';' must belong to an entity code
    assert "#" not in rest and ";" not in rest, label
    assert "\n" not in label


def _parse(text: str) -> tuple[str, dict[str, str], list[tuple[str, str, str | None]]]:
    lines = text.rstrip("\n").split("\n")
    assert text.endswith("\n")
    header, nodes, edges = lines[0], {}, []
    for line in lines[1:]:
        m = NODE_LINE.match(line)
        if m:
            label = next(g for g in (m["a"], m["b"], m["c"], m["d"]) if g is not None)
            _assert_safe(label)
            nodes[m["id"]] = label
            continue
        e = EDGE_LINE.match(line)
        assert e, f"line matches no safe pattern: {line!r}"
        if e["label"] is not None:
            _assert_safe(e["label"])
        edges.append((e["a"], e["b"], e["label"]))
    return header, nodes, edges


NASTY = [
    'He said "hi"',
    "a[b]c{d}e(f)g",
    "x | y || z",
    "<script>alert(1)</script>",
    "`code` and ``more``",
    "issue #42; done;",
    "100% & more \\ back",
    "café résumé é",
    "日本 東京",
    "emoji 🚀🔥",
    '"]; click n0 call evil(); %%',
    'end"] --> n9["pwn',
]


@pytest.mark.parametrize("label", NASTY)
def test_escape_label_is_safe_and_lossless(label):
    escaped = escape_label(label)
    _assert_safe(escaped)
    assert _decode(escaped) == " ".join(label.split())


def test_escape_specific_characters():
    assert escape_label('"') == "#quot;"
    assert escape_label("<b>") == "#lt;b#gt;"
    assert escape_label("a|b") == "a#124;b"
    assert escape_label("#;") == "#35;#59;"
    assert escape_label("[x]") == "#91;x#93;"
    assert escape_label("`") == "#96;"


def test_unicode_is_preserved_verbatim():
    text = to_mermaid([MermaidNode("a", "Zoë é 日本 🚀")], [])
    assert 'n0["Zoë é 日本 🚀"]' in text


def test_whitespace_and_newlines_collapse_so_labels_cannot_add_lines():
    text = to_mermaid([MermaidNode("a", "line one\nflowchart TD\n  n9 --> n0\t end")], [])
    header, nodes, edges = _parse(text)
    assert len(text.splitlines()) == 2 and not edges
    assert nodes["n0"] == "line one flowchart TD n9 --#gt; n0 end"


def test_long_labels_are_truncated():
    long = "a" * 200
    assert escape_label(long) == "a" * (MAX_LABEL - 1) + "…"
    assert escape_label("b" * MAX_LABEL) == "b" * MAX_LABEL
    _, nodes, _ = _parse(to_mermaid([MermaidNode("k", long)], []))
    assert len(nodes["n0"]) == MAX_LABEL


def test_all_nasty_labels_in_a_diagram_stay_on_safe_lines():
    nodes = [MermaidNode(f"k{i:02d}", label, kind) for i, (label, kind) in
             enumerate(zip(NASTY, ["default", "decision", "terminator", "io"] * 3))]
    edges = [MermaidEdge(f"k{i:02d}", f"k{(i + 1) % len(NASTY):02d}", NASTY[-1 - i]) for i in range(len(NASTY))]
    header, parsed_nodes, parsed_edges = _parse(to_mermaid(nodes, edges))
    assert header == "flowchart LR"
    assert len(parsed_nodes) == len(NASTY) and len(parsed_edges) == len(NASTY)
    assert sorted(_decode(v) for v in parsed_nodes.values()) == sorted(" ".join(n.split()) for n in NASTY)


def test_same_input_in_any_order_gives_identical_text():
    nodes = [MermaidNode(k, k.upper(), kind) for k, kind in
             [("zeta", "default"), ("alpha", "decision"), ("mid", "io"), ("beta", "terminator")]]
    edges = [MermaidEdge("zeta", "alpha", "r1"), MermaidEdge("alpha", "mid", ""), MermaidEdge("beta", "zeta", "r2"),
             MermaidEdge("alpha", "mid", "x")]
    first = to_mermaid(nodes, edges)
    rng = random.Random(3)
    for _ in range(10):
        n, e = nodes[:], edges[:]
        rng.shuffle(n)
        rng.shuffle(e)
        assert to_mermaid(n, e) == first
    # ids follow sorted keys
    assert first.splitlines()[1:5] == ['    n0{"ALPHA"}', '    n1(["BETA"])', '    n2[/"MID"/]', '    n3["ZETA"]']


def test_duplicate_edges_are_written_once():
    nodes = [MermaidNode("a", "A"), MermaidNode("b", "B")]
    text = to_mermaid(nodes, [MermaidEdge("a", "b", "r")] * 3)
    assert text.count("-->") == 1


@pytest.mark.parametrize("kind, line", [
    ("decision", '    n0{"Q?"}'),
    ("terminator", '    n0(["Q?"])'),
    ("start", '    n0(["Q?"])'),
    ("end", '    n0(["Q?"])'),
    ("io", '    n0[/"Q?"/]'),
    ("default", '    n0["Q?"]'),
    ("PERSON", '    n0["Q?"]'),
])
def test_shapes(kind, line):
    assert to_mermaid([MermaidNode("q", "Q?", kind)], []).splitlines()[1] == line


def test_empty_label_becomes_a_space():
    assert to_mermaid([MermaidNode("q", "   ")], []).splitlines()[1] == '    n0[" "]'


def test_edge_labels_and_unlabelled_edges():
    text = to_mermaid([MermaidNode("a", "A"), MermaidNode("b", "B")],
                      [MermaidEdge("a", "b", "works | for"), MermaidEdge("b", "a")])
    lines = text.splitlines()
    assert '    n0 -->|"works #124; for"| n1' in lines
    assert "    n1 --> n0" in lines


def test_edges_to_unknown_nodes_are_dropped():
    text = to_mermaid([MermaidNode("a", "A"), MermaidNode("b", "B")],
                      [MermaidEdge("a", "ghost", "x"), MermaidEdge("ghost", "b"), MermaidEdge("a", "b", "ok")])
    _, _, edges = _parse(text)
    assert edges == [("n0", "n1", "ok")]


def test_empty_diagram():
    assert to_mermaid([], []) == "flowchart LR\n"


@pytest.mark.parametrize("direction", ["LR", "TD", "TB", "RL", "BT"])
def test_valid_directions(direction):
    assert to_mermaid([], [], direction=direction).startswith(f"flowchart {direction}\n")


@pytest.mark.parametrize("direction", ["lr", "XY", "", "LR; click", "TD\nA-->B"])
def test_invalid_direction_raises(direction):
    with pytest.raises(ValueError, match="direction"):
        to_mermaid([MermaidNode("a", "A")], [], direction=direction)


def _fact(fid, src, rel, dst, valid_from, valid_until=None, *, src_name=None, dst_name=None):
    return Fact(id=fid, collection_id=1, source_key=src, source=src_name or src.title(), source_type="PERSON",
                relation=rel, target_key=dst, target=dst_name or dst.title(), target_type="ORG", document_id=1,
                chunk_id=None, sentence="", valid_from=valid_from, valid_until=valid_until,
                status="superseded" if valid_until else "current")


def test_subgraph_to_mermaid():
    graph = Subgraph()
    graph.add(_fact("1", "alice", "ceo_of", "acme", "2019-03-01", "2021-03-01"))
    graph.add(_fact("2", "bob", "ceo_of", "acme", "2021-03-01", "2023-03-01"))
    graph.add(_fact("3", "carol", "ceo_of", "acme", "2023-03-01", dst_name='Acme "Corp" <Ltd>'))
    graph.add(_fact("4", "carol", "works_for", "acme", None))
    graph.add(_fact("1", "alice", "ceo_of", "acme", "2019-03-01", "2021-03-01"))  # same id: ignored
    text = subgraph_to_mermaid(graph, direction="TD")
    header, nodes, edges = _parse(text)
    assert header == "flowchart TD"
    # keys sorted: acme n0, alice n1, bob n2, carol n3; the first name given for a key is kept
    assert nodes == {"n0": "Acme", "n1": "Alice", "n2": "Bob", "n3": "Carol"}
    assert sorted((a, b, _decode(label)) for a, b, label in edges) == sorted([
        ("n1", "n0", "ceo of (2019–2021)"),
        ("n2", "n0", "ceo of (2021–2023)"),
        ("n3", "n0", "ceo of (2023)"),
        ("n3", "n0", "works for"),
    ])
    assert '    n1 -->|"ceo of #40;2019–2021#41;"| n0' in text.splitlines()
    shuffled = Subgraph()
    for f in reversed(graph.facts):
        shuffled.add(f)
    assert subgraph_to_mermaid(shuffled, direction="TD") == text


def test_subgraph_to_mermaid_escapes_entity_names():
    graph = Subgraph()
    graph.add(_fact("1", "x", "rel", "y", "2020-01-01", src_name='Evil"] --> n1["x', dst_name="<img src=x>"))
    _, nodes, edges = _parse(subgraph_to_mermaid(graph))
    assert {_decode(v) for v in nodes.values()} == {'Evil"] --> n1["x', "<img src=x>"}
    assert len(edges) == 1


def test_subgraph_to_mermaid_of_empty_subgraph():
    assert subgraph_to_mermaid(Subgraph()) == "flowchart LR\n"



def test_duplicate_node_keys_give_the_same_text_in_any_order():
    one, two = MermaidNode("acme", "Acme Corp"), MermaidNode("acme", "ACME")
    other = MermaidNode("berlin", "Berlin")
    edges = [MermaidEdge("acme", "berlin", "located in")]
    first = to_mermaid([one, two, other], edges)
    assert to_mermaid([two, one, other], edges) == first
    assert to_mermaid([other, two, one], edges) == first
    header, nodes, parsed_edges = _parse(first)
    assert len(nodes) == 2  # one line per key
    assert sorted(nodes.values()) == sorted(["ACME", "Berlin"])  # the first label in sorted order wins
    assert parsed_edges == [("n0", "n1", "located in")]


def test_a_facts_stated_year_is_not_shown_as_its_date():
    graph = Subgraph()
    undated = _fact("5", "santa anna", "leads", "mexico", None)
    graph.add(dataclasses.replace(undated, stated_on="1846-12-08"))
    _, _, edges = _parse(subgraph_to_mermaid(graph))
    assert [_decode(label) for _, _, label in edges] == ["leads (stated 1846)"]
