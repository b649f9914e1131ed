# Both main targets build .venv from nothing on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play

.PHONY: play serve serve-many test check compiled-copy lint bench bench-engine compiled pure dist clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,tui]'
	touch $(STAMP)

# `make play` installs only what the table needs (numpy, Textual), so a fresh machine reaches it quickly.
$(PLAY_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[tui]'
	touch $(PLAY_STAMP)

# Options for `scmj play` pass through ARGS: make play ARGS="--rules app --lang en".
ARGS ?=
play: $(PLAY_STAMP)
	$(BIN)/scmj play $(ARGS)

# `make serve` installs only what the web table needs (Starlette, uvicorn, websockets) and starts it.
SERVE_STAMP := $(VENV)/.installed-serve
$(SERVE_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[web]'
	touch $(SERVE_STAMP)

PORT ?= 8000
serve: $(SERVE_STAMP)
	@echo "The web table: open http://127.0.0.1:$(PORT)/ (Ctrl-C stops it)"
	$(BIN)/scmj serve --host 127.0.0.1 --port $(PORT)

# `make serve-many`: WORKERS `scmj serve --worker K/N` processes behind nginx (Debian's, run in the foreground
# with deploy/nginx.conf.in filled in), on one PostgreSQL (a cluster of its own in build/serve-many/pg, kept
# between runs; apt-get install nginx postgresql), all on 127.0.0.1: nginx on PORT, the workers on the next ports.
WORKERS ?= 2
SERVE_MANY_STAMP := $(VENV)/.installed-serve-many
$(SERVE_MANY_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[web,postgres]'
	touch $(SERVE_MANY_STAMP)

serve-many: $(SERVE_MANY_STAMP)
	$(BIN)/python scripts/serve_many.py --workers $(WORKERS) --port $(PORT)

# The checks (ruff, mypy --strict, the import contract) and the compiled copy of the package (scripts/compile.py
# --into, mypyc: docs/rl.md "Speed"; about 3 min on one core) run side by side, each on one of the machine's two
# cores. Then pytest on two workers (pytest-xdist); then the tests again against the compiled copy, all but the
# page's browser tests (tests/web: the page and its layout in chromium, no engine code of their own; the server
# under them is tested compiled by tests/server); then a 30 s slice of the soak (scripts/soak.py, docs/engine.md),
# alone so that it does not slow the table's timed tests.
COMPILED_COPY := build/compiled
test: $(STAMP)
	$(MAKE) --no-print-directory -j2 --output-sync=target check compiled-copy
	$(BIN)/pytest -n 2 src tests docs
	SCMJ_EXPECT_COMPILED=1 PYTHONPATH=$(COMPILED_COPY) $(BIN)/pytest -n 2 tests --ignore=tests/web
	$(BIN)/python scripts/soak.py --seconds 30 --seed 1 --progress 1000

check: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

compiled-copy: $(STAMP)
	$(BIN)/python scripts/compile.py --into $(COMPILED_COPY)

# The engine's hot modules compiled with mypyc (needs gcc and Python's headers) into this venv alone
# (.venv/sichuan_mahjong_compiled: another venv of the clone keeps running pure Python), and removed again.
# It installs only what building needs: the package with its `rl` extra, mypy and setuptools (the extra `compile`).
COMPILE_STAMP := $(VENV)/.installed-compile
$(COMPILE_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[compile]'
	touch $(COMPILE_STAMP)

compiled: $(COMPILE_STAMP)
	$(BIN)/python scripts/compile.py --venv

pure:  # (no mypy or venv needed to remove them)
	$(PY) scripts/compile.py --clean
	rm -rf $(VENV)/sichuan_mahjong_compiled

# A wheel in dist/ (pip's build isolation fetches setuptools and wheel): pip install 'dist/sichuan_mahjong-*.whl[rl]'
dist:
	test -x $(BIN)/pip || $(PY) -m venv $(VENV)
	rm -rf build/lib build/bdist.*  # setuptools would pack files left there by an earlier build
	$(BIN)/pip wheel --no-deps -w dist .

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

bench: $(STAMP)
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/evaluator.py

bench-engine: $(STAMP)
	$(BIN)/pip install -q rlcard
	$(BIN)/python benchmarks/engine.py

clean: pure
	rm -rf $(VENV) build *.egg-info
