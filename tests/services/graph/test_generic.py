"""The generic-concept rule shared by the graph walk and the Graph page's canvas."""

from services.graph.generic import idf, is_generic


def test_only_frequent_concepts_are_generic():
    assert is_generic("CONCEPT", 60, 233)  # "law" in 60 of 233 addresses
    assert not is_generic("CONCEPT", 20, 233)  # "tariff" in 20 of them
    assert not is_generic("GPE", 233, 233)  # a named entity is never generic, even everywhere
    assert not is_generic("CONCEPT", 2, 2)  # two documents: too few to call anything ubiquitous


def test_idf_falls_with_document_frequency():
    assert idf(1, 1000) > idf(10, 1000) > idf(1000, 1000) > 0
