"""Draw the judged sample of docs/graph.md: entities and facts at random, with a fixed seed, from a kept graph.

    python scripts/graph_sample.py --data DIR --collection hotpotqa --entities 80 --facts 60 --seed 29
    python scripts/graph_sample.py --data DIR --collection speeches --facts 40 --seed 29

Reads the embedded FalkorDB of a data folder that `scripts/eval_retrieval.py --keep DIR` (hotpotqa-100) or
`scripts/screenshots.py --data DIR` (15 State of the Union addresses) filled, and prints a Markdown table per
draw with each item's evidence (an entity's facts, a fact's sentence), for a person to judge.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--entities", type=int, default=0)
    parser.add_argument("--facts", type=int, default=0)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    import psycopg2
    from falkordb import FalkorDB

    pg = psycopg2.connect(host=str(args.data / "pg"), user="postgres", dbname="postgres")
    cur = pg.cursor()
    cur.execute("SELECT id FROM collections WHERE name = %s", (args.collection,))
    row = cur.fetchone()
    if row is None:
        sys.exit(f"no collection {args.collection!r}")
    cid = row[0]
    graph = FalkorDB(unix_socket_path=str(args.data / "falkordb" / "falkordb.sock")).select_graph("rag")
    rng = random.Random(args.seed)
    out = sys.stdout
    if args.entities:
        rows = graph.ro_query("MATCH (e:Entity {collection_id: $c}) RETURN e.key, e.name, e.type, e.aliases "
                              "ORDER BY e.key", {"c": cid}).result_set
        out.write("| # | entity | type | aliases | a fact of it |\n| --- | --- | --- | --- | --- |\n")
        for i, (key, name, typ, aliases) in enumerate(rng.sample(rows, min(args.entities, len(rows))), 1):
            fact = graph.ro_query("MATCH (a:Entity {collection_id: $c, key: $k})-[r:FACT]-(b:Entity) "
                                  "RETURN startNode(r).name, r.relation, endNode(r).name, r.sentence LIMIT 1",
                                  {"c": cid, "k": key}).result_set
            said = f"{fact[0][0]} —{fact[0][1]}→ {fact[0][2]}: “{_cut(fact[0][3])}”" if fact else ""
            out.write(f"| {i} | {_md(name)} | {typ} | {_md(', '.join(aliases or []))} | {_md(said)} |\n")
        out.write("\n")
    if args.facts:
        rows = graph.ro_query("MATCH (a:Entity)-[r:FACT {collection_id: $c}]->(b:Entity) RETURN r.id, a.name, a.type, "
                              "r.relation, r.raw, b.name, b.type, r.valid_from, r.valid_until, r.sentence ORDER BY r.id",
                              {"c": cid}).result_set
        out.write("| # | subject | relation (raw) | object | dates | sentence |\n| --- | --- | --- | --- | --- | --- |\n")
        for i, (_, a, at, rel, raw, b, bt, vf, vu, sent) in enumerate(rng.sample(rows, min(args.facts, len(rows))), 1):
            dates = f"{vf or ''}{' → ' + vu if vu else ''}"
            out.write(f"| {i} | {_md(a)} ({at}) | {rel} ({_md(raw or '')}) | {_md(b)} ({bt}) | {dates} | "
                      f"{_md(_cut(sent))} |\n")
    return 0


def _cut(text: str | None, n: int = 220) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


if __name__ == "__main__":
    raise SystemExit(main())
