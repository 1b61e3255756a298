"""bench/gpu_run: a prepared device run -- convopt's build, IREE's own and
PyTorch on one GPU, timed in one interleaved run and checked against
PyTorch.

Two halves.  `pack` runs here (IREE's compiler, convopt, PyTorch on the
CPU): it compiles each case twice, convopt's output (`convopt
--lower-conv-bwd --device=gpu`) and the raw import (IREE's own lowering of
the same torch IR), and writes one folder:

    run.py            this file (the device half needs only numpy, torch and
                      iree.runtime, none of convopt)
    model_zoo.py      test/models/model_zoo.py (PyTorch's side of the models)
    wheels/           iree-base-runtime and ml_dtypes for the device's Python
                      (put there with --wheels DIR: `pip download
                      iree-base-runtime==3.13.0 --python-version 3.12
                      --only-binary=:all: --platform manylinux_2_28_x86_64 -d DIR
                      --no-deps`, the same for ml_dtypes)
    manifest.json     the cases: vmfbs, the PyTorch call, tolerances
    NAME.convopt.vmfb, NAME.iree.vmfb
    NAME.npz          a model's arguments and expected results (PyTorch
                      float64 on the CPU, as float32); a layer's arguments are
                      drawn on the device from the case's seed (numpy's PCG64,
                      as test/e2e/harness.py draws them: the layers' tensors
                      would not fit in 64 MiB), checked against fingerprints
                      taken here, its expected results PyTorch float64 there

`run DIR` runs on the device (also as `python DIR/run.py run DIR`):
installs the wheels into DIR/site (no network), then per case loads both
vmfbs on IREE's driver (`cuda`; `local-task` for the rehearsal), puts the
arguments on the device once, checks each result against the expected ones
(relative error scaled by max(1, max|expected|), the case's tolerance),
and times convopt, IREE's own and PyTorch (cuDNN, TF32 off: the same f32
arithmetic) interleaved, one call each per round, --repeats rounds after
a warm-up: median and spread (min, max) in ms.  Writes DIR/results.json
(or --results FILE) and prints a table.

`--cpu-rehearsal` packs a couple of layers and one model for llvm-cpu
(into a temporary folder, or --out) and runs them with `local-task`:
everything but the device itself, end to end.

    python -m bench.gpu_run pack [--target cuda|cpu] [--layers all|a,b] [--dtypes f32,bf16]
                                 [--models a,b|none] [--wheels DIR] --out DIR
    python DIR/run.py run DIR [--driver cuda] [--repeats 7] [--results FILE]
    python -m bench.gpu_run --cpu-rehearsal [--out DIR]

run.py is this file alone: the device half imports nothing of bench or
convopt (the pack half imports them inside its functions).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# cuda: IREE 3.13 has no sm_90 target ("missing GPU target in
# #hal.executable.target", sm_90 and sm_90a alike); its PTX for sm_80 is
# JIT-compiled by the driver for a Hopper GPU (H100/H200).
TARGET_FLAGS = {
    "cuda": ["--iree-hal-target-backends=cuda", "--iree-cuda-target=sm_80"],
    "cpu": ["--iree-hal-target-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host"],
}
DRIVERS = {"cuda": "cuda", "cpu": "local-task"}
TORCH_DTYPES = {"f32": "float32", "bf16": "bfloat16", "f16": "float16"}
TOLERANCE = {"f32": 1e-4, "f16": 2e-2, "bf16": 5e-2}


# ------------------------------------------------------------------ pack (here)


def _project():
    """The project's modules for packing (the e2e harness, bench/emitted, the
    models); imported here, not at the top: the device half has none of them."""
    from bench import emitted
    from bench.testsupport import load

    return load("harness"), emitted, load("model_zoo")


def fingerprint(a) -> list[float]:
    """A few numbers that tell an array apart: its sum, sum of squares and first element."""
    import numpy as np

    f = np.asarray(a, dtype=np.float64).ravel()
    return [float(f.sum()), float((f * f).sum()), float(f[0]) if f.size else 0.0]


def _compile(text: str, target: str, path: Path) -> float:
    """iree-compile text (torch IR) for target into path; CPU seconds."""
    iree = str(Path(sys.executable).with_name("iree-compile"))
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    try:
        before = os.times()
        proc = subprocess.run([iree, f.name, "--iree-input-type=torch", *TARGET_FLAGS[target], "-o", str(path)], capture_output=True, text=True)
        after = os.times()
    finally:
        os.unlink(f.name)
    if proc.returncode:
        raise RuntimeError(proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else "iree-compile failed")
    return round(after.children_user + after.children_system - before.children_user - before.children_system, 2)


def _builds(name: str, text: str, target: str, out: Path, harness, log) -> dict:
    """Both vmfbs of a case: {flow: file} and their build CPU seconds (a flow
    that fails to build is recorded, not packed)."""
    vmfbs, cpu, errors = {}, {}, {}
    lowered = {"convopt": harness.lower(text, ("--lower-conv-bwd", "--device=gpu")), "iree": text}
    for flow, t in lowered.items():
        path = out / f"{name}.{flow}.vmfb"
        try:
            cpu[flow] = _compile(t, target, path)
            vmfbs[flow] = path.name
        except RuntimeError as e:
            errors[flow] = str(e)[:200]
        log(f"  {name} {flow}: {'ok ' + str(cpu[flow]) + ' cpu-s' if flow in cpu else 'FAIL ' + errors[flow]}")
    return {"vmfbs": vmfbs, "build_cpu_s": cpu, "build_errors": errors}


def pack_layer(name: str, layer: dict, dtype: str, target: str, out: Path, log) -> dict:
    harness, emitted, _ = _project()
    cfg = emitted.config(name, layer, dtype)
    go, x, w = (harness.round_to(a, dtype) for a in harness.inputs(cfg))
    case = {
        "name": f"{name}.{dtype}",
        "kind": "layer",
        "dtype": dtype,
        "seed": cfg.seed,
        "shapes": [list(go.shape), list(x.shape), list(w.shape)],
        "fingerprints": [fingerprint(a) for a in (go, x, w)],
        "conv": {
            "bias_sizes": [cfg.cout],
            "stride": list(cfg.stride),
            "padding": list(cfg.padding),
            "dilation": list(cfg.dilation),
            "transposed": cfg.transposed,
            "output_padding": list(cfg.out_padding),
            "groups": cfg.groups,
            "mask": list(cfg.mask),
        },
        "tolerance": TOLERANCE[dtype],
    }
    case.update(_builds(case["name"], harness.torch_ir(cfg), target, out, harness, log))
    return case


def pack_model(name: str, target: str, out: Path, log) -> dict:
    import numpy as np
    import torch

    harness, _, model_zoo = _project()
    spec = model_zoo.MODELS[name]
    args = spec.arguments(spec.run_batch)
    expected = spec.reference(args)
    arrays = {f"arg{i}": a.contiguous().numpy() for i, a in enumerate(args)}
    arrays.update({f"expected{i}": e.to(torch.float32 if e.is_floating_point() else e.dtype).contiguous().numpy() for i, e in enumerate(expected)})
    np.savez(out / f"{name}.npz", **arrays)
    case = {"name": name, "kind": "model", "dtype": "f32", "args": len(args), "results": len(expected), "tolerance": spec.tolerance, "counts": list(spec.counts())}
    text = (HERE.parent / "test" / "models" / spec.file).read_text()
    case.update(_builds(name, text, target, out, harness, log))
    return case


def pack(target: str, layers: list[str], dtypes: list[str], models: list[str], out: Path, wheels: str | None, log=print) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(__file__, out / "run.py")
    shutil.copy(HERE.parent / "test" / "models" / "model_zoo.py", out / "model_zoo.py")
    if wheels:
        (out / "wheels").mkdir(exist_ok=True)
        for whl in Path(wheels).glob("*.whl"):
            shutil.copy(whl, out / "wheels" / whl.name)
    table = json.loads((HERE / "layers.json").read_text())
    cases = []
    for name in layers:
        for dtype in dtypes:
            log(f"layer {name} {dtype}")
            cases.append(pack_layer(name, table[name], dtype, target, out, log))
    for name in models:
        log(f"model {name}")
        cases.append(pack_model(name, target, out, log))
    manifest = {"target": target, "driver": DRIVERS[target], "iree_flags": TARGET_FLAGS[target], "cases": cases}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    log(f"packed {len(cases)} cases into {out}: {size / 2**20:.1f} MiB")
    return manifest


# ------------------------------------------------------------------ run (device)


def _install(folder: Path) -> None:
    """The wheels of folder/wheels into folder/site (offline), made a site
    directory; nothing when iree.runtime is importable already (the
    rehearsal)."""
    try:
        import iree.runtime  # noqa: F401

        return
    except ImportError:
        pass
    site = folder / "site"
    if not site.is_dir():
        wheels = sorted(str(p) for p in (folder / "wheels").glob("*.whl"))
        subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--target", str(site), *wheels], check=True)
    import site as site_module

    site_module.addsitedir(str(site))


def _layer_arrays(case: dict):
    """A layer's arguments, drawn from its seed as test/e2e/harness.py
    draws them (float64 holding the dtype's values), checked against the
    fingerprints taken when it was packed."""
    import numpy as np

    rng = np.random.default_rng(case["seed"])
    go_shape, x_shape, w_shape = (tuple(s) for s in case["shapes"])
    x = rng.standard_normal(x_shape)
    w = rng.standard_normal(w_shape)
    go = rng.standard_normal(go_shape)
    arrays = [_round(a, case["dtype"]) for a in (go, x, w)]
    for a, fp in zip(arrays, case["fingerprints"]):
        got = fingerprint(a)
        if not all(math.isclose(g, e, rel_tol=1e-9, abs_tol=1e-9) for g, e in zip(got, fp)):
            raise RuntimeError(f"inputs differ from the packed ones (numpy's generator): {got} != {fp}")
    return arrays


def _round(a, dtype: str):
    return _host(a, dtype).astype("float64")


def _host(a, dtype: str):
    import numpy as np

    if dtype == "bf16":
        import ml_dtypes

        return np.asarray(a, dtype=np.float32).astype(ml_dtypes.bfloat16)
    return np.asarray(a, dtype={"f32": np.float32, "f16": np.float16}[dtype])


def _error(got, expected) -> float:
    import numpy as np

    g = np.asarray(got, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    if g.shape != e.shape:
        return math.inf
    if not e.size:
        return 0.0
    return float(np.max(np.abs(g - e))) / max(1.0, float(np.max(np.abs(e))))


def _torch_device(driver: str) -> str:
    return "cuda" if driver == "cuda" else "cpu"


def _sync(dev: str) -> None:
    import torch

    if dev == "cuda":
        torch.cuda.synchronize()


def layer_case(case: dict, dev: str):
    """(arguments for IREE, expected results, PyTorch call) of a layer."""
    import numpy as np
    import torch

    arrays = _layer_arrays(case)
    c = case["conv"]
    t64 = [torch.from_numpy(a) for a in arrays]
    ref = torch.ops.aten.convolution_backward(*t64, c["bias_sizes"], c["stride"], c["padding"], c["dilation"], c["transposed"], c["output_padding"], c["groups"], c["mask"])
    expected = [r.numpy() for r, m in zip(ref, c["mask"]) if m]
    tdt = getattr(torch, TORCH_DTYPES[case["dtype"]])
    targs = [a.to(tdt).to(dev) for a in t64]

    def call():
        out = torch.ops.aten.convolution_backward(*targs, c["bias_sizes"], c["stride"], c["padding"], c["dilation"], c["transposed"], c["output_padding"], c["groups"], c["mask"])
        return [r for r, m in zip(out, c["mask"]) if m]

    return [_host(a, case["dtype"]) for a in arrays], expected, call, np


def _packed_module(folder: Path, name: str):
    """The module folder/NAME.py (packed next to run.py), imported once."""
    import importlib.util

    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
        assert spec is not None and spec.loader is not None, name
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def model_case(case: dict, folder: Path, dev: str):
    """(arguments for IREE, expected results, PyTorch call) of a model:
    PyTorch runs the eager module's training step (forward and
    autograd.grad) as model_zoo's reference does, on dev in float32."""
    import numpy as np
    import torch

    model_zoo = _packed_module(folder, "model_zoo")
    data = np.load(folder / f"{case['name']}.npz")
    args = [data[f"arg{i}"] for i in range(case["args"])]
    expected = [data[f"expected{i}"] for i in range(case["results"])]
    spec = model_zoo.MODELS[case["name"]]
    n_in, n_p, n_b, n_o = case["counts"]
    m = spec.model().to(dev)
    targs = [torch.from_numpy(a).to(dev) for a in args]
    with torch.no_grad():
        for (_, p), v in zip(m.named_parameters(), targs[n_in : n_in + n_p]):
            p.copy_(v)
    inputs, grad_outs = targs[:n_in], targs[n_in + n_p + n_b :]
    buffers = [v.clone() for v in targs[n_in + n_p : n_in + n_p + n_b]]

    def call():
        with torch.no_grad():  # the step starts from the packed buffers
            for (_, b), v in zip(m.named_buffers(), buffers):
                b.copy_(v)
        xs = [x.clone().requires_grad_(spec.input_grad) for x in inputs]
        outs = m(*xs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        wrt = (xs if spec.input_grad else []) + [p for _, p in m.named_parameters()]
        grads = torch.autograd.grad(outs, wrt, grad_outs)
        return list(grads) + [b for _, b in m.named_buffers()]

    return args, expected, call, np


def _stats(times: list[float]) -> dict:
    return {"median_ms": round(statistics.median(times), 4), "min_ms": round(min(times), 4), "max_ms": round(max(times), 4), "n": len(times)}


def run_case(case: dict, folder: Path, driver: str, repeats: int, ireert) -> dict:
    dev = _torch_device(driver)
    row: dict = {"name": case["name"], "kind": case["kind"], "dtype": case["dtype"], "errors": {}, "times": {}, "build_cpu_s": case.get("build_cpu_s", {}), "build_errors": case.get("build_errors", {})}
    if case["kind"] == "layer":
        args, expected, torch_call, np = layer_case(case, dev)
    else:
        args, expected, torch_call, np = model_case(case, folder, dev)
    calls = {}
    config = ireert.Config(driver)
    for flow, vmfb in case["vmfbs"].items():
        ctx = ireert.SystemContext(config=config)
        ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, (folder / vmfb).read_bytes()))
        fn = ctx.modules.module["main"]
        dargs = [ireert.asdevicearray(config.device, a) for a in args]
        out = fn(*dargs)
        outs = out if isinstance(out, (tuple, list)) else [out]
        row["errors"][flow] = max((_error(np.asarray(o.to_host()).astype(np.float64), e) for o, e in zip(outs, expected)), default=0.0)
        row["errors"][flow] = row["errors"][flow] if len(outs) == len(expected) else math.inf
        calls[flow] = lambda fn=fn, dargs=dargs: fn(*dargs)
    got = torch_call()
    _sync(dev)
    row["errors"]["pytorch"] = max((_error(g.detach().float().cpu().numpy(), e) for g, e in zip(got, expected)), default=0.0)
    calls["pytorch"] = lambda: torch_call()
    row["ok"] = {k: bool(v <= case["tolerance"]) for k, v in row["errors"].items()}
    times: dict[str, list[float]] = {k: [] for k in calls}
    names = list(calls)
    for r in range(repeats + 1):  # a warm-up round, then `repeats`
        order = names[r % len(names) :] + names[: r % len(names)]
        for k in order:
            _sync(dev)
            start = time.perf_counter()
            calls[k]()
            _sync(dev)
            if r:
                times[k].append(1e3 * (time.perf_counter() - start))
    row["times"] = {k: _stats(v) for k, v in times.items()}
    return row


