"""The chunker's slicing rules: exact slices within the size, overlap, heading paths, where to split."""

from __future__ import annotations

import pytest

from services.ingest.chunking import chunk_text


def _sentences(n: int, topic: str = "topic") -> str:
    return " ".join(f"Sentence {i} is about the {topic} and nothing else." for i in range(n))


def _assert_exact_slices(text: str, chunks, size: int) -> None:
    assert chunks, "expected at least one chunk"
    for i, chunk in enumerate(chunks):
        assert chunk.index == i
        assert chunk.text == text[chunk.char_start:chunk.char_end]
        assert 0 < len(chunk.text) <= size
        assert chunk.text.strip(), "a chunk is never blank"


def test_chunks_are_exact_slices_within_size_and_cover_the_text():
    text = "\n\n".join(_sentences(12, f"subject {p}") for p in range(6))
    chunks = chunk_text(text, size=300, overlap=80)
    _assert_exact_slices(text, chunks, 300)
    assert len(chunks) > 5
    covered = set()
    for c in chunks:
        covered.update(range(c.char_start, c.char_end))
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())
    assert [c.char_start for c in chunks] == sorted(c.char_start for c in chunks)


def test_consecutive_chunks_of_one_section_overlap():
    text = _sentences(40)
    chunks = chunk_text(text, size=300, overlap=100)
    _assert_exact_slices(text, chunks, 300)
    assert len(chunks) >= 5
    for prev, nxt in zip(chunks, chunks[1:]):
        assert nxt.char_start < prev.char_end, (prev, nxt)
        overlap = text[nxt.char_start:prev.char_end]
        assert 0 < len(overlap) <= 100
        assert prev.text.endswith(overlap) and nxt.text.startswith(overlap)


def test_no_overlap_when_zero():
    text = _sentences(40)
    chunks = chunk_text(text, size=300, overlap=0)
    _assert_exact_slices(text, chunks, 300)
    for prev, nxt in zip(chunks, chunks[1:]):
        assert nxt.char_start >= prev.char_end


def test_heading_paths_and_headings_start_new_chunks():
    text = (
        "Preamble line before any heading.\n\n"
        "# Alpha\n\nAlpha body text.\n\n"
        "## Beta\n\nBeta body text.\n\n"
        "### Gamma\n\nGamma body text.\n\n"
        "## Delta\n\nDelta body text.\n\n"
        "# Omega ##\n\nOmega body text."
    )
    chunks = chunk_text(text, size=1000, overlap=200)
    _assert_exact_slices(text, chunks, 1000)
    assert [(c.text.split("\n")[0], c.heading_path) for c in chunks] == [
        ("Preamble line before any heading.", ()),
        ("# Alpha", ("Alpha",)),
        ("## Beta", ("Alpha", "Beta")),
        ("### Gamma", ("Alpha", "Beta", "Gamma")),
        ("## Delta", ("Alpha", "Delta")),
        ("# Omega ##", ("Omega",)),
    ]
    assert chunks[1].text == "# Alpha\n\nAlpha body text."


def test_long_section_keeps_its_heading_path_on_every_chunk():
    text = "# Intro\n\n" + _sentences(30, "intro") + "\n\n## Details\n\n" + _sentences(30, "details")
    chunks = chunk_text(text, size=250, overlap=60)
    _assert_exact_slices(text, chunks, 250)
    intro = [c for c in chunks if c.heading_path == ("Intro",)]
    details = [c for c in chunks if c.heading_path == ("Intro", "Details")]
    assert len(intro) > 1 and len(details) > 1 and len(intro) + len(details) == len(chunks)
    assert all("details" not in c.text for c in intro)
    assert all("intro" not in c.text for c in details)
    # Overlap never crosses a heading: the Details section starts at its heading.
    assert details[0].text.startswith("## Details")


def test_single_long_word_is_hard_split():
    word = "x" * 10_000
    chunks = chunk_text(word, size=1000, overlap=200)
    _assert_exact_slices(word, chunks, 1000)
    assert len(chunks) == 10
    assert [(c.char_start, c.char_end) for c in chunks] == [(i * 1000, (i + 1) * 1000) for i in range(10)]


def test_long_sentence_is_split_at_whitespace():
    sentence = " ".join(f"word{i:04d}" for i in range(600))  # one 5399-char sentence, no full stop
    chunks = chunk_text(sentence, size=500, overlap=100)
    _assert_exact_slices(sentence, chunks, 500)
    assert len(chunks) >= 11
    for c in chunks:  # every cut is at a word boundary, never inside a word
        assert c.char_start == 0 or sentence[c.char_start - 1] == " "
        assert c.char_end == len(sentence) or sentence[c.char_end - 1] == " "
        assert c.text.startswith("word")
    assert chunks[-1].char_end == len(sentence)


def test_paragraph_boundaries_are_preferred():
    paragraphs = [_sentences(4, f"para{p}") for p in range(6)]  # ~190 chars each
    text = "\n\n".join(paragraphs)
    chunks = chunk_text(text, size=500, overlap=0)
    _assert_exact_slices(text, chunks, 500)
    starts = {text.index(p) for p in paragraphs}
    assert all(c.char_start in starts for c in chunks)


def test_empty_and_tiny_texts():
    assert chunk_text("", size=100, overlap=10) == []
    assert chunk_text("   \n\n  ", size=100, overlap=10) == []
    (only,) = chunk_text("  Hi.  ", size=100, overlap=10)
    assert (only.text, only.char_start, only.char_end) == ("Hi.", 2, 5)


def test_overlap_must_be_smaller_than_size():
    with pytest.raises(ValueError):
        chunk_text("text", size=100, overlap=100)


def test_hash_lines_inside_fenced_code_are_not_headings():
    text = (
        "# Sorting\n\nSort a list.\n\n"
        "```python\n# sort by age\nsorted(people, key=age)\n\n# newest first\n```\n\n"
        "More text.\n\n"
        "~~~~\n## a tilde fence\n```\n# still code: a shorter or other fence does not close it\n~~~~\n\n"
        "## Keys\n\nKey functions.\n\n"
        "````\n# an unclosed fence runs to the end\n"
    )
    chunks = chunk_text(text, size=1000, overlap=0)
    _assert_exact_slices(text, chunks, 1000)
    assert [c.heading_path for c in chunks] == [("Sorting",), ("Sorting", "Keys")]
    assert "# newest first" in chunks[0].text and "# still code" in chunks[0].text
