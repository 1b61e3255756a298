"""The registry of forms (convopt/lowering/forms/registry.py): a form is one
module that registers itself, and the command line, the API, the pass
options and `auto` read the registry.

The proof is a toy form registered from this file: linalg.generic tiles as
the generic form builds them, but with the loops in reverse order (the
maps and iterator types renamed d_i -> d_{n-1-i}: the same sums, a
different op).  Chosen by `--conv-form=toy` in-process, it is lowered,
interpreted (convopt/interp) and compared with PyTorch.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from convopt import api
from convopt.cli import main
from convopt.interp import run_text
from convopt.ir.affine import AffineConst, AffineExpr, AffineMap, d
from convopt.ir.core import Value
from convopt.lowering.forms import registry
from convopt.lowering.forms.generic_form import multiply_add, tile_maps
from convopt.lowering.kernel.cost import Work
from convopt.lowering.kernel.device import PROFILES, Device
from convopt.lowering.kernel.emit import Emitter
from convopt.lowering.kernel.relation import Kind, Rel
from convopt.lowering.kernel.request import KernelChoices, KernelRequest, KernelStats, sized
from convopt.lowering.kernel.tiles import KernelPlan, Tile, emit_tiled
from convopt.lowering.patterns.options import KernelPass

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402

# === the toy form ====================================================================================


def reversed_loops(m: AffineMap) -> AffineMap:
    """m with loop d_i renamed d_{n-1-i} (the generic form's maps are linear)."""
    n = m.num_dims
    exprs: list[AffineExpr] = []
    for e in m.results:
        linear = e.linear()
        assert linear is not None, str(e)
        coeffs, const = linear
        expr: AffineExpr = AffineConst(const)
        for (_, pos), c in sorted(coeffs.items()):
            expr = d(n - 1 - pos) * c + expr
        exprs.append(expr)
    return AffineMap.from_exprs(n, exprs)


def toy_tile(em: Emitter, req: KernelRequest, plan: KernelPlan, tile: Tile, stats: KernelStats) -> Value:
    """The generic form's tile with its loops reversed."""
    maps, iterators = tile_maps(plan, tile)
    acc_type = req.acc_type
    body = lambda b, args: [multiply_add(b, args[0], args[1], args[2], acc_type)]  # noqa: E731
    stats.add(0)
    return em.generic(list(tile.ins), [tile.init], tuple(reversed_loops(m) for m in maps), tuple(reversed(iterators)), body)[0]


def emit_toy(em: Emitter, req: KernelRequest, stats: KernelStats) -> Value:
    return emit_tiled(em, req, toy_tile, stats)


def toy_variants(req: KernelRequest) -> list[registry.Variant]:
    return [registry.Variant("toy", req, Work(generic=1.0))]


TOY = registry.FormDef(name="toy", kinds=frozenset(Kind), fits=lambda req: True, candidate=lambda req: False, variants=toy_variants, emit=emit_toy, priority=500)


@pytest.fixture
def toy() -> Iterator[registry.FormDef]:
    """The toy form, registered for one test (so that no other test, nor
    the fuzzers' choices, ever see it)."""
    registry.register(TOY)
    try:
        yield TOY
    finally:
        registry.unregister(TOY.name)


# === checked against PyTorch ========================================================================

ROWS = {c.name: c for c in harness.named_matrix()}
TOY_ROWS = ["2d_basic", "1d_groups3", "2d_transposed_stride2_outpad1", "2d_dynamic_all", "2d_depthwise"]
"""Every kernel (the direct path has scatter and weight, a transposed
grad_input is a gather), groups, depthwise and dynamic sizes."""


def error_against_torch(cfg: harness.Config, lowered: str) -> float:
    """The largest relative error of the interpreted results against PyTorch."""
    import torch

    go, x, w = (harness.round_to(a, cfg.dtype) for a in harness.inputs(cfg))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # its thread pool costs more than these convolutions
    try:
        expected = [r for r, m in zip(harness.reference(cfg, go, x, w), cfg.mask) if m]
    finally:
        torch.set_num_threads(threads)
    got = run_text(lowered, "main", [harness.to_device(a, cfg.dtype) for a in (go, x, w)], name=cfg.name)
    assert [g.shape for g in got] == [e.shape for e in expected]
    return max(float(np.max(np.abs(g.astype(np.float64) - e))) / max(1.0, float(np.max(np.abs(e)))) for g, e in zip(got, expected))


@pytest.mark.parametrize("path", [(), ("--backend-legal-ops=",)], ids=["direct", "decomposed"])
@pytest.mark.parametrize("row", TOY_ROWS)
def test_toy_form_lowers_right(toy, row, path):
    cfg = ROWS[row]
    lowered = harness.lower(harness.torch_ir(cfg), ("--lower-conv-bwd", *path, "--conv-form=toy"))
    generic = harness.lower(harness.torch_ir(cfg), ("--lower-conv-bwd", *path, "--conv-form=generic"))
    assert lowered != generic  # the toy emitted its own ops
    assert error_against_torch(cfg, lowered) <= harness.TOLERANCE[cfg.dtype]


def test_toy_form_through_the_command_line(toy, tmp_path):
    """`convopt --lower-conv-bwd --conv-form=toy --stats`, in-process: the
    choice is accepted, every kernel says form=toy, the IR is right."""
    cfg = ROWS["2d_basic"]
    path = tmp_path / "in.mlir"
    path.write_text(harness.torch_ir(cfg))
    result = CliRunner().invoke(main, ["--lower-conv-bwd", "--conv-form=toy", "--stats", str(path)])
    assert result.exit_code == 0, result.stderr
    forms = [line.split("form=")[1].split()[0] for line in result.stderr.splitlines() if "form=" in line]
    assert forms == ["toy", "toy"], result.stderr  # grad_input (scatter), grad_weight
    assert error_against_torch(cfg, result.stdout) <= harness.TOLERANCE[cfg.dtype]


def test_a_wrong_form_is_caught(toy, monkeypatch):
    """The comparison can fail: the toy multiplying its first input by
    itself (x * x instead of x * w) gives wrong sums."""

    def wrong(em, req, plan, tile, stats):
        maps, iterators = tile_maps(plan, tile)
        body = lambda b, args: [multiply_add(b, args[0], args[0], args[2], req.acc_type)]  # noqa: E731
        return em.generic([tile.ins[0], tile.ins[0]], [tile.init], (maps[0], maps[0], maps[2]), iterators, body)[0]

    monkeypatch.setitem(globals(), "toy_tile", wrong)
    cfg = ROWS["2d_basic"]
    lowered = harness.lower(harness.torch_ir(cfg), ("--lower-conv-bwd", "--conv-form=toy"))
    assert not error_against_torch(cfg, lowered) <= harness.TOLERANCE[cfg.dtype]


# === the registry read everywhere ===================================================================


def test_builtin_forms_register_themselves():
    assert registry.names()[: len(registry.BUILTIN) + 1] == ("auto", "generic", "named", "im2col", "taps")
    forms = registry.by_priority()
    assert [f.name for f in forms if f.name in registry.BUILTIN] == ["named", "im2col", "taps", "generic"]
    assert forms[-1].name == registry.FALLBACK
    for name in registry.BUILTIN:
        assert registry.form(name).name == name
    assert all(registry.form(name).kinds == frozenset(Kind) for name in ("generic", "named", "im2col"))
    assert registry.form("taps").kinds == frozenset({Kind.WEIGHT})  # weight kernels only: a forced taps gathers by FALLBACK


def request(kind: Kind, n: int, g: int, ca: int, cb: int, rels: list[Rel], form: str = "auto", channels_last: bool = True) -> KernelRequest:
    """A request as the choice sees it (no IR: the checks read only sizes)."""
    device = replace(PROFILES[Device.CPU], builds=replace(PROFILES[Device.CPU].builds, channels_last=channels_last))
    roles = {"n": n, "g": g, "ca": ca, "cb": cb}
    return sized(kind, roles, rels, KernelChoices(form=form, device=device))


SAME_3X3 = [Rel(S=1, D=1, P=1, K=3, Ns=56, Nb=56)] * 2
STRIDED = [Rel(S=2, D=1, P=1, K=3, Ns=28, Nb=56)] * 2


@pytest.mark.parametrize(
    "req, chosen",
    [
        (request(Kind.WEIGHT, 8, 32, 1, 1, SAME_3X3), "named"),  # depthwise: channels-last
        (request(Kind.WEIGHT, 8, 32, 1, 1, SAME_3X3, channels_last=False), "generic"),  # not on this profile, no matrix
        (request(Kind.SCATTER, 8, 1, 64, 64, SAME_3X3), "named"),  # dense stride-1 scatter: channels-last
        (request(Kind.GATHER, 8, 1, 64, 64, STRIDED), "im2col"),  # large strided gather
        (request(Kind.GATHER, 1, 1, 2, 2, [Rel(S=1, D=1, P=0, K=3, Ns=6, Nb=8)] * 2), "generic"),  # small, nothing to peel: one op, cheaper than im2col's copy and matmul
        (request(Kind.GATHER, 8, 1, 64, 64, [Rel(S=2, D=1, P=1, K=3, Ns=28, Nb=56), Rel(S=2, D=1, P=1, K=3, Ns=28, Nb=56)], form="named"), "named"),
        (request(Kind.GATHER, 8, 2, 4, 4, [Rel(S=1, D=1, P=1, K=3, Ns=8, Nb=8)] * 3, form="named"), "generic"),  # no 3-D grouped named op
        (request(Kind.WEIGHT, 8, 32, 1, 1, STRIDED, form="im2col"), "generic"),  # depthwise: no matrix
        (request(Kind.GATHER, 1, 1, 2, 2, STRIDED, form="im2col"), "im2col"),  # forced: small is fine
    ],
)
def test_the_choice_walks_the_registry(req, chosen):
    assert registry.choose(req).form.name == chosen


def test_a_form_serves_only_its_kernels(toy, monkeypatch):
    monkeypatch.setitem(registry._FORMS, "toy", TOY._replace(kinds=frozenset({Kind.GATHER})))
    assert registry.choose(request(Kind.GATHER, 1, 1, 2, 2, STRIDED, form="toy")).form.name == "toy"
    assert registry.choose(request(Kind.SCATTER, 1, 1, 2, 2, STRIDED, form="toy")).form.name == "generic"


def test_a_registered_form_is_a_choice_everywhere(toy):
    assert registry.names()[-1] == "toy"
    assert KernelPass(conv_form="toy").choices.form == "toy"
    assert "[auto|generic|named|im2col|taps|toy]" in CliRunner().invoke(main, ["--help"]).stdout
    assert "linalg.generic" in api.lower(harness.torch_ir(ROWS["2d_basic"]), conv_form="toy")


def test_an_unregistered_form_is_refused(tmp_path):
    assert "toy" not in registry.names()
    with pytest.raises(ValueError, match="conv-form must be one of auto, generic, named, im2col, taps, not 'toy'"):
        KernelPass(conv_form="toy")
    with pytest.raises(ValueError, match="conv_form must be one of auto, generic, named, im2col, taps, not 'toy'"):
        api.lower("", conv_form="toy")
    path = tmp_path / "in.mlir"
    path.write_text(harness.torch_ir(ROWS["2d_basic"]))
    result = CliRunner().invoke(main, ["--lower-conv-bwd", "--conv-form=toy", str(path)])
    assert result.exit_code == 2 and "'toy' is not one of 'auto', 'generic', 'named', 'im2col'" in result.stderr


def test_names_taken_are_refused(toy):
    with pytest.raises(ValueError, match="a form named 'toy' is already registered"):
        registry.register(TOY)
    with pytest.raises(ValueError, match="a form named 'auto'"):
        registry.register(TOY._replace(name="auto"))
    with pytest.raises(ValueError, match="'generic' is a built-in form"):
        registry.unregister("generic")


def test_the_command_line_reads_the_names_without_the_forms():
    """`convopt --help` and `--version` list the forms without importing them."""
    import subprocess

    code = "import sys, convopt.cli; assert not any(m.startswith('convopt.lowering.kernel') for m in sys.modules), sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)
