"""Search hits as an analyst reads them (AppTest on the real stores)."""

from __future__ import annotations

import re

from tests.utils.app import open_page


def _search(at, query: str, scope: str, *, mode: str = "hybrid") -> list:
    at.text_input(key="search.query").set_value(query)
    at.multiselect(key="search.scope").set_value([scope])
    at.radio(key="search.mode").set_value(mode)
    at.slider(key="search.threshold").set_value(-1.0)
    next(b for b in at.button if b.label == "Search").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at.session_state["search.response"].hits


def test_two_hybrid_hits_never_give_the_same_rank(zorbex_and_distractors):
    """Hybrid interleaves two lists, so the n-th of each both score 1/n: each hit says which list placed it
    where, and no two hits read alike (two read "best rank 3" before; issue 34)."""
    at = open_page("search")
    hits = _search(at, "What does the founder of Zorbex grow in summer?", zorbex_and_distractors)
    scores = [h.score for h in hits]
    assert len(set(scores)) < len(scores)  # the case: two hits, each placed n-th by one of the two lists
    details = [e for e in at.expander if e.label == "Scores and position"]
    texts = [" · ".join(c.value for c in e.caption) for e in details]
    accounts = [tuple(re.findall(r"rank[^·]*", t.replace("*", ""))) for t in texts]
    assert len(accounts) == len(hits), texts
    assert len(set(accounts)) == len(accounts), texts
