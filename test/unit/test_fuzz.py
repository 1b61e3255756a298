"""Mutated inputs never crash convopt.

Random edits (delete, insert, duplicate or swap characters and tokens) of
the valid inputs are run through the in-process driver.  Each run either
returns text that convopt parses back to the same text, or records an error
diagnostic with a source position; an exception escaping the driver, or an
"internal error" diagnostic, fails the test (CONVOPT_DEBUG makes the driver
re-raise what it would report as an internal error).
"""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from unit_helpers import INPUTS

from convopt.diagnostics import DiagnosticEngine, SourceFile
from convopt.driver import Options, process, split_chunks

LINALG_SEED = """#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1 * 2 + d0 floordiv 2)>
module {
  func.func @f(%arg0: tensor<?x8xf32>, %arg1: tensor<4x8xf32>, %arg2: index) -> tensor<?x8xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x8xf32>
    %0 = tensor.empty(%dim) : tensor<?x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<?x8xf32>) outs(%1 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.addf %in, %out : f32
      linalg.yield %5 : f32
    } -> tensor<?x8xf32>
    %padded = tensor.pad %arg1 low[0, %arg2] high[1, 0] {
    ^bb0(%arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<4x8xf32> to tensor<5x?xf32>
    %extracted_slice = tensor.extract_slice %2[0, 0] [%dim, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
    %collapsed = tensor.collapse_shape %arg1 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
    %3 = "t.op"(%collapsed) <{p = 1 : i64}> ({
      "t.yield"() : () -> ()
    }) {a = [1, 2]} : (tensor<32xf32>) -> i1 loc("x.py":1:2)
    return %extracted_slice : tensor<?x8xf32>
  }
}
"""

# The small inputs (the large ones make each example slow, not more varied).
SEEDS = [p.read_text() for p in sorted(INPUTS.glob("*.mlir")) if p.stat().st_size < 8000] + [LINALG_SEED]
TOKEN = re.compile(r'%[\w.$#:-]+|@[\w.$-]+|"[^"\n]*"|[A-Za-z_][\w.$]*|-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|\S')
INSERTABLE = list('{}()[]<>,:=%#@^!"\\-+*?x0 \n\t\x00é') + [
    "// -----\n", "loc(", "->", "{-#", "#-}", "dense<", "affine_map<", "tensor<", "!torch.vtensor<", "f32", "%0", "%arg0", "^bb1:", "#map", "module {",
]


@st.composite
def mutated(draw) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        if not text:
            break
        spans = [m.span() for m in TOKEN.finditer(text)] or [(0, len(text))]
        kind = draw(st.sampled_from(["delete_char", "insert", "delete_token", "duplicate_token", "swap_tokens"]))
        if kind == "delete_char":
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + text[i + 1 :]
        elif kind == "insert":
            i = draw(st.integers(0, len(text)))
            text = text[:i] + draw(st.sampled_from(INSERTABLE)) + text[i:]
        else:
            a, b = spans[draw(st.integers(0, len(spans) - 1))]
            if kind == "delete_token":
                text = text[:a] + text[b:]
            elif kind == "duplicate_token":
                i = draw(st.integers(0, len(text)))
                text = text[:i] + text[a:b] + text[i:]
            else:
                c, d = spans[draw(st.integers(0, len(spans) - 1))]
                if (a, b) > (c, d):
                    a, b, c, d = c, d, a, b
                if b <= c:
                    text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
    return text


OPTIONS = Options(allow_unregistered_dialect=True)
"""The seeds hold generic ops of no dialect ("t.op"), as mlir-opt's tests do
with -allow-unregistered-dialect; misspelled names of known dialects are
still errors."""


def run_once(source: SourceFile) -> None:
    engine = DiagnosticEngine()
    out = process(source, OPTIONS, engine)
    assert not any("internal error" in d.message for d in engine.diagnostics)
    if out is None:
        errors = [d for d in engine.diagnostics if d.severity == "error"]
        assert errors, "failed without an error diagnostic"
        assert all(d.pos is not None and d.pos.line >= 1 and d.pos.col >= 1 for d in errors), [d.render() for d in errors]
        assert all(d.render() for d in errors)
    else:
        again = DiagnosticEngine()
        assert process(SourceFile("again.mlir", out), OPTIONS, again) == out, [d.render() for d in again.diagnostics]


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated(), split=st.booleans())
def test_mutated_inputs_never_crash(text, split):
    old = os.environ.get("CONVOPT_DEBUG")
    os.environ["CONVOPT_DEBUG"] = "1"  # an internal error raises instead of becoming a diagnostic
    try:
        chunks = split_chunks("fuzz.mlir", text) if split else [SourceFile("fuzz.mlir", text)]
        for chunk in chunks:
            run_once(chunk)
    finally:
        if old is None:
            del os.environ["CONVOPT_DEBUG"]
        else:
            os.environ["CONVOPT_DEBUG"] = old


def test_seeds_are_valid():
    for text in SEEDS:
        engine = DiagnosticEngine()
        assert process(SourceFile("seed.mlir", text), OPTIONS, engine) is not None, [d.render() for d in engine.diagnostics]
