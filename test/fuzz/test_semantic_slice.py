"""A fixed-seed slice of the semantic fuzzer (test/fuzz/semantic.py) for
`make test`: random valid convolution_backward configurations on both
paths, checked with the reference interpreter against PyTorch, and broken
variants judged against PyTorch's own verdict."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import replace

import pytest
import semantic

harness = semantic.harness  # test/e2e/harness.py (semantic puts test/e2e on sys.path)

SLICE_SEED = 20261201
SLICE_COUNT = 36


def test_fixed_seed_slice():
    summary = semantic.run_semantic(SLICE_SEED, SLICE_COUNT, broken_ratio=0.6)
    print(summary.report())
    for p in semantic.PATHS:
        assert summary.valid[p]["ok"] == SLICE_COUNT, summary.report()
        assert sum(summary.broken[p].values()) > SLICE_COUNT // 3
    assert summary.failed == 0, summary.report()


def test_the_ir_is_the_harness_ir():
    """semantic.Call writes the same function as harness.torch_ir, so the broken variants differ from the e2e IR only where broken."""
    for n in range(40):
        cfg = semantic.random_config(random.Random(n), n)
        assert semantic.Call.from_config(cfg).ir() == harness.torch_ir(cfg)
    for cfg in harness.named_matrix()[::5]:
        assert semantic.Call.from_config(cfg).ir() == harness.torch_ir(cfg)


def test_random_configurations_cover_every_axis():
    cfgs = [semantic.random_config(random.Random(f"cover:{n}"), n) for n in range(300)]
    assert {c.rank for c in cfgs} == {1, 2, 3}
    assert {c.dtype for c in cfgs} == {"f16", "bf16", "f32", "f64"}
    assert any(c.transposed and any(c.out_padding) for c in cfgs)
    assert any(c.groups > 1 and c.groups == c.cin for c in cfgs)  # depthwise
    assert any(p > d * (k - 1) for c in cfgs for p, d, k in zip(c.padding, c.dilation, c.kernel))  # over-padding
    assert all(any(k in c.dynamic for c in cfgs) for k in semantic.DYNAMIC_KINDS)
    assert {c.mask for c in cfgs} == {m for m in semantic._masks() if any(m)}
    assert {c.bias_sizes for c in cfgs} == {True, False}


@pytest.mark.parametrize("kind,accepts", [
    ("stride_nonpositive", False), ("dilation_nonpositive", False), ("groups_nonpositive", False), ("padding_negative", False),
    ("outpad_ge", False), ("outpad_nontransposed", False), ("x_channels", False), ("groups_not_dividing", False), ("list_length", False),
    ("bias_sizes", True), ("list_length_one", True), ("mask_none", True),
])
def test_pytorch_verdicts(kind, accepts):
    """The broken variants are what they claim, by PyTorch's own verdict."""
    for n in range(5):
        k, call = semantic.broken_variant(random.Random(f"verdict:{kind}:{n}"), n, kind)
        verdict, only_under_mask = semantic.torch_verdicts(call, k)
        assert (verdict is None and not only_under_mask) == accepts, (kind, semantic._describe_call(call), verdict)


def test_convopt_rejects_what_pytorch_rejects():
    for kind in ("stride_nonpositive", "outpad_ge", "result_type", "bias_result_type", "result_dtype", "empty_output", "kernel_zero"):
        for n in range(3):
            k, call = semantic.broken_variant(random.Random(f"reject:{kind}:{n}"), n, kind)
            for p in semantic.PATHS:
                o = semantic.check_call(call, p, kind=k)
                assert o.status in ("rejected", "unsupported"), (kind, p, o.status, o.detail, semantic._describe_call(call))
                assert re.search(r"(^|; convopt: )conv\.mlir:\d+:\d+: error: ", o.detail), o.detail


def test_a_dynamic_bias_result_is_compatible():
    """grad_bias declared `[?]`: accepted (the result-type check added for
    a static size of another value must not reject it) and right."""
    call = semantic.Call.from_config(harness.C("bias_dyn", 1, spatial=6, kernel=3))
    r = call.declared_results()
    call = replace(call, result_types=(r[0], r[1], r[2].replace("[6]", "[?]")))
    assert "[?]" in call.ir()
    for p in semantic.PATHS:
        assert semantic.check_call(call, p, expect_valid=True).status == "ok"


def test_a_wrong_lowering_is_caught(monkeypatch):
    """The semantic fuzzer can fail: one slice offset off by one."""
    cfg = harness.C("small_stride2", stride=2, spatial=6, cin=2, cout=2)
    lower = semantic.lower_call

    def off_by_one(call, path):
        good = lower(call, path)
        bad = re.sub(r"(tensor\.extract_slice %\w+\[0, 0, )([1-9])", lambda m: m.group(1) + str(int(m.group(2)) - 1), good, count=1)
        assert bad != good
        return bad

    monkeypatch.setattr(semantic, "lower_call", off_by_one)
    o = semantic.check_call(semantic.Call.from_config(cfg), "direct", expect_valid=True)
    assert o.status == "wrong" and "relative error" in o.detail


def test_lowering_what_pytorch_rejects_is_caught(monkeypatch):
    monkeypatch.setattr(semantic, "lower_call", lambda call, path: "func.func @main() {\n  return\n}\n")
    k, call = semantic.broken_variant(random.Random("x"), 0, "stride_nonpositive")
    assert semantic.check_call(call, "direct", kind=k).status == "wrong"


