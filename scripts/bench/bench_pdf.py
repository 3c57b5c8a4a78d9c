"""PDF parse speed (issue 30): pages per second of ``parse_pdf`` on a generated 100-page PDF, with and
without OCR, and the OCR engine's seconds per page.

- text: 100 text pages (running header, page numbers, a heading every tenth page, a table every
  twentieth: the structure the reader looks for), parsed ``--rounds`` times; pages/s = 100 / wall s,
  median over rounds. Target ≥ 20 pages/s.
- ocr: the same length with every tenth page a scan (a picture of text, no text layer): the text pages
  plus 10 pages through PDFium rendering and Tesseract; pages/s over all 100 pages, median over rounds,
  and seconds per OCR'd page. Skipped (and said) when tesseract is not installed.
Documents are built with reportlab (tests/utils/pdf_build.py). Usage: python -m scripts.bench.bench_pdf [--rounds 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.common import machine_facts, median, rounded, target, write_results

PAGES = 100
MIN_TEXT_PAGES_S = 20.0


def build(scan_every: int = 0) -> bytes:
    from tests.utils.pdf_build import LOREM, Pdf, text_image

    pdf = Pdf(title="Benchmark report", running="Benchmark report — generated")
    for n in range(PAGES):
        if n:
            pdf.page()
        if scan_every and n % scan_every == scan_every - 1:
            from reportlab.lib.utils import ImageReader

            lines = [f"Scanned page {n + 1}: the survey counted herons,", "egrets and bitterns along the river."] * 6
            pdf.c.drawImage(ImageReader(text_image(lines)), 0, 0, width=595, height=842)
            continue
        if n % 10 == 0:
            pdf.heading(f"Chapter {n // 10 + 1}", 18)
        if n % 20 == 5:
            pdf.table([["Site", "Count"], ["North", str(n)], ["South", str(2 * n)]])
        for _ in range(5):
            pdf.paragraph(LOREM)
    return pdf.bytes()


def measure(data: bytes, rounds: int) -> dict[str, Any]:
    from services.ingest.parsing import parse_pdf

    walls, cpus, ocr_pages = [], [], 0
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        parsed = parse_pdf(data, "bench.pdf")
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        ocr_pages = len(parsed.extra.get("ocr_pages") or [])  # type: ignore[arg-type]
    wall = median(walls)
    return {"pages": PAGES, "pages_per_s": PAGES / wall, "wall_s": walls, "cpu_s_in_process": cpus,
            "ocr_pages": ocr_pages, "chars": len(parsed.text)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    started, machine = time.time(), machine_facts()
    from services.ingest import pdf_ocr

    figures: dict[str, Any] = {"text": measure(build(), args.rounds)}
    notes = []
    if pdf_ocr.available():
        ocr = measure(build(scan_every=10), args.rounds)
        text_share = (PAGES - ocr["ocr_pages"]) / figures["text"]["pages_per_s"]
        ocr["s_per_ocr_page"] = (median(ocr["wall_s"]) - text_share) / max(ocr["ocr_pages"], 1)
        ocr["languages"] = pdf_ocr.languages()
        figures["ocr"] = ocr
    else:
        notes.append("tesseract is not installed: OCR not measured (make ocr-deps).")
    targets = [target("text PDF pages/s (100 pages, median)", figures["text"]["pages_per_s"], MIN_TEXT_PAGES_S,
                      "pages/s", lower_is_better=False)]
    method = [__doc__.split("\n\n")[0]]
    path = write_results("pdf", rounded(figures), started=started, targets=targets, notes=notes, method=method,
                         machine=machine)
    for name, f in figures.items():
        extra = f", {f['s_per_ocr_page']:.2f} s per OCR'd page" if "s_per_ocr_page" in f else ""
        print(f"{name}: {f['pages_per_s']:.1f} pages/s (median of {args.rounds}){extra}")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
