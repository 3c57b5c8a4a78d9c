"""Which highlighted words are forms of the query's words (pure functions)."""

import pytest

from services.retrieval.word_forms import is_form_of_query, query_bases


@pytest.mark.parametrize(("query", "word", "expected"), [
    ("imports", "imported", True), ("imports", "importing", True), ("imports", "Import", True),
    ("imports", "important", False), ("imports", "importance", False),
    ("telescopes", "telescope", True), ("running", "runs", True), ("studies", "studied", True),
    ("houses", "house", True), ("class", "classes", True), ("tariff", "tariffs", True),
    ("café", "Cafés", True), ("nation", "national", False),
])
def test_forms_of_a_query_word(query, word, expected):
    assert is_form_of_query(word, query_bases(query)) is expected