def run(folder: Path, driver: str | None, repeats: int, results: Path | None, only: list[str] | None = None) -> list[dict]:
    folder = folder.resolve()
    _install(folder)
    import iree.runtime as ireert
    import torch

    torch.backends.cudnn.allow_tf32 = False  # f32 as IREE computes it
    torch.backends.cuda.matmul.allow_tf32 = False
    manifest = json.loads((folder / "manifest.json").read_text())
    driver = driver or manifest["driver"]
    rows = []
    for case in manifest["cases"]:
        if only and case["name"] not in only:
            continue
        try:
            row = run_case(case, folder, driver, repeats, ireert)
        except Exception as e:  # one case's failure is a row, not the end of the run
            row = {"name": case["name"], "kind": case["kind"], "dtype": case["dtype"], "failed": f"{type(e).__name__}: {str(e)[:300]}"}
        print(line(row), flush=True)
        rows.append(row)
    out = results or folder / "results.json"
    info = {"driver": driver, "repeats": repeats, "torch": torch.__version__, "device": torch.cuda.get_device_name() if driver == "cuda" else "cpu"}
    out.write_text(json.dumps({"info": info, "rows": rows}, indent=1) + "\n")
    print(table(rows))
    return rows


def line(row: dict) -> str:
    if "failed" in row:
        return f"{row['name']:32} FAILED {row['failed']}"
    t = row["times"]
    cells = " ".join(f"{k} {t[k]['median_ms']:.3f} [{t[k]['min_ms']:.3f}-{t[k]['max_ms']:.3f}]" for k in t)
    bad = [k for k, ok in row["ok"].items() if not ok]
    return f"{row['name']:32} {cells}" + (f"  WRONG: {', '.join(bad)}" if bad else "")


