# The two commands of the README: `make run` plays, `make test` checks everything.
# Both set up .venv on a fresh machine first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kamon play white-castle --seats human,random,random

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/pytest -n 2 -q

bench: $(STAMP)
	$(BIN)/python bench/bench_white_castle.py
	$(BIN)/python bench/bench_solo.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
