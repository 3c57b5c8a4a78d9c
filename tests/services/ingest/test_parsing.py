"""Parsing real bytes: text encodings, HTML, .docx and zip bombs (the chunker's rules: test_chunking.py)."""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

import docx
import pytest

from services.errors import UnsupportedInput
from services.ingest.parsing import decode_text, html_to_text, parse_bytes, read_file

MB = 1024 * 1024
LIMIT = 10 * MB


# -- decode_text --------------------------------------------------------------------------------


def test_decode_utf8_and_utf8_bom():
    text = "Grüße aus Köln — naïve café ✓\nSecond line."
    assert decode_text(text.encode("utf-8"), "a.txt") == text
    assert decode_text(b"\xef\xbb\xbf" + text.encode("utf-8"), "a.txt") == text


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_decode_utf16_with_bom(codec):
    text = "Ünïcödé text in UTF-16.\nWith a second line."
    data = text.encode(codec)
    if codec != "utf-16":  # add the BOM explicitly for the endian-specific codecs
        data = ("\ufeff" + text).encode(codec)
    assert data[:2] in (b"\xff\xfe", b"\xfe\xff")
    assert decode_text(data, "a.txt").lstrip("\ufeff") == text


def test_decode_latin1_via_detection():
    text = ("The café served crème brûlée and a jalapeño omelette. "
            "The naïve résumé was written in a hurry by the señor.\n") * 3
    data = text.encode("latin-1")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert decode_text(data, "menu.txt") == text


def test_decode_german_latin1_via_detection():
    text = "Müller aß große Äpfel und trank süßen Saft. Die Straße war schön und der Fluß ruhig.\n" * 2
    assert decode_text(text.encode("latin-1"), "de.txt") == text


def test_nul_bytes_are_refused():
    with pytest.raises(UnsupportedInput, match="NUL bytes"):
        decode_text(b"looks like text\x00\x00but is not", "x.txt")


@pytest.mark.parametrize("data", [b"", b"   \n\t  "])
def test_empty_text_is_refused(data):
    with pytest.raises(UnsupportedInput, match="empty|no text"):
        decode_text(data, "e.txt")


def test_random_binary_renamed_txt_is_refused():
    rnd = random.Random(1234)
    with_nuls = bytes(rnd.randrange(256) for _ in range(8192))
    with pytest.raises(UnsupportedInput, match="x.txt"):
        parse_bytes(with_nuls, "x.txt", max_bytes=LIMIT)
    without_nuls = bytes(rnd.randrange(1, 256) for _ in range(8192))
    assert b"\x00" not in without_nuls
    with pytest.raises(UnsupportedInput, match="y.txt"):
        parse_bytes(without_nuls, "y.txt", max_bytes=LIMIT)


def test_control_characters_are_refused():
    data = bytes([1, 2, 3, 4, 5, 6, 7, 8, 14, 15]) * 50 + b"some text"
    with pytest.raises(UnsupportedInput, match="control characters"):
        decode_text(data, "c.txt")


@pytest.mark.parametrize("data", [b"\xef\xbb\xbf\n\n", b"\xff\xfe", "  \n".encode("utf-16")])
def test_blank_text_behind_bom_is_refused(data):
    with pytest.raises(UnsupportedInput, match="empty|no text"):
        parse_bytes(data, "blank.txt", max_bytes=LIMIT)


# -- parse_bytes: types and limits --------------------------------------------------------------


def test_markdown_and_text_pass_through():
    md = "# Title\n\nBody text.\n"
    assert parse_bytes(md.encode(), "notes.md", max_bytes=LIMIT).text == md
    assert parse_bytes(b"plain", "notes.TXT", max_bytes=LIMIT).text == "plain"


@pytest.mark.parametrize("name", ["data.bin", "archive.zip", "noext", "image.png"])
def test_unsupported_suffix(name):
    with pytest.raises(UnsupportedInput, match="unsupported file type"):
        parse_bytes(b"hello", name, max_bytes=LIMIT)


