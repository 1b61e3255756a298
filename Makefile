# convopt's entry points; each sets up the virtualenv first.
#
#   make demo    lower the convolution backward ops of a ResNet block
#   make test    pytest (test/unit, test/e2e) and lit (test/lit)
#   make lint    ruff and mypy
#   make bench   bench/emitted.py and bench/tool.py (results in bench/results/)
#
# The virtualenv (.venv, made with `python3 -m venv`) is created on first use
# and the project is (re)installed into it only when pyproject.toml changes.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# pytest-xdist workers for the unit and e2e tests
JOBS   ?= 2

.PHONY: all venv test unit lit lint demo bench

all: test

venv: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[test,lint,bench]'
	touch $@

test: unit lit

unit: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) test/unit test/e2e test/models

lit: $(STAMP)
	$(BIN)/lit -sv test/lit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy convopt

demo: $(STAMP)
	$(BIN)/convopt --lower-conv-bwd --stats examples/resnet_block.mlir

bench: $(STAMP)
	$(BIN)/python bench/emitted.py
	$(BIN)/python bench/tool.py
