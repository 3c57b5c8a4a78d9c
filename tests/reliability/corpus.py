"""Generated bad files: real bytes a user could upload or leave in a folder, built in memory.

Every builder returns the file's bytes; nothing is downloaded and nothing is mocked.
"""

from __future__ import annotations

import gzip
import io
import random
import struct
import zipfile
import zlib

import docx

MB = 1024 * 1024


def good_docx(text: str = "The lighthouse keeper trims the wick at dusk.") -> bytes:
    document = docx.Document()
    document.add_heading("Keeping the light", level=1)
    document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def empty_docx() -> bytes:
    """A valid Word file whose paragraphs are all blank."""
    document = docx.Document()
    document.add_paragraph("   ")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _rewrite_docx(replace: dict[str, bytes]) -> bytes:
    """A copy of :func:`good_docx` with some of its parts replaced."""
    source = zipfile.ZipFile(io.BytesIO(good_docx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info, replace.get(info.filename, source.read(info.filename)))
    return out.getvalue()


def docx_with_broken_xml() -> bytes:
    return _rewrite_docx({"word/document.xml": b'<?xml version="1.0"?><w:document xmlns:w="x"><w:body><w:p>'})


def source_xml() -> str:
    """document.xml of a one-paragraph document whose text is KEEPER."""
    return zipfile.ZipFile(io.BytesIO(good_docx("KEEPER"))).read("word/document.xml").decode()


def docx_billion_laughs() -> bytes:
    """document.xml with nested entity definitions (a billion-laughs bomb) instead of text."""
    entities = '<!ENTITY l0 "lol">' + "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    xml = source_xml().replace("?>", f"?><!DOCTYPE w:document [{entities}]>", 1).replace("KEEPER", "&l9;")
    return _rewrite_docx({"word/document.xml": xml.encode()})


def zip_without_word() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("readme.txt", "I am a zip file, not a Word document.")
    return out.getvalue()


def docx_zip_bomb(expanded: int = 60 * MB) -> bytes:
    """A .docx whose document.xml inflates from a few kB to ``expanded`` bytes of zeros."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("word/document.xml", "w") as fh:
            block = b"\0" * MB
            for _ in range(expanded // MB):
                fh.write(block)
    return out.getvalue()


def docx_lying_zip_bomb() -> bytes:
    """A bomb whose central directory claims a small size: the real entry inflates to 60 MB."""
    data = bytearray(docx_zip_bomb())
    name = b"word/document.xml"
    at = data.find(b"PK\x01\x02")
    while at != -1:
        name_len = struct.unpack_from("<H", data, at + 28)[0]
        if bytes(data[at + 46 : at + 46 + name_len]) == name:
            struct.pack_into("<I", data, at + 24, 4096)  # uncompressed size: "only 4 kB"
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


def encrypted_docx(password: str = "open-sesame") -> bytes:
    """A real password-protected .docx (ECMA-376 agile encryption, as Word writes it)."""
    from msoffcrypto.format.ooxml import OOXMLFile

    out = io.BytesIO()
    OOXMLFile(io.BytesIO(good_docx())).encrypt(password, out)
    return out.getvalue()


def docx_with_damaged_part(part: str) -> bytes:
    """:func:`good_docx` with ``part`` stored uncompressed and one byte of it changed: its checksum no longer matches."""
    source = zipfile.ZipFile(io.BytesIO(good_docx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            kind = zipfile.ZIP_STORED if info.filename == part else zipfile.ZIP_DEFLATED
            target.writestr(info.filename, source.read(info.filename), kind)
    data = bytearray(out.getvalue())
    body = source.read(part)
    at = data.find(body[len(body) // 2 : len(body) // 2 + 40])
    assert at > 0
    data[at] ^= 0x20  # a flipped bit, as a bad disk or a broken download leaves it
    return bytes(data)


def ole_file() -> bytes:
    """The header of an OLE compound file: an encrypted .docx or an old binary .doc."""
    return b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(random.Random(7).randrange(256) for _ in range(4096))


def random_bytes(size: int = 8192, *, seed: int = 11, nul: bool = True) -> bytes:
    rnd = random.Random(seed)
    low = 0 if nul else 1
    return bytes(rnd.randrange(low, 256) for _ in range(size))


def text_pdf(text: str = "Lighthouse keepers trim the wick at dusk.") -> bytes:
    """A minimal valid one-page PDF with Helvetica text (objects and xref offsets written by hand)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("latin-1")
    return _pdf(stream, b"")


def _pdf(stream: bytes, stream_dict: bytes) -> bytes:
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d %s>>\nstream\n" % (len(stream), stream_dict) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def pdf_stream_bomb(expanded: int = 80 * MB) -> bytes:
    """A PDF whose page content is a Flate stream inflating to ``expanded`` bytes."""
    packer = zlib.compressobj(9)
    body = bytearray(packer.compress(b"BT /F1 12 Tf 72 720 Td (bomb) Tj ET\n"))
    block = b" " * MB
    for _ in range(expanded // MB):
        body += packer.compress(block)
    body += packer.flush()
    return _pdf(bytes(body), b"/Filter /FlateDecode ")


def blank_pdf() -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def encrypted_pdf(user_password: str) -> bytes:
    """:func:`text_pdf` encrypted (AES-128); with an empty user password anyone may open it."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf())))
    writer.encrypt(user_password, "owner-secret", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def nested_html(depth: int = 5000) -> bytes:
    return ("<html><body>" + "<div>" * depth + "deep text" + "</div>" * depth + "</body></html>").encode()


def png_bytes() -> bytes:
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + random_bytes(2048, seed=3)


def elf_bytes() -> bytes:
    return b"\x7fELF\x02\x01\x01" + b"\x00" * 9 + random_bytes(4096, seed=5)


def gzip_bytes() -> bytes:
    return gzip.compress(b"compressed words " * 500)
