"""A fixed-seed slice of the syntactic fuzzer (test/fuzz/fuzz.py) for `make
test`, and checks that the fuzzer itself notices what it should
(tracebacks, unlocated errors, hangs in Python and in C, bad output)."""

from __future__ import annotations

import signal
import time
import warnings

import fuzz
import mutators
import pytest

SLICE_SEED = 20261201
SLICE_COUNT = 300


@pytest.fixture(scope="module")
def seeds():
    return fuzz.load_seeds()


def test_seeds_are_every_input_and_model(seeds):
    names = {s.name for s in seeds}
    inputs = {str(p.relative_to(fuzz.REPO)) for p in (fuzz.REPO / "test" / "inputs").glob("*.mlir")}
    models = {str(p.relative_to(fuzz.REPO)) for p in (fuzz.REPO / "test" / "models").glob("*.mlir")}
    assert inputs <= names and models <= names


def test_cases_are_reproducible(seeds):
    for i in (0, 1, 17, 123):
        a, b = fuzz.make_case(seeds, 5, i), fuzz.make_case(seeds, 5, i)
        assert (a.text, a.mode, a.mutations, a.option, a.data) == (b.text, b.mode, b.mutations, b.option, b.data)
    assert fuzz.make_case(seeds, 5, 1).text != fuzz.make_case(seeds, 6, 1).text


def test_every_mutator_changes_something(seeds):
    text = "".join(s.text for s in seeds if s.name.endswith(("conv_transpose.mlir", "roundtrip/linalg.mlir")))
    import random

    for mutator in set(mutators.BYTE_LEVEL + mutators.GRAMMAR):
        changed = sum(mutator(random.Random(f"m{i}"), text) != text for i in range(10))
        assert changed >= 5, mutator.__name__


def test_fixed_seed_slice(seeds):
    """SLICE_COUNT mutated inputs: each ends in a result or a located error
    within its bound; failures that are known bugs outside test/fuzz (with
    reproducers in test/fuzz/crashes/) are reported as warnings."""
    summary = fuzz.run_campaign(SLICE_SEED, SLICE_COUNT, seeds=seeds, save=False)
    print(summary.report())
    assert summary.count == SLICE_COUNT
    assert set(summary.by_mode) == set(fuzz.MODES)
    assert summary.counts["ok"] > SLICE_COUNT // 10 and summary.counts["diagnosed"] > SLICE_COUNT // 3
    assert not summary.unexpected, summary.report()
    for bug, n in summary.known.items():
        warnings.warn(f"fuzz slice: {n} inputs hit the known bug test/fuzz/crashes/{bug}", stacklevel=1)


POOL_FILE = "test/inputs/pool_ops.mlir"
POOL_OPS = ("avg_pool2d_backward", "avg_pool3d_backward", "max_pool2d_with_indices ", "max_pool3d_with_indices ",
            "max_pool2d_with_indices_backward", "max_pool3d_with_indices_backward")
POOL_SLICE_COUNT = 100


def test_pool_ops_slice(seeds, monkeypatch):
    """The window family's texts alone (issue 41): POOL_SLICE_COUNT
    mutations of pool_ops.mlir (avg_pool2d/3d_backward, max_pool2d/3d with
    indices and their backward), run with the pooling lowering on
    (`lower-pool`, pool_bwd=True); each a result or a located error.  The
    mutations reach the pooling ops' lines (mutators._hot_lines) in at
    least a quarter of the inputs."""
    import re

    pool = [s for s in seeds if s.name == POOL_FILE]
    assert pool and all(f"torch.aten.{op}" in pool[0].text for op in POOL_OPS)
    pool_lines = re.compile(r".*_pool\dd.*")
    before = set(pool_lines.findall(pool[0].text))
    changed = sum(set(pool_lines.findall(fuzz.make_case(pool, SLICE_SEED, i).text)) != before for i in range(POOL_SLICE_COUNT))
    assert changed >= POOL_SLICE_COUNT // 4, changed
    monkeypatch.setattr(fuzz, "FORCE_MODE", "lower-pool")
    summary = fuzz.run_campaign(SLICE_SEED, POOL_SLICE_COUNT, seeds=pool, save=False)
    print(summary.report())
    assert summary.count == POOL_SLICE_COUNT and set(summary.by_mode) == {"lower-pool"}
    assert summary.counts["ok"] >= POOL_SLICE_COUNT // 20 and summary.counts["diagnosed"] > POOL_SLICE_COUNT // 4, summary.report()
    assert not summary.unexpected, summary.report()


