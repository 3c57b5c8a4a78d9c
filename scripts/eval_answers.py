"""The offline answer on hotpotqa-100: does its text contain the gold answer, and does it cite the gold passages?

For each question, Ask runs as a user would call it (a new conversation, the hotpotqa collection, no LLM)
and two things are scored:

- **containment**: the gold answer, normalised (lower case, punctuation and the articles a/an/the dropped,
  spaces collapsed), is a substring of the answer's quoted sentences, normalised the same way. Yes/no
  questions are left out (an extractive answer quotes, it does not say yes or no). The sentences are scored
  without the source labels the answer puts before them: a label is a passage's title, and in hotpotqa the
  title of the second hop is often the gold answer itself, so counting labels would credit naming a source,
  not answering.
- **source recall**: the share of the question's gold supporting titles among the titles of the passages
  the answer cites (every question, yes/no included).

Reported on the first 50 questions (where rules were chosen), the last 50 (held out) and all 100.
Run by scripts/eval_retrieval.py (``make eval``); alone: ``python -m scripts.eval_answers --keep DIR``.
"""

from __future__ import annotations

import re
import statistics
import time
import unicodedata
from typing import Any

from services.container import Services

YES_NO = {"yes", "no"}
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"[^a-z0-9 ]+", " ", text)
    return " ".join(_ARTICLES.sub(" ", text).split())


def quoted_text(answer: Any) -> str:
    """What the answer quotes: its sentences without the source labels (the text itself before they existed)."""
    sentences = getattr(answer, "sentences", None)
    return " ".join(sentences) if sentences else str(answer.text)


def score(svc: Services, collection: str, item: dict[str, Any]) -> dict[str, Any]:
    t0 = time.perf_counter()
    result = svc.ask.ask(item["question"], collections=[collection])
    ms = (time.perf_counter() - t0) * 1000
    gold_titles = {title for title, _ in item["supporting_facts"]}
    by_id = {c.chunk_id: c.title for c in result.context}
    cited = {by_id[cid] for cid in result.answer.citations.values() if cid in by_id}
    gold = normalise(item["answer"])
    contained = None if gold in YES_NO else (f" {gold} " in f" {normalise(quoted_text(result.answer))} ")
    answer_ms = float(result.diagnostics.get("timings_ms", {}).get("answer", 0.0))
    return {"contained": contained, "source_recall": len(gold_titles & cited) / len(gold_titles), "ms": ms,
            "answer_ms": answer_ms, "text": result.answer.text}


def evaluate(svc: Services, collection: str, questions: list[dict[str, Any]], *,
             verbose: bool = False) -> list[dict[str, Any]]:
    rows = []
    for i, item in enumerate(questions):
        row = score(svc, collection, item)
        rows.append(row)
        if verbose:
            mark = {True: "+", False: "-", None: "?"}[row["contained"]]
            print(f"{i:3d} {mark} sr {row['source_recall']:.1f} | {item['question'][:70]} => {item['answer']}\n"
                  f"      {row['text'][:400]!r}", flush=True)
    return rows


def table(rows: list[dict[str, Any]], splits: tuple[tuple[str, slice], ...]) -> list[str]:
    lines = ["| split | questions scored for containment | containment | source recall | answer phase ms p50 / p95 |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for name, part in splits:
        chosen = rows[part]
        scored = [r["contained"] for r in chosen if r["contained"] is not None]
        answer_ms = sorted(r["answer_ms"] for r in chosen)
        p95 = answer_ms[min(len(answer_ms) - 1, int(round(0.95 * (len(answer_ms) - 1))))]
        lines.append(f"| {name} | {len(scored)} | {sum(scored) / len(scored):.3f} | "
                     f"{statistics.mean(r['source_recall'] for r in chosen):.3f} | "
                     f"{statistics.median(answer_ms):.0f} / {p95:.0f} |")
    return lines


def main() -> int:
    import argparse
    import json
    import tempfile
    from pathlib import Path

    from scripts.eval_retrieval import COLLECTION, ROOT, SPLITS, ingest
    from services.container import build_services
    from services.settings import Settings
    from services.stores.embedded_postgres import stop_embedded_postgres
    from services.stores.graph_store import stop_embedded_falkordb

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "hotpotqa-100")
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--only", default=None, help="question range, e.g. 0:50")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    corpus = json.loads((args.data / "corpus.json").read_text())
    questions = json.loads((args.data / "questions.json").read_text())
    folder = args.keep or Path(tempfile.mkdtemp(prefix="rag-eval-"))
    svc = build_services(Settings(data_dir=folder))
    try:
        ingest(svc, corpus)
        if args.only:
            start, stop = (int(x) for x in args.only.split(":"))
            rows = evaluate(svc, COLLECTION, questions[start:stop], verbose=args.verbose)
            print("\n".join(table(rows, (("selected", slice(0, len(rows))),))))
        else:
            rows = evaluate(svc, COLLECTION, questions, verbose=args.verbose)
            print("\n".join(table(rows, SPLITS)))
    finally:
        svc.close()
        if args.keep is None:
            stop_embedded_falkordb(folder)
            stop_embedded_postgres(folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
