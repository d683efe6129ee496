# leasewise developer tasks. Everything runs from a local virtualenv in .venv.
#   make run    install the package and run the main job (the Slack app, or the local chat)
#   make test   install dev tools, lint, type-check, run the tests
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

# Stamps live inside .venv, so deleting the venv also forgets what was installed in it.
# Each is rebuilt only when pyproject.toml changes (or the venv is recreated).
RUNTIME_STAMP := $(VENV)/.leasewise-runtime.stamp
DEV_STAMP := $(VENV)/.leasewise-dev.stamp

.DEFAULT_GOAL := test
.PHONY: run test test-fast lint bench venv install install-dev clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

venv: $(BIN)/python

$(RUNTIME_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $@

# The dev install is a superset of the runtime one, so it refreshes both stamps.
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(RUNTIME_STAMP) $@

install: $(RUNTIME_STAMP)

install-dev: $(DEV_STAMP)

run: $(RUNTIME_STAMP)
	$(BIN)/leasewise run

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy core bot storage

test: lint
	$(BIN)/pytest

# Same, without the tests marked slow (fresh-venv install of the package).
test-fast: lint
	$(BIN)/pytest -m 'not slow'

bench: $(DEV_STAMP)
	$(BIN)/python bench/estimate_bench.py
	$(BIN)/python bench/sizing_bench.py
	$(BIN)/python bench/storage_bench.py
	$(BIN)/python bench/parse_bench.py
	$(BIN)/python bench/startup_bench.py
	$(BIN)/python bench/digest_bench.py
	$(BIN)/python bench/engine_refresh_bench.py
	$(BIN)/python bench/field_accuracy_bench.py
	$(BIN)/python bench/slack_load.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .benchmarks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
