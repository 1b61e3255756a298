"""convopt-calibrate and --cost-profile: the profile file, the choice it
makes, the packed variant it prices, and a calibration's fit (with a
synthetic timer: no IREE), and one real quick calibration through IREE."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import warnings

import pytest

import convopt
from convopt.calibrate import calibrate, kernels
from convopt.calibrate.fit import fit
from convopt.calibrate.measure import Lowered
from convopt.lowering.kernel import calibrated
from convopt.lowering.kernel.cost import FIELDS, Costs
from convopt.lowering.kernel.device import AVX512_COSTS, CPU_COSTS, PROFILES, Device

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
GRAD_WEIGHT = kernels.torch_text(kernels.KERNELS[1])  # resnet-3x3-s1 grad_weight, 64 channels


def profile(tmp_path, name="p.json", cls="avx512", costs: Costs = AVX512_COSTS, tiles=(), model=None, **cost_changes) -> str:
    """A profile file with these costs (changed by cost_changes)."""
    data = {
        "format": calibrated.FORMAT, "version": calibrated.VERSION,
        "cpu": {"model": calibrated.host_cpu_model() if model is None else model, "class": cls, "flags": ["avx2", "fma", "avx512f", "avx512_bf16"]},
        "iree": {"version": calibrated.iree_version(), "target_cpu": "host"}, "threads": 2,
        "costs": {**dataclasses.asdict(costs), **cost_changes}, "packed": list(tiles),
    }
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def ops(text: str) -> set[str]:
    return {w.split()[0] for w in text.split("linalg.")[1:]}


def test_a_profile_of_the_class_costs_emits_the_class_bytes(tmp_path):
    """No measured difference, no different choice: the cpu class's own
    costs in a file give the default's bytes."""
    path = profile(tmp_path, cls="cpu", costs=CPU_COSTS)
    for k in kernels.KERNELS:
        text = kernels.torch_text(k)
        assert convopt.lower(text, cost_profile=path) == convopt.lower(text), k.name


def test_the_choice_follows_the_measured_costs(tmp_path):
    assert "matmul" in ops(convopt.lower(GRAD_WEIGHT))
    dear = convopt.lower(GRAD_WEIGHT, cost_profile=profile(tmp_path, matmul=1.0))
    assert "matmul" not in ops(dear) and "generic" in ops(dear)


def test_packed_variant_competes_only_where_measured(tmp_path):
    """The mmt4d variant is offered where the profile lists its tiles and
    wins when its multiply-adds are cheap; never in the class profiles; and
    dropped for an AVX2 device (IREE 3.13 miscompiles 16-column tiles)."""
    cheap = profile(tmp_path, tiles=["f32"], packed=AVX512_COSTS.matmul / 4)
    assert "mmt4d" in ops(convopt.lower(GRAD_WEIGHT, cost_profile=cheap))
    assert "mmt4d" not in ops(convopt.lower(GRAD_WEIGHT, cost_profile=cheap, device="avx2"))
    assert "mmt4d" not in ops(convopt.lower(GRAD_WEIGHT, cost_profile=profile(tmp_path, "dear.json", tiles=["f32"], packed=AVX512_COSTS.matmul * 4)))
    assert "mmt4d" not in ops(convopt.lower(GRAD_WEIGHT, device="avx512"))
    assert all(not p.packed_tiles for p in PROFILES.values())


@pytest.mark.parametrize("text, message", [
    ("not json", "not a convopt cost profile"),
    ("{}", 'no "format": "convopt-cost-profile"'),
    ('{"format": "convopt-cost-profile", "version": 99}', "version 99"),
    ('{"format": "convopt-cost-profile", "version": 1}', "'costs' is missing"),
    ('{"format": "convopt-cost-profile", "version": 1, "costs": {"matmul": -1}}', "invalid costs: matmul"),
    ('{"format": "convopt-cost-profile", "version": 1, "costs": {"warp": 1}}', "invalid costs: warp"),
])
def test_a_bad_profile_is_a_clear_error(text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        calibrated.parse(text, "f.json")


def test_cli_refuses_a_bad_profile_and_warns_of_another_cpu(tmp_path):
    src = tmp_path / "k.mlir"
    src.write_text(GRAD_WEIGHT)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    run = subprocess.run([os.path.join(BIN, "convopt"), "--lower-conv-bwd", f"--cost-profile={bad}", str(src), "-o", str(tmp_path / "out.mlir")], capture_output=True, text=True)
    assert run.returncode == 2 and "--cost-profile:" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "out.mlir").exists()
    other = profile(tmp_path, "other.json", model="Some Other CPU")
    run = subprocess.run([os.path.join(BIN, "convopt"), "--lower-conv-bwd", f"--cost-profile={other}", str(src)], capture_output=True, text=True)
    assert run.returncode == 0 and "warning: the cost profile was calibrated for CPU 'Some Other CPU'" in run.stderr
    run = subprocess.run([os.path.join(BIN, "convopt"), f"--cost-profile={other}", str(src)], capture_output=True, text=True)
    assert run.returncode == 2 and "apply to --lower-conv-bwd" in run.stderr