def test_oversize_bytes_are_refused_with_the_limit():
    data = b"a" * (MB + MB // 2)
    with pytest.raises(UnsupportedInput, match=r"1\.5 MB is over the 1 MB limit \(max_file_bytes\)"):
        parse_bytes(data, "big.txt", max_bytes=MB)
    assert parse_bytes(b"a" * MB, "fits.txt", max_bytes=MB).text == "a" * MB


def test_oversize_file_on_disk_is_refused_before_reading(tmp_path: Path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"word " * (MB // 2))  # 2.5 MB
    with pytest.raises(UnsupportedInput, match=r"big\.txt: 2\.5 MB is over the 1 MB limit \(max_file_bytes\)"):
        read_file(path, max_bytes=MB)
    with pytest.raises(UnsupportedInput, match="cannot be read"):
        read_file(tmp_path / "missing.txt", max_bytes=MB)


# -- HTML ---------------------------------------------------------------------------------------

PAGE = """<!doctype html><html><head><title>Page Title</title>
<script>var secret = 'SCRIPTTEXT';</script><style>.x { color: red }</style></head>
<body>
<nav><a href="/">NAVLINK</a> <a href="/about">About</a></nav>
<header>HEADERTEXT</header>
<h1>Main   Heading</h1>
<p>First paragraph with <b>bold</b> and <a href="#">a link</a>.</p>
<h2>Sub heading</h2>
<p>Second paragraph.</p>
<ul><li>Item one</li><li>Item two</li></ul>
<h3>Third level</h3><div>Div text</div>
<footer>FOOTERTEXT</footer>
<script>alert('MORESCRIPT')</script>
</body></html>"""


def test_html_headings_become_hashes_and_chrome_is_removed():
    parsed = parse_bytes(PAGE.encode(), "page.html", max_bytes=LIMIT)
    assert parsed.title_hint == "Page Title"
    assert parsed.text.split("\n\n") == [
        "# Main Heading",
        "First paragraph with bold and a link.",
        "## Sub heading",
        "Second paragraph.",
        "- Item one\n- Item two",
        "### Third level",
        "Div text",
    ]
    for chrome in ("SCRIPTTEXT", "MORESCRIPT", "NAVLINK", "HEADERTEXT", "FOOTERTEXT", "color: red", "Page Title"):
        assert chrome not in parsed.text


def test_html_only_chrome_has_no_readable_text():
    with pytest.raises(UnsupportedInput, match="no readable text"):
        parse_bytes(b"<html><body><nav>menu</nav><script>x()</script></body></html>", "p.htm", max_bytes=LIMIT)


def test_deeply_nested_html_does_not_crash():
    depth = 5000
    html = "<html><body><h1>Top</h1><p>before</p>" + "<div>" * depth + "deep" + "</div>" * depth + "</body></html>"
    try:
        parsed = html_to_text(html, "deep.html")
    except UnsupportedInput as exc:  # refusing cleanly is acceptable
        assert "deep.html" in str(exc)
    else:
        assert parsed.text.startswith("# Top\n\nbefore")


def test_deeply_nested_html_is_not_silently_truncated():
    depth = 300
    html = "<html><body><p>before</p>" + "<div>" * depth + "deep" + "</div>" * depth + "<p>after</p></body></html>"
    with pytest.raises(UnsupportedInput, match="nested deeper"):
        html_to_text(html, "deep.html")


# -- .docx --------------------------------------------------------------------------------------


def _docx_bytes(tmp_path: Path) -> bytes:
    document = docx.Document()
    document.core_properties.title = "Quarterly Report"
    document.add_heading("Introduction", level=1)
    document.add_paragraph("The first paragraph explains the purpose.")
    document.add_heading("Fruit", level=2)
    document.add_paragraph("Apples", style="List Bullet")
    document.add_paragraph("Pears", style="List Number")
    table = document.add_table(rows=2, cols=2)
    for (r, c), value in {(0, 0): "Name", (0, 1): "Qty", (1, 0): "Apple", (1, 1): "3"}.items():
        table.cell(r, c).text = value
    document.add_paragraph("")  # empty paragraphs are dropped
    document.add_paragraph("Closing words.")
    path = tmp_path / "report.docx"
    document.save(str(path))
    return path.read_bytes()


def test_docx_headings_lists_and_tables(tmp_path: Path):
    parsed = parse_bytes(_docx_bytes(tmp_path), "report.docx", max_bytes=LIMIT)
    assert parsed.title_hint == "Quarterly Report"
    assert parsed.text == (
        "# Introduction\n\n"
        "The first paragraph explains the purpose.\n\n"
        "## Fruit\n\n"
        "- Apples\n\n"
        "- Pears\n\n"
        "| Name | Qty |\n| Apple | 3 |\n\n"
        "Closing words."
    )


def test_docx_read_from_disk(tmp_path: Path):
    data = _docx_bytes(tmp_path)
    assert read_file(tmp_path / "report.docx", max_bytes=LIMIT).text.startswith("# Introduction")
    assert len(data) > 1000


def _rezip(data: bytes, replace: dict[str, bytes | None]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename in replace:
                if replace[info.filename] is not None:
                    zout.writestr(info.filename, replace[info.filename])
            else:
                zout.writestr(info, zin.read(info))
    return out.getvalue()


@pytest.mark.parametrize("case, message", [
    ("empty", "the file is empty"),
    ("truncated", "not a valid .docx (the file is corrupt, truncated or not a Word file)"),
    ("not_zip", "not a valid .docx (the file is corrupt, truncated or not a Word file)"),
    ("corrupt_xml", "the file is damaged: word/document.xml, which holds the document's text, is not well-formed XML"),
    ("no_document_xml", "not a Word document (no word/document.xml inside)"),
    ("ole", "this is an OLE file (an older Office format), not a .docx"),
])
def test_bad_docx_is_refused_with_clear_message(tmp_path: Path, case: str, message: str):
    good = _docx_bytes(tmp_path)
    data = {
        "empty": lambda: b"",
        "truncated": lambda: good[: len(good) // 2],
        "not_zip": lambda: b"This is plain text, saved with a .docx name.\n" * 20,
        "corrupt_xml": lambda: _rezip(good, {"word/document.xml": b"<w:document><unclosed"}),
        "no_document_xml": lambda: _rezip(good, {"word/document.xml": None}),
        "ole": lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512,
    }[case]()
    with pytest.raises(UnsupportedInput) as info:
        parse_bytes(data, "bad.docx", max_bytes=LIMIT)
    assert str(info.value) == f"bad.docx: {info.value.reason}" and info.value.reason.startswith(message)


def test_docx_zip_bomb_is_refused(tmp_path: Path):
    path = tmp_path / "bomb.docx"
    zero = b"\x00" * MB
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("word/document.xml", "<w:document/>")
        with zf.open("word/media/padding.bin", "w", force_zip64=True) as member:
            for _ in range(250):
                member.write(zero)
    data = path.read_bytes()
    assert len(data) < 2 * MB  # small on disk, 250 MB inside
    with pytest.raises(UnsupportedInput, match="refused, it would expand to 250 MB"):
        parse_bytes(data, "bomb.docx", max_bytes=LIMIT)
