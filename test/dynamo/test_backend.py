"""The backend's machinery: options, registration, the on-disk cache, the
eager fallback, None outputs, zero-copy inputs and a light `import convopt`."""

from __future__ import annotations

import copy
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch
import torch.nn as nn
from training import DigitsCNN

import convopt.dynamo as cd
from convopt.dynamo import compile as build
from convopt.dynamo.compile import COUNTS
from convopt.dynamo.importer import tensor_outputs
from convopt.dynamo.options import Options

REPO = Path(__file__).resolve().parents[2]


@torch.library.custom_op("convopt_test::odd_scale", mutates_args=())
def odd_scale(x: torch.Tensor) -> torch.Tensor:
    """An op nobody lowers: torch-mlir imports it as `torch.operator`, IREE rejects it."""
    return x * 2


@odd_scale.register_fake
def _(x):
    return torch.empty_like(x)


odd_scale.register_autograd(lambda ctx, g: g * 2)


class WithOddOp(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.fc = nn.Linear(4 * 6 * 6, 3)

    def forward(self, x):
        return self.fc(odd_scale(torch.relu(self.conv(x))).flatten(1))


def step(model, x):
    model.zero_grad()
    loss = model(x).square().mean()
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]


def test_an_op_nobody_lowers_runs_in_eager_after_one_warning():
    torch.manual_seed(0)
    model = WithOddOp()
    ref = copy.deepcopy(model)
    compiled = torch.compile(model, backend=cd.backend)
    x = torch.randn(2, 1, 8, 8)
    cd._warned.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            loss, grads = step(compiled, x)
            loss_ref, grads_ref = step(ref, x)
            assert loss == pytest.approx(loss_ref, rel=1e-6)
            for a, b in zip(grads, grads_ref):
                assert torch.allclose(a, b, rtol=1e-5, atol=1e-6)
    ours = [str(w.message) for w in caught if "convopt backend" in str(w.message)]
    assert len(ours) == 1, ours
    assert "convopt_test.odd_scale" in ours[0] and "eager PyTorch" in ours[0]


def test_fallback_false_is_a_clear_error():
    model = torch.compile(WithOddOp(), backend=cd.backend, options={"fallback": False})
    with pytest.raises(Exception) as raised:
        model(torch.randn(2, 1, 8, 8))
    assert "convopt backend: iree-compile cannot build op torch.convopt_test.odd_scale" in str(raised.value)


def test_a_second_backend_instance_compiles_nothing(tmp_path):
    """The same graphs again, after Dynamo forgot them: every module comes
    from the cache folder, IREE's compiler is not called."""
    torch.manual_seed(0)
    model = DigitsCNN()
    x = torch.randn(8, 1, 8, 8)
    options = {"cache_dir": str(tmp_path)}
    before = COUNTS["iree_compile"]
    step(torch.compile(copy.deepcopy(model), backend=cd.backend, options=options), x)
    first = COUNTS["iree_compile"] - before
    assert first == 2  # forward and backward
    assert len(list(tmp_path.glob("*.vmfb"))) == 2
    torch._dynamo.reset()
    before, hits = COUNTS["iree_compile"], COUNTS["cache_hits"]
    loss, _ = step(torch.compile(copy.deepcopy(model), backend=cd.backend, options=options), x)
    assert (COUNTS["iree_compile"] - before, COUNTS["cache_hits"] - hits) == (0, 2)
    assert loss == pytest.approx(step(copy.deepcopy(model), x)[0], rel=1e-5)


def test_other_options_compile_again(tmp_path):
    mlir = "module {}"
    base = Options(cache_dir=str(tmp_path))
    keys = {build.cache.key(mlir, o) for o in (base, Options(cache_dir=str(tmp_path), target_cpu="generic"), Options(iree_flags=("--iree-opt-level=O2",)))}
    assert len(keys) == 3
    assert build.cache.key(mlir, base) == build.cache.key(mlir, Options())  # the folder is not in the key


def test_none_outputs_are_taken_out_and_put_back():
    from torch.fx.experimental.proxy_tensor import make_fx

    gm = make_fx(lambda x, y: (x * 2, None, y.sum()))(torch.ones(2), torch.ones(3))
    stripped, outputs = tensor_outputs(gm)
    assert outputs.kinds == ("result", "none", "result")
    results = stripped(torch.ones(2), torch.ones(3))
    assert len(results) == 2
    assert outputs.rebuild(list(results), [])[1] is None


def test_a_frozen_layer_gets_no_gradient():
    """The backward graph returns None for inputs that need no gradient."""
    torch.manual_seed(0)
    model = DigitsCNN()
    model.features[0].requires_grad_(False)
    ref = copy.deepcopy(model)
    x = torch.randn(4, 1, 8, 8)
    compiled = torch.compile(model, backend=cd.backend)
    loss = compiled(x).square().mean()
    loss.backward()
    loss_ref = ref(x).square().mean()
    loss_ref.backward()
    assert model.features[0].weight.grad is None
    assert loss.item() == pytest.approx(loss_ref.item(), rel=1e-5)
    assert torch.allclose(model.features[1].weight.grad, ref.features[1].weight.grad, rtol=1e-4, atol=1e-6)