def test_api_warns_of_another_cpu(tmp_path):
    with pytest.warns(UserWarning, match="Some Other CPU"):
        convopt.lower(GRAD_WEIGHT, cost_profile=profile(tmp_path, model="Some Other CPU"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        convopt.lower(GRAD_WEIGHT, cost_profile=profile(tmp_path, "same.json"))
    with pytest.raises(ValueError, match="spaces or braces"):
        convopt.lower(GRAD_WEIGHT, cost_profile=str(tmp_path / "a b.json"))


def test_device_host_reads_the_installed_calibration(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVOPT_CACHE_DIR", str(tmp_path))
    host = convopt.lower(GRAD_WEIGHT, device="host")
    path = calibrated.cache_path(calibrated.host_cpu_model(), calibrated.iree_version())
    os.makedirs(os.path.dirname(path))
    profile(tmp_path, os.path.relpath(path, tmp_path), cls=calibrated.flags_device(calibrated.read_host_flags()).value, matmul=1.0)
    assert convopt.lower(GRAD_WEIGHT, device="host") != host
    assert "matmul" not in ops(convopt.lower(GRAD_WEIGHT, device="host"))


def test_apply_takes_the_measured_class_and_refuses_gpu(tmp_path):
    cp = calibrated.load(profile(tmp_path, cls="avx2", costs=CPU_COSTS))
    assert calibrated.apply(cp, Device.CPU).device == Device.AVX2
    assert calibrated.apply(cp, Device.AVX512).device == Device.AVX512
    with pytest.raises(ValueError, match="device=gpu"):
        calibrated.apply(cp, Device.GPU)


class SyntheticTimer:
    """Times each candidate as truth.time(work) + 20 us, from the cost
    model's own work counts: a fit must recover truth's choices."""

    target_cpu, threads = "host", 1

    def __init__(self, truth: Costs):
        self.truth = truth

    def __call__(self, kernel, cands: list[Lowered]):
        return [((self.truth.time(c.work) + 20_000) * 1e-9, None) for c in cands]


def test_calibration_recovers_the_choices_of_known_costs(monkeypatch):
    """Timed by a machine whose costs are known (AVX2's, matmuls 3x dearer),
    the fit predicts the fastest candidate of every kernel, and writes a
    profile that parses."""
    monkeypatch.setattr("convopt.calibrate.measure.packed_right", lambda cands, timed: True)
    truth = dataclasses.replace(PROFILES[Device.AVX2].costs, matmul=3 * PROFILES[Device.AVX2].costs.matmul, packed=0.01)
    data = calibrate(kernels.KERNELS, SyntheticTimer(truth))
    assert data["fit"]["picks_within_10pct"] == data["fit"]["kernels"] == len(kernels.KERNELS)
    assert data["fit"]["median_rel_err"] < 0.03
    cp = calibrated.parse(json.dumps(data))
    assert cp.cpu_model == calibrated.host_cpu_model()


def test_fit_keeps_the_prior_where_nothing_is_measured():
    works = [[0.0] * len(FIELDS) for _ in range(4)]
    i = FIELDS.index("matmul")
    for j, w in enumerate(works):
        w[i] = 1e6 * (j + 1)
    theta = fit(works, [(0.02 * w[i] + 1000) * 1e-9 for w in works], [1.0] * len(FIELDS))
    assert theta[i] == pytest.approx(0.02, rel=0.2)
    assert theta[FIELDS.index("named")] == pytest.approx(1.0, rel=0.01)


def test_calibrate_says_what_it_needs_without_iree():
    code = "import sys; sys.modules['iree.runtime'] = None; sys.argv = ['convopt-calibrate', '-o', '/dev/null']; from convopt.calibrate import entry; entry()"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1 and "needs IREE's compiler and runtime" in run.stderr and "Traceback" not in run.stderr


def test_opt_level_weighs_the_build():
    """--opt-level: O1 prices a dispatch's build 100x O2's, O3 a hundredth:
    fewer linalg ops at O1, more at O3, O2's bytes the default's."""
    text = (open(os.path.join(ROOT, "test", "models", "c3d.mlir")).read())
    counts = {level: convopt.lower(text, pool_bwd=True, forward_convs=True, opt_level=level).count("linalg.") for level in ("O1", "O2", "O3")}
    assert counts["O1"] < counts["O2"] < counts["O3"]
    assert convopt.lower(text, opt_level="O2") == convopt.lower(text)
    with pytest.raises(ValueError, match="opt_level must be one of"):
        convopt.lower(text, opt_level="O9")
    from convopt.lowering.choices import OPT_LEVELS
    from convopt.lowering.patterns.options import BUILD_WEIGHTS

    assert tuple(BUILD_WEIGHTS) == OPT_LEVELS  # every level the CLI and the API take has a weight
