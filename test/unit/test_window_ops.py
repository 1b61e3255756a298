"""The window (pooling) ops' one front end and the max-pool backward's forms.

- Every pooling op is declared once (convopt/dialects/torch.py WINDOW_OPS):
  its operands by name, its window parameters' checks; the IR of these
  tests is written from that declaration alone.
- One validator (convopt/lowering/patterns/window.py) gives every window op
  the same located errors, the 2-D max-pool backward of
  convopt-torch-to-linalg's gather included (it used to leave a bad op to
  the backend, or emit invalid IR).
- Max pooling's backward chooses its form (forms/pool_scatter.py,
  forms/pool_gather.py) through the registry and the device profile, as a
  convolution kernel does; `--conv-form` names none of them.
- Max pooling's forward is the window kernel MAX_POOL, its form
  (forms/pool_max.py) the registry's choice too: the observers see it,
  `--stats` names it.
- A new form of either kernel is one module: a toy one registered here is
  chosen, lowered, interpreted and compared with PyTorch.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import convopt as api
from convopt.dialects import torch as aten
from convopt.ir.types import FloatType
from convopt.lowering.forms import registry
from convopt.lowering.forms.pool_max import emit_reduction
from convopt.lowering.forms.pool_scatter import col2im_scatter
from convopt.lowering.forms.pooling import MaxPoolRequest, UnpoolRequest, WindowKind
from convopt.lowering.kernel.cost import Work
from convopt.lowering.kernel.device import PROFILES, Device
from convopt.lowering.kernel.relation import Rel
from convopt.lowering.kernel.request import KernelChoices
from convopt.lowering.patterns.options import KernelPass

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))  # test_max_pool_bwd, harness

F32 = FloatType("f32")

# === IR written from the declarations ===============================================================


def _shape(t: tuple, dtype: str = "f32") -> str:
    return f"!torch.vtensor<[{','.join('?' if s is None else str(s) for s in t)}],{dtype}>"


def window_ir(name: str, x: tuple, out: tuple, kernel: list[int], stride: list[int], padding: list[int], **given) -> str:
    """`func @main` holding one window op, its operands in the order its
    declaration names them (given: other parameters' values by name)."""
    decl = aten.WINDOW_OPS[name]
    values = {"kernel_size": kernel, "stride": stride, "padding": padding, "dilation": [1] * decl.rank, "ceil_mode": False,
              "count_include_pad": True, "divisor_override": None, **given}
    tensors = {"grad_output": ("%g", _shape(out)), "self": ("%x", _shape(x)), "indices": ("%i", _shape(out, "si64"))}
    lines, operands = [], []
    for n in decl.operand_names:
        v = values.get(n)
        if n in tensors:
            operands.append(tensors[n])
        elif isinstance(v, list):
            for j, e in enumerate(v):
                lines.append(f"  %{n}{j} = torch.constant.int {e}")
            lines.append(f"  %{n} = torch.prim.ListConstruct {', '.join(f'%{n}{j}' for j in range(len(v)))} : ({', '.join(['!torch.int'] * len(v))}) -> !torch.list<int>")
            operands.append((f"%{n}", "!torch.list<int>"))
        elif isinstance(v, bool):
            lines.append(f"  %{n} = torch.constant.bool {str(v).lower()}")
            operands.append((f"%{n}", "!torch.bool"))
        else:
            lines.append(f"  %{n} = torch.constant.none")
            operands.append((f"%{n}", "!torch.none"))
    results = [_shape(x)] if decl.backward else [_shape(out)] + ([_shape(out, "si64")] if decl.indices else [])
    args = [f"{v}: {t}" for v, t in (tensors[n] for n in decl.operand_names if n in tensors)]
    names = ", ".join(f"%r{j}" for j in range(len(results)))
    lines.append(f"  {names} = {name} {', '.join(v for v, _ in operands)} : {', '.join(t for _, t in operands)} -> {', '.join(results)}")
    lines.append(f"  return {names} : {', '.join(results)}")
    return f"func.func @main({', '.join(args)}) -> ({', '.join(results)}) {{\n" + "\n".join(lines) + "\n}\n"


def test_operand_names_are_torchs_signatures() -> None:
    """One declaration per op: the three kinds of signature, and the op
    definitions read their operands by these names."""
    backward_avg = ("grad_output", "self", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")
    backward_max = ("grad_output", "self", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "indices")
    forward_max = ("self", "kernel_size", "stride", "padding", "dilation", "ceil_mode")
    for name, decl in aten.WINDOW_OPS.items():
        expected = backward_avg if decl.reduce == aten.Reduce.AVG else backward_max if decl.backward else forward_max
        assert decl.operand_names == expected, name
        assert aten.OPS[name].operand_names == expected, name
    assert aten.WINDOW_OPS[aten.MAX_POOL2D_BACKWARD].rank == 2 and aten.WINDOW_OPS[aten.AVG_POOL3D_BACKWARD].input_covers_kernel


# === one validator, located errors =================================================================

LOWER_POOL = {"pool_bwd": True}
LOWER_GATHER = {"forward_convs": True, "device": "gpu"}
"""How each op is lowered: --lower-pool-bwd; max_pool2d's backward under
--lower-forward-convs --device=gpu (the gather)."""

OPS = [
    (aten.AVG_POOL2D_BACKWARD, (2, 3, 8, 8), (2, 3, 4, 4), "kernel_size and stride >= 1", LOWER_POOL),
    (aten.AVG_POOL3D_BACKWARD, (2, 3, 4, 8, 8), (2, 3, 2, 4, 4), "kernel_size and stride >= 1", LOWER_POOL),
    (aten.MAX_POOL3D_WITH_INDICES_BACKWARD, (2, 3, 4, 8, 8), (2, 3, 2, 4, 4), "kernel_size, stride and dilation >= 1", LOWER_POOL),
    (aten.MAX_POOL2D_BACKWARD, (2, 3, 8, 8), (2, 3, 4, 4), "kernel_size, stride and dilation >= 1", LOWER_GATHER),
    (aten.MAX_POOL2D, (2, 3, 8, 8), (2, 3, 4, 4), "kernel_size, stride and dilation >= 1", LOWER_POOL),
    (aten.MAX_POOL1D_VALUES, (2, 3, 8), (2, 3, 4), "kernel_size, stride and dilation >= 1", LOWER_POOL),
]


def located(text: str, how: dict) -> str:
    with pytest.raises(api.ConvoptError) as e:
        api.lower(text, name="pool.mlir", **how)
    message = "\n".join(e.value.diagnostics)
    assert re.match(r"pool\.mlir:\d+:\d+: error: ", message) and "Traceback" not in message, message
    return message


@pytest.mark.parametrize("name, x, out, words, how", OPS, ids=[o[0].rsplit(".", 1)[1] for o in OPS])
def test_every_window_op_lowers_and_is_checked_alike(name, x, out, words, how) -> None:
    nd = aten.WINDOW_OPS[name].rank
    lowered = api.lower(window_ir(name, x, out, [2] * nd, [2] * nd, [0] * nd), **how)
    assert name not in lowered and "linalg.generic" in lowered
    message = located(window_ir(name, x, out, [0] + [2] * (nd - 1), [2] * nd, [0] * nd), how)
    assert f"'{name}' op expects {words}, got [0" in message
    message = located(window_ir(name, x, out, [2] * nd, [2] * nd, [2] * nd), how)
    assert f"'{name}' op expects padding between 0 and half the kernel size, got [{', '.join(['2'] * nd)}]" in message


def test_max_pool2d_backward_of_the_gather_is_validated() -> None:
    """A grad_output of other channels: a located error (the gather used to
    emit a tensor.cast the verifier refused); a ceil_mode pool the gather
    does not take stays for the backend."""
    bad = window_ir(aten.MAX_POOL2D_BACKWARD, (2, 3, 8, 8), (2, 4, 4, 4), [2, 2], [2, 2], [0, 0])
    assert "expects grad_output and the input to have the same channels, got 4 and 3" in located(bad, LOWER_GATHER)
    ceil = window_ir(aten.MAX_POOL2D_BACKWARD, (2, 3, 9, 9), (2, 3, 5, 5), [2, 2], [2, 2], [0, 0], ceil_mode=True)
    assert aten.MAX_POOL2D_BACKWARD in api.lower(ceil, **LOWER_GATHER)


# === the forms, chosen per device ===================================================================


def request(device: Device, kernel: int = 2, stride: int = 2, size: int = 8, form: str = "auto") -> UnpoolRequest:
    out = (size - kernel) // stride + 1
    rels = [Rel(S=stride, D=1, P=0, K=kernel, Ns=out, Nb=size)] * 2
    return UnpoolRequest(rels, (2, 3), F32, F32, ceil_mode=False, batched=True, choices=KernelChoices(form=form, device=PROFILES[device]))


def test_window_forms_are_no_conv_forms() -> None:
    assert not {"gather", "scatter"} & set(registry.names())
    with pytest.raises(ValueError, match="conv-form must be one of"):
        KernelPass(conv_form="gather")


@pytest.mark.parametrize("device, form", [(Device.CPU, "scatter"), (Device.AVX512, "scatter"), (Device.GPU, "gather")])
def test_the_device_profile_chooses_the_form(device, form) -> None:
    """The gather is a candidate of the profiles that build it (gpu); the
    scatter's tiled variant where the windows tile the input."""
    pick = registry.choose(request(device))  # type: ignore[arg-type]
    assert pick.form.name == form
    assert pick.variant.name == ("gather" if form == "gather" else "tiled")
    if device != Device.GPU:  # overlapping windows: col2im's adds
        assert registry.choose(request(device, kernel=3, stride=2, size=9)).variant.name == "col2im"  # type: ignore[arg-type]


def test_a_forced_conv_form_leaves_window_kernels_to_auto() -> None:
    assert registry.choose(request(Device.CPU, form="im2col")).form.name == "scatter"  # type: ignore[arg-type]


def test_device_reaches_the_choice_of_a_3d_max_pool() -> None:
    """--device is honoured for max_pool3d's backward: its request carries
    the profile (LowerMaxPoolBwd used to drop the kernel choices)."""
    text = window_ir(aten.MAX_POOL3D_WITH_INDICES_BACKWARD, (2, 3, 4, 8, 8), (2, 3, 2, 4, 4), [2] * 3, [2] * 3, [0] * 3)
    seen: list = []
    with registry.observing(lambda req, pick: seen.append((str(req.choices.device.device), pick.form.name))):
        for device in ("cpu", "gpu", "avx2"):
            api.lower(text, pool_bwd=True, device=device)
    assert seen == [("cpu", "scatter"), ("gpu", "scatter"), ("avx2", "scatter")]


# === a toy form: one module's worth, registered here ================================================


def emit_toy(em, req, stats):
    """col2im's adds even where the windows tile the input (where the
    scatter offers its tiled variant: one op and a collapse)."""
    dy, idx = req.ins
    return col2im_scatter(em, dy, idx, req)


TOY = registry.FormDef(
    name="toy-unpool", kinds=frozenset({WindowKind.UNPOOL}), fits=lambda req: True,  # type: ignore[arg-type]
    candidate=lambda req: req.choices.device.device == Device.AVX2,  # a form one profile builds
    variants=lambda req: [registry.Variant("toy", req, Work(generic_depthwise=1.0))], emit=emit_toy, priority=1,  # type: ignore[arg-type]
)


@contextlib.contextmanager
def registered(form: registry.FormDef) -> Iterator[registry.FormDef]:
    """A toy form, registered for one test."""
    registry.register(form)
    try:
        yield form
    finally:
        registry.unregister(form.name)


@pytest.fixture
def toy() -> Iterator[registry.FormDef]:
    with registered(TOY) as form:
        yield form


def test_a_toy_pooling_form_is_chosen_and_right(toy, tmp_path) -> None:
    import test_max_pool_bwd as mpb
    from click.testing import CliRunner

    from convopt.cli import main
    from convopt.interp import run_text

    cfg = mpb.MaxPoolConfig("k2s2_remainder", spatial=(5, 7, 9))
    text, (go, x, idx), expected = mpb.case(cfg)
    path = tmp_path / "in.mlir"
    path.write_text(text)
    forms = {}
    for device in ("avx2", "cpu"):
        result = CliRunner().invoke(main, ["--lower-pool-bwd", f"--device={device}", "--stats", str(path)])
        assert result.exit_code == 0, result.stderr
        forms[device] = re.findall(r"grad_input: form=(\S+)", result.stderr)
        (got,) = run_text(result.stdout, "main", [go, x, idx])
        mpb.compare(cfg, np.asarray(got, dtype=np.float64), expected)
        assert ("tensor.collapse_shape" in result.stdout) == (device == "cpu")  # the tiled variant's collapse
    assert forms == {"avx2": ["toy-unpool"], "cpu": ["scatter"]}
    assert "toy-unpool" not in registry.names()  # --conv-form names convolution forms only


# === max pooling's forward: the kernel MAX_POOL and its form =========================================


def forward_request(device: Device, indices: bool, form: str = "auto") -> MaxPoolRequest:
    """[2, 3, 8, 8], window 2, stride 2: 2*3*4*4 windows of 2*2 taps."""
    rels = [Rel(S=2, D=1, P=0, K=2, Ns=4, Nb=8)] * 2
    return MaxPoolRequest(rels, (2, 3), F32, ceil_mode=False, indices=indices, choices=KernelChoices(form=form, device=PROFILES[device]))


@pytest.mark.parametrize("device", list(PROFILES))
def test_the_forward_form_is_registered_and_chosen(device) -> None:
    """The reduction serves MAX_POOL alone, on every profile, a forced
    convolution form leaving it to auto; its work: n*c*prod(Ns)*prod(K)
    taps per reduction, the values (one op) or the values and indices
    (the keys and their decode: three)."""
    form = registry.form("reduction")
    assert form.kinds == frozenset({WindowKind.MAX_POOL}) and "reduction" not in registry.names()
    for indices, taps, dispatch in ((False, 384, 1), (True, 768, 3)):
        for forced in ("auto", "im2col"):
            pick = registry.choose(forward_request(device, indices, forced))  # type: ignore[arg-type]
            assert (pick.form.name, pick.variant.name) == ("reduction", "reduction")
            assert (pick.variant.work.generic_depthwise, pick.variant.work.dispatch) == (taps, dispatch)


TOY_MAX = registry.FormDef(
    name="toy-max", kinds=frozenset({WindowKind.MAX_POOL}), fits=lambda req: True,  # type: ignore[arg-type]
    candidate=lambda req: req.choices.device.device == Device.AVX2,  # a form one profile builds
    variants=lambda req: [registry.Variant("toy", req, Work(generic_depthwise=1.0))], emit=emit_reduction, priority=1,  # type: ignore[arg-type]
)


def test_a_toy_forward_form_is_chosen_and_right(tmp_path) -> None:
    """A second MAX_POOL form, one profile's: the pass emits it there (the
    registry's observers and --stats name it) and the reduction elsewhere,
    both exactly PyTorch's values and indices."""
    import pool_harness as ph
    from click.testing import CliRunner

    from convopt.cli import main
    from convopt.interp import run_text

    cfg = ph.M("toy_max", spatial=(7, 9), kernel=3, stride=2, padding=1)
    path = tmp_path / "in.mlir"
    path.write_text(ph.max_pool_ir(cfg))
    x = ph.max_pool_input(cfg)
    forms, seen = {}, []
    with registered(TOY_MAX), registry.observing(lambda req, pick: seen.append(pick.form.name)):
        for device in ("avx2", "cpu"):
            result = CliRunner().invoke(main, ["--lower-pool-bwd", f"--device={device}", "--stats", str(path)])
            assert result.exit_code == 0, result.stderr
            forms[device] = re.findall(r"result: form=(\S+) ops=2 ", result.stderr)
            ph.compare_max_pool(cfg, run_text(result.stdout, "main", [x.astype(np.float32)]), ph.max_pool_reference(cfg, x))
    assert forms == {"avx2": ["toy-max"], "cpu": ["reduction"]}
    assert seen == ["toy-max", "reduction"]
