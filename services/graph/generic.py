"""When an entity is a generic concept ("time", "law", "power") rather than something worth following.

One rule for every place that needs it: the graph walk that ranks passages for
Ask (seeds and walks leave generic concepts out) and the Graph page's canvas
(which folds them away). The rule is measured, not a word list: a CONCEPT (a
common-noun phrase, not a named entity) is generic when it appears in a large
share of the collection's documents, i.e. when its inverse document frequency is
low. Named entities are never generic here, however often they occur ("United
States" in every State of the Union address is still the United States); the
walk weights them by specificity instead.
"""

from __future__ import annotations

import math

CONCEPT = "CONCEPT"
# A concept in more than this share of the documents carries less than log(1/share) nats of
# information about which document it came from (the threshold is measured in docs/evaluation.md).
GENERIC_DOCUMENT_SHARE = 0.2
MIN_DOCUMENTS = 3  # in a collection of a few documents, nothing is "everywhere" yet


def idf(document_frequency: int, documents: int) -> float:
    """Smoothed inverse document frequency, ln(1 + N / df): high for rare entities, ~0.7 for ubiquitous ones."""
    return math.log(1.0 + max(documents, 1) / max(document_frequency, 1))


def is_generic(entity_type: str, document_frequency: int, documents: int) -> bool:
    """True for a concept that appears in more than GENERIC_DOCUMENT_SHARE of at least MIN_DOCUMENTS documents."""
    if entity_type != CONCEPT or document_frequency < MIN_DOCUMENTS:
        return False
    return document_frequency > GENERIC_DOCUMENT_SHARE * max(documents, 1)