def test_empty_tensors_and_mixed_types_are_decided():
    """SPEC section 4 decides both: a static size 0 PyTorch takes is lowered
    and equal to PyTorch (status ok), one it rejects is rejected; mixed
    element types are a located error (unsupported where PyTorch takes them)."""
    statuses = {"zero_size": Counter(), "dtype_mismatch": Counter()}
    for kind, allowed in (("zero_size", ("ok", "rejected", "unsupported")), ("dtype_mismatch", ("rejected", "unsupported"))):
        for n in range(10):
            k, call = semantic.broken_variant(random.Random(f"decided:{kind}:{n}"), n, kind)
            verdict = semantic.torch_verdicts(call, k)
            for p in semantic.PATHS:
                o = semantic.check_call(call, p, kind=k, verdict=verdict)
                statuses[kind][o.status] += 1
                assert o.status in allowed, (kind, p, o.status, o.detail, semantic._describe_call(call))
    assert statuses["zero_size"]["ok"] > 0 and statuses["zero_size"]["rejected"] > 0, statuses
    assert statuses["dtype_mismatch"]["unsupported"] > 0, statuses


# --- the window family (test/fuzz/window.py) ------------------------------------------------------

WINDOW_SEED = 20261205
WINDOW_COUNT = 15  # per op: 45 valid configurations, about 25 broken variants


def test_window_fixed_seed_slice():
    import window

    summary = window.run_window(WINDOW_SEED, WINDOW_COUNT, broken_ratio=0.6)
    print(summary.report())
    for op in window.OPS:
        assert summary.valid[op]["ok"] == WINDOW_COUNT, summary.report()
        assert summary.broken[op]["rejected"] >= WINDOW_COUNT // 3, summary.report()
    assert summary.failed == 0, summary.report()


def test_window_configurations_cover_every_axis():
    import window

    cfgs = {op: [window.random_config(op, random.Random(f"cover:{op}:{n}"), n) for n in range(300)] for op in window.OPS}
    for op, cs in cfgs.items():
        assert {c.dtype for c in cs} == {"f16", "bf16", "f32", "f64"}, op
        assert any(c.ceil_mode for c in cs) and any(not c.batched for c in cs) and any("spatial" in c.dynamic for c in cs), op
        assert any(p > 0 for c in cs for p in c.padding), op
    assert {len(c.spatial) for c in cfgs["avg_bwd"]} == {1, 2, 3} == {len(c.spatial) for c in cfgs["max_fwd"]}
    assert any(c.divisor_override for c in cfgs["avg_bwd"]) and any(not c.count_include_pad for c in cfgs["avg_bwd"])
    assert any(d > 1 for c in cfgs["max_bwd"] + cfgs["max_fwd"] for d in c.dilation)
    assert {c.values for c in cfgs["max_fwd"]} == {"random", "ties", "nan", "-inf"} and any(not c.with_indices for c in cfgs["max_fwd"])


@pytest.mark.parametrize("op", ["avg_bwd", "max_bwd", "max_fwd"])
def test_window_broken_variants_are_refused_by_both(op):
    """Each broken kind is refused by PyTorch, and convopt's refusal is a located error."""
    import window

    for kind in window.BROKEN_KINDS:
        if (kind == "zero_dilation" and op == "avg_bwd") or (kind == "zero_divisor" and op != "avg_bwd"):
            continue
        for n in range(2):
            k, case = window.broken_case(op, random.Random(f"refuse:{op}:{kind}:{n}"), n, kind)
            assert window.torch_refuses(case) is not None, (op, kind, case.cfg)
            o = window.check_broken(case, window.FLAG_SETS[0])
            assert o.status == "rejected", (op, kind, o.status, o.detail)
            assert re.match(r"window\.mlir:\d+:\d+: error: ", o.detail), o.detail


def test_window_wrong_lowering_is_caught(monkeypatch):
    """The window fuzzer can fail: a max pool that takes the minimum, an
    average whose weight is off."""
    import window

    lower = window.lower_text
    monkeypatch.setattr(window, "lower_text", lambda text, flags: lower(text, flags).replace("arith.maximumf", "arith.minimumf"))
    cfg = window.random_config("max_fwd", random.Random("caught"), 0)
    assert window.check_valid(window.valid_case("max_fwd", replace(cfg, values="random")), window.FLAG_SETS[0]).status == "wrong"
    monkeypatch.setattr(window, "lower_text", lambda text, flags: lower(text, flags).replace("dense<1.000000e+00>", "dense<2.000000e+00>"))
    avg = ph_avg_exclude()
    o = window.check_valid(window.valid_case("avg_bwd", avg), window.FLAG_SETS[0])
    assert o.status == "wrong" and "relative error" in o.detail, o


def ph_avg_exclude():
    import pool_harness as ph

    return ph.P("exclude", kernel=3, stride=1, padding=1, count_include_pad=False)


def test_avg_pool1d_exclude_k5_regression():
    """The seeded failure of issue 41: avg_pool1d backward, window 5, stride
    1, padding 2, count_include_pad=False, input [2,8,18], the recipe's
    flags: its weight is a splat constant (iree-compile failed on the
    filled one); the interpreter's numbers are PyTorch's."""
    import pool_harness as ph
    import window

    cfg = ph.P("k5", nd=1, kernel=5, stride=1, padding=2, spatial=18, count_include_pad=False, batch=2, channels=8)
    case = window.valid_case("avg_bwd", cfg)
    text = window.lower_text(case.text, ("--lower-conv-bwd", "--lower-pool-bwd"))
    assert "arith.constant dense<1.000000e+00> : tensor<8x1x1x5xf32>" in text and "linalg.fill ins(%cst : f32) outs(%2 : tensor<8x1x1x5xf32>)" not in text
    assert window.check_valid(case, ("--lower-conv-bwd", "--lower-pool-bwd")).status == "ok"
