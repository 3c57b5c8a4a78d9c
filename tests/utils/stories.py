"""Shared test stories on the real stores."""

from __future__ import annotations

import uuid

from services.ingest.requests import text_request

ACME_CEOS = (("Alice", 2019), ("Bob", 2021), ("Carol", 2023))


def make_acme(services) -> str:
    """Three documents dated 2019, 2021 and 2023 naming Alice, Bob, then Carol CEO of Acme; returns the collection."""
    name = f"acme-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Who ran Acme, and when.",
                                metadata_schema={"custom": {"date": {"type": "date"}}})
    for who, year in ACME_CEOS:
        services.ingestion.run(text_request(name, title=f"Acme {year}", text=f"{who} is the CEO of Acme.",
                                            metadata={"date": f"{year}-03-01"}))
    return name


ZORBEX = [
    ("Founding", "Ivana Petrova founded Zorbex in 2001. Zorbex designs industrial sensors."),
    ("Hobby", "Ivana Petrova grows tomatoes in a greenhouse near Oslo every summer."),
    ("Weather", "Heavy rain fell on the coast of Portugal during the autumn storms."),
    ("Cooking", "A good risotto needs constant stirring and warm stock added slowly."),
]


def make_zorbex(services) -> tuple[str, dict[str, int]]:
    """A founder, her hobby (reachable only through the graph) and two distractors; returns (collection, ids)."""
    name = f"zorbex-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Two-hop fixture for Ask.")
    ids = {title: services.ingestion.run(text_request(name, title=title, text=text)).items[0]["document_id"]
           for title, text in ZORBEX}
    return name, ids


DISTRACTORS = [
    ("Summer gardens", "Gardeners grow beans and squash in summer; a summer garden needs water every day."),
    ("Founders", "The founder of a company often grows it from a garage into a large firm."),
    ("Greenhouses", "A greenhouse keeps plants warm, so growers can grow peppers before summer."),
    ("Sensors", "Industrial sensors measure pressure and heat in factories and pipelines."),
    ("Oslo", "Oslo is the capital of Norway and lies at the head of the Oslofjord."),
    ("Harvest", "Farmers in Portugal harvest grapes at the end of summer for wine."),
    ("Startups", "Many startups founded in 2001 designed software rather than hardware."),
    ("Tomato history", "Tomatoes came to Europe from the Americas in the sixteenth century."),
]




def make_zorbex_among_distractors(services) -> str:
    """Zorbex's four passages and eight that share the question's words or topics but not its answer: a
    collection where the first-hop lists, the feedback list and the walk rank differently; returns its name."""
    name = f"hops-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Two hops among distractors.")
    for title, text in ZORBEX + DISTRACTORS:
        services.ingestion.run(text_request(name, title=title, text=text))
    return name


FIRST = ("Alice", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiroshi", "Ingrid", "Jonas")
LAST = ("Walker", "Moreau", "Rossi", "Ivanov", "Garcia", "Haddad", "Larsen", "Tanaka")


def make_hub(services, documents: int = 5, people_per_document: int = 15) -> str:
    """Acme Corporation hires 75 people over 5 documents; 5 notes say only that it "is a conglomerate" (a
    document that relates its topic to no named thing keeps that class as its one fact: a concept in half the
    documents, generic); Alice Walker also founded Globex, twice over (one route, two facts)."""
    name = f"hub-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="A hub with many spokes.")
    people = [f"{f} {last}" for last in LAST for f in FIRST]
    for d in range(documents):
        hires = people[d * people_per_document:(d + 1) * people_per_document]
        lines = [f"Acme Corporation hired {who}." for who in hires]
        if d == 0:
            lines += ["Alice Walker founded Globex.", "Alice Walker also led Globex."]
        services.ingestion.run(text_request(name, title=f"Hiring report {d + 1}", text=" ".join(lines)))
        ordinal = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")[d % 8]
        services.ingestion.run(text_request(name, title=f"Filing {d + 1}",
                                            text=f"Acme Corporation is a conglomerate, the {ordinal} filing says."))
    return name
