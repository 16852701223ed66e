# The two commands of the README: `make run` serves the web app on http://127.0.0.1:8000
# (games in kamon.db), `make test` checks everything. Both set up .venv on a fresh machine
# first; `make test` also installs the Debian packages the tests drive (chromium,
# postgresql) when they are missing.
# The interpreter .venv is made with: the system's /usr/bin/python3 when it is 3.11+ and
# can make virtual environments (Debian builds it with profile-guided and link-time
# optimisation: the server serves 1.2-1.3x the moves a second it does on a plain source
# build such as pyenv's, docs/performance.md), else the first python3 on the PATH. PY=...
# chooses another.
PY ?= $(or $(shell for p in /usr/bin/python3 python3; do \
	$$p -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' \
	>/dev/null 2>&1 && { echo $$p; break; }; done),python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean system-deps play fuzz

$(STAMP): pyproject.toml constraints.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kamon serve --host 127.0.0.1 --port 8000 --db kamon.db

play: $(STAMP)
	$(BIN)/kamon play white-castle --seats human,normal,normal

system-deps:
	bash scripts/system-deps.sh

test: $(STAMP) system-deps
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/pytest -n 2 --dist worksteal -q

# The long Hypothesis fuzzing of both engines (tests/fuzz/), on both cores: random play
# with every invariant checked after each decision, bad input and corrupted states; and
# the seeded invariant games at their full counts (1,000 a set-up; `make test` plays 400).
# Prints the decisions checked, per second and in total. FUZZ_EXAMPLES per test.
FUZZ_EXAMPLES ?= 500
fuzz: $(STAMP)
	KAMON_FUZZ=long KAMON_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest tests/fuzz \
		tests/white_castle/test_invariants.py tests/clansman/test_invariants.py -n 2 -q \
		-p no:cacheprovider --timeout=0

bench: $(STAMP)
	$(BIN)/python bench/bench_white_castle.py
	$(BIN)/python bench/bench_solo.py
	$(BIN)/python bench/bench_server.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache test-output