def table(rows: list[dict]) -> str:
    """Markdown: median ms (min-max) per flow, convopt / IREE's own and
    convopt / PyTorch, max relative error per flow."""
    head = "| case | convopt ms | IREE own ms | PyTorch ms | convopt/own | convopt/PyTorch | max rel. error (convopt, own, PyTorch) |"
    lines = [head, "|---|---|---|---|---|---|---|"]
    for r in rows:
        if "failed" in r:
            lines.append(f"| {r['name']} | failed: {r['failed'][:80]} | | | | | |")
            continue
        t = r["times"]
        ms = {k: f"{v['median_ms']:.3f} ({v['min_ms']:.3f}-{v['max_ms']:.3f})" for k, v in t.items()}

        def ratio(a: str, b: str, t: dict = t) -> str:
            return f"{t[a]['median_ms'] / t[b]['median_ms']:.2f}" if a in t and b in t else "-"

        errs = ", ".join(f"{r['errors'][k]:.1e}" if k in r["errors"] else "-" for k in ("convopt", "iree", "pytorch"))
        lines.append(f"| {r['name']} | {ms.get('convopt', '-')} | {ms.get('iree', '-')} | {ms.get('pytorch', '-')} | {ratio('convopt', 'iree')} | {ratio('convopt', 'pytorch')} | {errs} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ command line

REHEARSAL_LAYERS = ["resnet-3x3-s2", "mobilenet-dw-s1"]
REHEARSAL_MODEL = "resnext_block"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", nargs="?", choices=["pack", "run"])
    ap.add_argument("folder", nargs="?", help="run: the packed folder")
    ap.add_argument("--target", default="cuda", choices=sorted(TARGET_FLAGS))
    ap.add_argument("--layers", default="all")
    ap.add_argument("--dtypes", default="f32,bf16")
    ap.add_argument("--models", default="all")
    ap.add_argument("--wheels", help="pack: a folder of wheels for the device (iree-base-runtime, ml_dtypes)")
    ap.add_argument("--out", help="pack / rehearsal: the folder to write")
    ap.add_argument("--driver", help="run: IREE's driver (default: the manifest's)")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--results", help="run: where to write the results JSON (default FOLDER/results.json)")
    ap.add_argument("--only", help="run: these case names only")
    ap.add_argument("--cpu-rehearsal", action="store_true", help="pack a couple of layers and one model for llvm-cpu and run them with local-task")
    a = ap.parse_args(argv)
    if a.cpu_rehearsal:
        out = Path(a.out or tempfile.mkdtemp(prefix="convopt-gpu-run-"))
        pack("cpu", REHEARSAL_LAYERS, a.dtypes.split(","), [REHEARSAL_MODEL], out, a.wheels)
        rows = run(out, "local-task", a.repeats, Path(a.results) if a.results else None)
        bad = [r["name"] for r in rows if "failed" in r or not all(r["ok"].values())]
        sys.exit(1 if bad else 0)
    if a.command == "pack":
        if not a.out:
            ap.error("pack needs --out")
        table_ = json.loads((HERE / "layers.json").read_text())
        layers = [k for k in table_ if not k.startswith("_")] if a.layers == "all" else a.layers.split(",") if a.layers != "none" else []
        _, _, model_zoo = _project()
        models = [m for m in model_zoo.MODELS if not model_zoo.MODELS[m].dynamic_batch] if a.models == "all" else a.models.split(",") if a.models != "none" else []
        pack(a.target, layers, a.dtypes.split(","), models, Path(a.out), a.wheels)
    elif a.command == "run":
        if not a.folder:
            ap.error("run needs the packed folder")
        run(Path(a.folder), a.driver, a.repeats, Path(a.results) if a.results else None, a.only.split(",") if a.only else None)
    else:
        ap.error("a command (pack, run) or --cpu-rehearsal")


if __name__ == "__main__":
    main()
