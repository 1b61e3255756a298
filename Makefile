# convopt's entry points; each sets up the virtualenv first.
#
#   make demo       lower the convolution backward ops of a ResNet block
#   make test-fast  the fast tier: the pytest tests marked `fast` (no IREE
#                   build or run) outside the long sweeps, and lit
#   make test       the fast and iree tiers: pytest (test/unit, test/e2e with
#                   the named matrix and a random slice, test/models, test/fuzz
#                   slices, test/gpu: a GPU compile-only slice, test/dynamo: the
#                   torch.compile backend) and lit
#   make test-full  every case, the long sweeps too (the whole random e2e
#                   sweep, the forms and pools on every row, every model on
#                   every pipeline, every GPU build), lit, then make fuzz
#   make fuzz       10,000 fuzzed texts, 2,000 random configurations per path
#                   and per window op (test/fuzz/window.py),
#                   resource bounds, packed-matmul tiles x IREE CPUs (test/fuzz/README.md)
#   make lint       ruff and mypy
#   make bench      python -m bench.emitted, bench.tool and bench.models (results in
#                   bench/results/), then bench.results (bench/RESULTS.md)
#
# The tiers are pytest markers that test/conftest.py gives each test: fast or
# iree, and full for a case of a long sweep beyond the slice that the sweep
# options below select (E2E_RANDOM=110 E2E_FORMS=all MODELS=all, as CI runs
# make test, select every case of those sweeps but the GPU builds').
#
# The virtualenv (.venv, made with `python3 -m venv`) is created on first use
# and the project is (re)installed into it only when pyproject.toml changes.
# The editable install is setuptools' "compat" mode: a .pth file putting the
# project root on sys.path.  The default mode's import-hook finder imports
# pathlib and more in every Python process (7 ms of `python -c pass`, 2-3 ms
# of convopt's start-up, measured in turn).  Nothing at the root shadows a module:
# its packages are convopt/ and bench/ (the benchmarks, `python -m bench.NAME`;
# no installed distribution provides a top-level `bench`), and test/ and
# examples/ have no __init__.py (the standard library, which comes first on
# sys.path, has its own `test` package).

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# (a new stamp name when the install mode changes, so existing venvs reinstall)
STAMP  := $(VENV)/.installed-compat
# convopt's .pyc files, written as `pip install` writes them: the editable
# install writes them on first import unless PYTHONDONTWRITEBYTECODE is set (as
# on the machines here and in CI), and then every convopt command the tests run
# compiles its ~100 modules first (0.2-0.3 CPU s each); only changed files are
# recompiled, and Python ignores a stale .pyc
BYTECODE = $(BIN)/python -m compileall -q convopt
# pytest-xdist workers for the unit and e2e tests
JOBS   ?= 2
PYTEST  = $(BIN)/python -m pytest -n $(JOBS)
# seeded random convolution_backward configurations in the e2e suite
# (the named matrix always runs); make test-full and CI run all 110
E2E_RANDOM ?= 8
# the forced forms, and the decomposed and rocmlir paths, through IREE: on one
# named row per feature (harness.FORM_ROWS; the interpreter tier runs every
# form and path on every named row), or `all` named rows
E2E_FORMS ?= feature-rows
# the model suite: every model through the IREE recipe, the other pipelines on
# a few (test/models/test_models.py FAST_MODELS), or `all` on every pipeline
MODELS ?= fast
SWEEPS = --e2e-random=$(E2E_RANDOM) --e2e-forms=$(E2E_FORMS) --models=$(MODELS)
FUZZ_SEED  ?= 1

.PHONY: all venv test test-fast test-full unit lit fuzz fuzz-text fuzz-semantic fuzz-resources fuzz-packed lint demo bench

all: test

venv: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[test,lint,bench]' --config-settings editable_mode=compat
	# iree-turbine: the torch.compile backend bench/train.py compares with; its
	# own requirements would replace the pinned torch and IREE, hence --no-deps
	$(BIN)/python -m pip install --no-deps 'iree-turbine==3.9.0'
	touch $@

test: unit lit

unit: $(STAMP)
	$(BYTECODE)
	$(PYTEST) $(SWEEPS) -m "not full"

test-fast: $(STAMP)
	$(BYTECODE)
	$(PYTEST) -m "fast and not full"
	$(BIN)/lit -sv test/lit

test-full: $(STAMP)
	$(BYTECODE)
	$(PYTEST) -m "fast or iree"
	$(MAKE) lit
	$(MAKE) -k fuzz

# The three sweeps are separate targets, so that `make -k fuzz` runs them all.
fuzz: fuzz-text fuzz-semantic fuzz-resources fuzz-packed

fuzz-text: $(STAMP)
	$(BIN)/python test/fuzz/fuzz.py --count 10000 --seed $(FUZZ_SEED)

fuzz-semantic: $(STAMP)
	$(BIN)/python test/fuzz/semantic.py --count 2000 --seed $(FUZZ_SEED) --iree 8
	$(BIN)/python test/fuzz/window.py --count 2000 --seed $(FUZZ_SEED) --iree 8

fuzz-resources: $(STAMP)
	$(BIN)/python test/fuzz/resources.py

# packed-matmul tiles x IREE target CPUs, run against numpy (test/fuzz/crashes/README.md)
fuzz-packed: $(STAMP)
	$(BIN)/python test/fuzz/packed_sweep.py

lit: $(STAMP)
	$(BYTECODE)
	$(BIN)/lit -sv test/lit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy convopt

demo: $(STAMP)
	$(BIN)/convopt --lower-conv-bwd --stats examples/resnet_block.mlir

bench: $(STAMP)
	$(BIN)/python -m bench.emitted
	$(BIN)/python -m bench.tool
	$(BIN)/python -m bench.models
	$(BIN)/python -m bench.results
