"""The graph step's segments: they cover the text in order and cut at a paragraph, else a sentence, else a space."""

from services.graph.segments import SEGMENT_CHARS, segments


def _joined(text: str) -> str:
    pieces = list(segments(text))
    assert all(len(p) <= SEGMENT_CHARS for _, p in pieces)
    assert [s for s, _ in pieces] == [sum(len(p) for _, p in pieces[:i]) for i in range(len(pieces))]
    return "".join(p for _, p in pieces)


def test_a_text_without_paragraphs_is_cut_between_sentences() -> None:
    # an address of the 1840s: one paragraph of long sentences (the cut once began a segment "he Republic of Mexico")
    sentence = ("An act declaring that, by the act of the Republic of Mexico, a state of war exists between that "
                "Government and the United States was passed by Congress with great unanimity. ")
    text = sentence * 80
    assert _joined(text) == text
    for _, piece in list(segments(text))[1:]:
        assert piece.startswith("An act declaring")


def test_a_paragraph_break_is_preferred() -> None:
    text = ("word " * 700) + "\n\n" + ("Another sentence here. " * 200)
    first = next(segments(text))[1]
    assert first.endswith("word ") and len(first) == 3500


def test_a_text_without_sentences_is_cut_at_a_space() -> None:
    text = "lorem ipsum dolor " * 600
    assert _joined(text) == text
    assert all(p.endswith(" ") for _, p in list(segments(text))[:-1])


def test_one_unbroken_word_is_still_cut() -> None:
    text = "x" * (SEGMENT_CHARS * 2 + 7)
    assert _joined(text) == text