# --- the fuzzer notices ---------------------------------------------------------------------------

def _case(text: str, mode: str = "roundtrip", index: int = 0):
    return fuzz.Case(0, index, "t.mlir", mode, text, [])


def test_a_traceback_is_caught(monkeypatch):
    def boom(case):
        raise KeyError("oops")

    monkeypatch.setattr(fuzz, "run_mode", boom)
    r = fuzz.run_case(_case("func.func @f() {\n  return\n}\n"), 5.0)
    assert r.status == "traceback" and "KeyError" in r.detail


def test_an_internal_error_line_is_a_traceback(monkeypatch):
    from convopt.diagnostics import ConvoptError

    def internal(case):
        raise ConvoptError(lines=["fuzz-0-0.mlir:1:1: error: internal error: ValueError: x (set CONVOPT_DEBUG=1 for a traceback)"])

    monkeypatch.setattr(fuzz, "run_mode", internal)
    assert fuzz.run_case(_case("x"), 5.0).status == "traceback"


def test_an_unlocated_error_is_caught(monkeypatch):
    from convopt.diagnostics import ConvoptError

    for line in ["<unknown>:0:0: error: cyclic attribute alias", "fuzz-0-0.mlir:99:1: error: past the end", "error: no position"]:
        monkeypatch.setattr(fuzz, "run_mode", lambda case, line=line: (_ for _ in ()).throw(ConvoptError(lines=[line])))
        assert fuzz.run_case(_case("a\nb\n"), 5.0).status == "unlocated", line


def test_a_python_hang_is_caught(monkeypatch):
    def spin(case):
        while True:
            pass

    monkeypatch.setattr(fuzz, "run_mode", spin)
    start = time.monotonic()
    r = fuzz.run_case(_case("x"), 0.5)
    assert r.status == "hang" and time.monotonic() - start < 5


def test_output_that_does_not_parse_back_is_caught(monkeypatch):
    monkeypatch.setattr(fuzz, "run_mode", lambda case: "func.func @f( {\n")
    r = fuzz.run_case(_case("x"), 5.0)
    assert r.status == "bad_output" and "does not parse back" in r.detail


def test_a_left_convolution_backward_is_caught(seeds, monkeypatch):
    text = next(s.text for s in seeds if s.name.endswith("conv_transpose.mlir"))
    monkeypatch.setattr(fuzz, "run_mode", lambda case: text)
    assert fuzz.run_case(_case(text, "lower"), 5.0).status == "bad_output"


def test_a_c_level_hang_is_killed_by_the_watchdog(seeds, monkeypatch):
    """A worker stuck where SIGALRM cannot interrupt it (here: SIGALRM
    blocked) is killed; the campaign records a hang and goes on."""

    def stuck(case):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(600)

    monkeypatch.setattr(fuzz, "INJECT", {2: stuck})
    monkeypatch.setattr(fuzz, "HANG_CAP", 1.0)
    monkeypatch.setattr(fuzz, "MIN_BOUND", 0.5)
    monkeypatch.setattr(fuzz, "WATCHDOG_GRACE", 1.0)
    small = [s for s in seeds if len(s.text) < 3000]
    start = time.monotonic()
    summary = fuzz.run_campaign(7, 5, seeds=small, save=False)
    assert time.monotonic() - start < 60
    assert summary.count == 5 and summary.counts["hang"] == 1, summary.report()
    assert summary.failures[0][:2] == ("hang", 2)


def test_a_failing_input_is_saved_with_its_seed(seeds, monkeypatch, tmp_path):
    monkeypatch.setattr(fuzz, "CRASHES", tmp_path)
    monkeypatch.setattr(fuzz, "REPO", tmp_path.parent)

    def boom(case):
        raise RuntimeError("injected")

    monkeypatch.setattr(fuzz, "INJECT", {3: boom})
    summary = fuzz.run_campaign(9, 4, seeds=[s for s in seeds if len(s.text) < 3000])
    assert summary.counts["traceback"] == 1
    saved = sorted(p.name for p in tmp_path.iterdir())
    assert saved == ["traceback-s9-i3.json", "traceback-s9-i3.mlir", "traceback-s9-i3.txt"]
    assert "injected" in (tmp_path / "traceback-s9-i3.txt").read_text()
    import json

    meta = json.loads((tmp_path / "traceback-s9-i3.json").read_text())
    assert meta["seed"] == 9 and meta["index"] == 3