def test_options_are_checked_by_name():
    with pytest.raises(ValueError, match="unknown option 'targt'; the options are target, target_cpu"):
        Options.from_dict({"targt": "rocm"})
    with pytest.raises(ValueError, match="target must be one of llvm-cpu, rocm, cuda, vulkan-spirv"):
        Options(target="tpu")
    flags = Options(target="rocm", target_chip="gfx942", iree_flags=["--iree-opt-level=O3"]).compile_flags()
    assert flags[0] == "--iree-hal-target-backends=rocm" and "--iree-hip-target=gfx942" in flags and flags[-1] == "--iree-opt-level=O3"
    assert Options().compile_flags()[:1] + Options().compile_flags()[2:] == ["--iree-hal-target-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host"]
    assert (Options().convopt_device, Options(target="cuda").convopt_device, Options(device="avx512").convopt_device) == ("cpu", "gpu", "avx512")


def test_cost_profile_reaches_convopt_only_when_set(monkeypatch, tmp_path):
    from convopt import api

    seen = []
    monkeypatch.setattr(api, "lower", lambda text, **kw: seen.append(kw) or text)
    build.lower("module {}", Options())
    profile = tmp_path / "cost.json"
    profile.write_text("{}")
    build.lower("module {}", Options(cost_profile=str(profile)))
    assert "cost_profile" not in seen[0] and seen[1]["cost_profile"] == str(profile)
    assert seen[0]["pool_bwd"] and seen[0]["forward_convs"]


def test_registered_by_entry_point_and_by_hand():
    tomllib = pytest.importorskip("tomllib", reason="Python 3.10 has no tomllib (3.11 does)")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    entry = project["entry-points"]["torch_dynamo_backends"]["convopt"]
    module, _, name = entry.partition(":")
    assert getattr(__import__(module, fromlist=[name]), name) is cd.backend
    assert {"torch-mlir==20261001", "iree-base-compiler==3.13.0", "iree-base-runtime==3.13.0"} <= set(project["optional-dependencies"]["torch"])
    cd.register()
    assert "convopt" in torch._dynamo.list_backends(exclude_tags=())
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU())
    x = torch.randn(1, 1, 5, 5)
    assert torch.allclose(torch.compile(model, backend="convopt", options={"target_cpu": "host"})(x), model(x), atol=1e-6)


def test_inputs_are_not_copied():
    from convopt.dynamo.runtime import Module

    class Fake(Module):
        def __init__(self) -> None:
            from convopt.dynamo.runtime import _device

            self.device = _device("local-task")
            self.allocator = self.device.allocator
            self.host = True

    t = torch.randn(64, 33)
    view = Fake()._buffer_view(t, [])
    mapped = view.get_buffer().map().asarray(t.shape, t.numpy().dtype)
    assert mapped.ctypes.data == t.data_ptr()


def test_import_convopt_stays_light():
    code = "import sys, convopt, convopt.api; print(sorted(m for m in ('torch', 'iree', 'torch_mlir') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "[]"


def test_a_result_that_is_an_argument_does_not_alias_it():
    """IREE hands back an argument's own buffer when a graph returns it; the
    runtime clones such a result (it would alias a temporary, or a tensor the
    optimizer updates in place)."""
    from torch.fx.experimental.proxy_tensor import make_fx

    x = torch.randn(16, 16)
    gm = make_fx(lambda x: (x, x * 2))(x)
    call = cd.compile_graph(gm, [x], Options())
    same, double = call([x])
    assert torch.equal(same, x) and torch.equal(double, x * 2)
    assert same.data_ptr() != x.data_ptr()


def test_local_sync_runs_in_the_calling_thread():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU())
    x = torch.randn(1, 1, 5, 5)
    out = torch.compile(model, backend=cd.backend, options={"driver": "local-sync"})(x)
    assert torch.allclose(out, model(x), atol=1e-6)
    with pytest.raises(ValueError, match="driver 'local-sync' does not run target 'cuda' modules"):
        Options(target="cuda", driver="local-sync")


def _conv_graph():
    from torch.fx.experimental.proxy_tensor import make_fx

    torch.manual_seed(0)
    w, x = torch.randn(4, 3, 3, 3), torch.randn(2, 3, 9, 9)
    gm = make_fx(lambda x, w: (torch.relu(torch.nn.functional.conv2d(x, w)),))(x, w)
    return gm, [x, w]


def test_both_cpu_drivers_compute_the_same_bits():
    """The `driver` option changes who runs the dispatches, not what they compute."""
    from convopt.dynamo import compile as build
    from convopt.dynamo.importer import import_raw
    from convopt.dynamo.runtime import Module

    gm, args = _conv_graph()
    vmfb = build.build(import_raw(tensor_outputs(gm)[0]), Options(cache=False)).vmfb
    sync, task = (Module(vmfb, d)(args)[0] for d in ("local-sync", "local-task"))
    assert torch.equal(sync, task)


def test_a_module_failing_at_run_time_falls_back_once(monkeypatch):
    from convopt.dynamo import runtime

    def broken(self, args):
        raise RuntimeError("c/runtime/src/iree/hal/...: INTERNAL; a test's failure\nmore lines")

    monkeypatch.setattr(runtime.Module, "__call__", broken)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU())
    x = torch.randn(1, 1, 5, 5)
    cd._warned.clear()
    compiled = torch.compile(model, backend=cd.backend)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            assert torch.allclose(compiled(x), model(x))
    ours = [str(w.message) for w in caught if "convopt backend" in str(w.message)]
    assert ours == ["convopt backend: IREE's runtime failed on the graph: c/runtime/src/iree/hal/...: INTERNAL; a test's failure; this graph runs in eager PyTorch"]
    with pytest.raises(Exception, match="convopt backend: IREE's runtime failed"):
        torch._dynamo.reset()
        torch.compile(model, backend=cd.backend, options={"fallback": False})(x)
