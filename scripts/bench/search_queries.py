"""The search benchmark's queries: short topical ones a user would type about the speeches, and long
natural-language questions (HotpotQA), so both cheap and expensive keyword queries are in the mix."""

from __future__ import annotations

import json

from scripts.bench.common import SHARED_DATA

TOPICAL = [
    "tariff on imported goods", "abolition of slavery", "the Panama Canal", "war with Mexico", "national debt",
    "Indian tribes and treaties", "gold standard and silver coinage", "railroad construction", "civil service reform",
    "League of Nations", "Great Depression unemployment", "Social Security", "nuclear weapons and arms control",
    "Soviet Union", "space exploration", "civil rights legislation", "health insurance for every American",
    "terrorism and homeland security", "climate change and clean energy", "immigration reform",
    "income tax", "Federal Reserve", "farm prices and agriculture", "public schools and education",
    "veterans pensions", "the Marshall Plan", "Vietnam", "trade deficit with China", "balanced budget",
    "opioid epidemic",
]


def load_queries(n: int = 80) -> list[str]:
    """The topical queries, then HotpotQA questions (when ../shared/data/hotpotqa-100 is there) up to ``n``."""
    queries = list(TOPICAL)
    path = SHARED_DATA / "hotpotqa-100" / "questions.json"
    if path.exists():
        queries += [q["question"] for q in json.loads(path.read_text(encoding="utf-8"))]
    return queries[:n]
