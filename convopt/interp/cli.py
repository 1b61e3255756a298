"""`convopt-run`: run a function of a `.mlir` file with the reference
interpreter, like mlir-cpu-runner without a compiler.

    convopt-run FILE.mlir [INPUT.npy ...] [--inputs IN.npz | IN.npy ...] [--entry main] [-o OUT.npz]
    convopt-run FILE.mlir --random 0          # seeded standard-normal inputs
    convopt-run FILE.mlir --inputs REF.npz --compare REF.npz   # a reference file: arg0.. in, out0.. expected

Inputs are one `.npy` per argument, in order, or one `.npz` whose arrays are
named after the arguments (`go` for `%go`, or `arg0`, `arg1`, ... by
position, or numpy's default `arr_0`, ...); other arrays in it (`out0`, ...
of a reference file) are ignored, and named on stderr.  They are converted
to the argument types.  Without `-o` it prints each result's type, shape,
dtype, a summary and the values; with `-o` it writes them (atomically) to
an `.npz` (`out0`, `out1`, ...: the names `--compare` reads) or, for one
result, an `.npy`.  `--compare REF.npz` checks result #i against REF's
`out<i>` instead of printing them:

    max|result_i - out_i|  <=  atol + rtol * max(1, max|out_i|)

with rtol = TOLERANCE[element type] (the e2e tests' tolerances; integer
results must be equal) unless `--rtol` gives one, and atol = `--atol`
(default 0); exit 1 naming the first result over it, else one summary line.
Errors are MLIR-style diagnostics on stderr, exit code 1; an op the
interpreter does not run that is a torch op gets a note with the command
that lowers it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Optional

import numpy as np

from ..diagnostics import ConvoptError, SourceFile

TOLERANCE = {"f32": 1e-4, "f64": 1e-9, "f16": 2e-2, "bf16": 5e-2}
"""`--compare`'s relative tolerance per element type: test/e2e/harness.py's."""


class Mismatch(Exception):
    """A result differs from the reference by more than the tolerance."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="convopt-run", description="Run a function of an MLIR file with convopt's reference interpreter (numpy).")
    p.add_argument("file", help="the .mlir file ('-' for stdin)")
    p.add_argument("inputs", nargs="*", help="one .npy per argument, or one .npz")
    p.add_argument("--inputs", dest="more_inputs", nargs="+", default=[], metavar="IN", help="the inputs, as after FILE")
    p.add_argument("--entry", default="main", help="the function to run (default: main)")
    p.add_argument("-o", "--output", help="write the results to this .npz (or .npy for one result)")
    p.add_argument("--random", type=int, metavar="SEED", help="no input files: standard-normal inputs from this seed (static shapes only)")
    p.add_argument("--compare", metavar="REF.npz", help="check result #i against REF's out<i> with the e2e tests' tolerances (exit 1 on a mismatch)")
    p.add_argument("--rtol", type=float, metavar="R", help="--compare's relative tolerance for every result (default: per element type, the e2e tests')")
    p.add_argument("--atol", type=float, default=0.0, metavar="A", help="--compare's absolute tolerance, added to the relative one (default: 0)")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_intermixed_args(argv)
    if (args.rtol is not None or args.atol) and not args.compare:
        parser.error("--rtol and --atol apply to --compare")
    try:
        results, func = _run(args)
    except ConvoptError as e:
        print(e.diagnostic.render(), file=sys.stderr)
        return 1
    except (OSError, ValueError) as e:
        print(f"convopt-run: error: {_message(e)}", file=sys.stderr)
        return 1
    types = _signature(func).results
    try:
        if args.output:
            _save(args.output, results)
        if args.compare:
            print(compare(args.compare, results, types, args.rtol, args.atol))
    except (Mismatch, OSError, ValueError) as e:
        print(f"convopt-run: error: {_message(e)}", file=sys.stderr)
        return 1
    if not args.output and not args.compare:
        for i, (r, t) in enumerate(zip(results, types)):
            print(_describe(i, r, t))
    return 0


def _message(e: Exception) -> str:
    """An OSError as 'could not read FILE: reason' (no `[Errno 2]`), else the text."""
    if isinstance(e, OSError) and e.strerror:
        return f"could not {'write' if getattr(e, 'writing', False) else 'read'} '{e.filename}': {e.strerror}" if e.filename else e.strerror
    return str(e)


def compare(path: str, results: list, types: list, rtol: Optional[float] = None, atol: float = 0.0) -> str:
    """The summary line when every result matches REF's out<i> (see the
    module docstring; `rtol` replaces the per-type tolerance, `atol` is
    added: max|result - out| <= atol + rtol * max(1, max|out|)); Mismatch
    naming the first that does not, ValueError for a missing or misshaped
    reference."""
    with np.load(path) as data:
        refs = {k: data[k] for k in data.files}
    worst = []
    for i, (r, t) in enumerate(zip(results, types)):
        if f"out{i}" not in refs:
            raise ValueError(f"{path} has no array out{i} for result #{i} (it holds {', '.join(sorted(refs)) or 'nothing'})")
        got, ref = np.asarray(r), refs[f"out{i}"]
        if got.shape != ref.shape:
            raise Mismatch(f"result #{i} has shape {got.shape}, {path}'s out{i} {ref.shape}")
        kind, tolerance = _tolerance(t)
        if rtol is not None:
            kind, tolerance = "--rtol", rtol
        err, scale = _relative_error(got, ref)
        if not err * scale <= atol + tolerance * scale:
            bound = f"{tolerance:g} for {kind}" + (f" (+ --atol {atol:g})" if atol else "")
            raise Mismatch(f"result #{i} differs from {path}'s out{i}: max error {err:.3g} (relative to max(1, max|out{i}|)) > {bound}")
        worst.append(f"out{i} {err:.3g}")
    if f"out{len(results)}" in refs:
        raise ValueError(f"{path} has out{len(results)}, but the function returns {len(results)} result{'s' if len(results) != 1 else ''}")
    given = f"--rtol {rtol:g}" if rtol is not None else f"tolerance per element type: {', '.join(f'{k} {v:g}' for k, v in TOLERANCE.items())}"
    given += f", --atol {atol:g}" if atol else ""
    extra = f" ({', '.join(worst)}; {given})" if worst else ""
    return f"convopt-run: {len(results)} result{'s' if len(results) != 1 else ''} match {path}{extra}"


def _tolerance(t: Any) -> tuple[str, float]:
    """(element type name, relative tolerance): TOLERANCE's for floats, 0 for integers."""
    from .values import element_type, np_dtype

    name = str(element_type(t))
    if name in TOLERANCE:
        return name, TOLERANCE[name]
    if np_dtype(t).kind in "iub":
        return name, 0.0
    raise ValueError(f"--compare: no tolerance for the element type {name}")


def _relative_error(got: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """(max|got - ref| / scale, scale = max(1, max|ref|)) in float64; NaN
    where the reference has none (or the other way round) is an infinite
    error."""
    g, e = got.astype(np.float64), ref.astype(np.float64)
    if not e.size:
        return 0.0, 1.0
    nan_g, nan_e = np.isnan(g), np.isnan(e)
    if (nan_g != nan_e).any():
        return float("inf"), 1.0
    keep = ~nan_e
    if not keep.any():
        return 0.0, 1.0
    scale = max(1.0, float(np.max(np.abs(e[keep]))))
    return float(np.max(np.abs(g[keep] - e[keep]))) / scale, scale


def entry() -> None:
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `convopt-run ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)


def _run(args: argparse.Namespace) -> tuple[list, Any]:
    from ..driver import decode, read_input
    from ..parser import parse
    from ..verifier import verify
    from . import Interpreter

    name, data = read_input(args.file)
    from .values import resource_blobs

    parsed = parse(SourceFile(name, decode(name, data)))
    module = parsed.module
    verify(module)
    interp = Interpreter(module, resource_blobs(parsed.metadata))
    func = interp.function(args.entry, module)
    values = _inputs(args.inputs + args.more_inputs, func, args.random)
    return interp.call(args.entry, values), func


def _signature(func):
    from . import Interpreter

    return Interpreter.signature(func)


def _arg_names(func) -> list[str]:
    return [a.name_hint or f"arg{i}" for i, a in enumerate(func.regions[0].blocks[0].args)]


def _inputs(paths: list[str], func, seed: Optional[int]) -> list:
    from .values import np_dtype, shape_of

    sig = _signature(func)
    if seed is not None:
        if paths:
            raise ValueError("--random takes no input files")
        rng = np.random.default_rng(seed)
        out = []
        for i, t in enumerate(sig.inputs):
            shape = shape_of(t)
            if any(d is None for d in shape):
                raise ValueError(f"--random: argument #{i} has the dynamic type '{t}'; give input files")
            out.append(rng.standard_normal(shape).astype(np.float64) if np_dtype(t).kind in "fV" else rng.integers(-8, 8, shape))
        return out
    if len(paths) == 1 and paths[0].endswith(".npz"):
        return _npz_inputs(paths[0], _arg_names(func))
    if any(p.endswith(".npz") for p in paths):
        raise ValueError("give either one .npz or one .npy per argument")
    return [np.load(p) for p in paths]


def _npz_inputs(path: str, names: list[str]) -> list:
    """The arguments from an .npz: the arrays named after the arguments, or
    arg0, arg1, ..., or arr_0, arr_1, ... (the first set the file holds all
    of); the file's other arrays are named on stderr as ignored."""
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    for keys in (names, [f"arg{i}" for i in range(len(names))], [f"arr_{i}" for i in range(len(names))]):
        if set(keys) <= set(arrays):
            ignored = sorted(set(arrays) - set(keys))
            if ignored:
                print(f"convopt-run: note: {path}: took {', '.join(keys)}; ignored {', '.join(ignored)}", file=sys.stderr)
            return [arrays[k] for k in keys]
    raise ValueError(f"{path} holds {', '.join(sorted(arrays)) or 'nothing'}; expected the arrays {', '.join(names)} (or arg0, arg1, ...)")


def _describe(i: int, r: Any, t: Any) -> str:
    a = np.asarray(r)
    head = f"result #{i}: {t}  shape {a.shape} dtype {a.dtype}"
    if a.size and (a.dtype.kind in "fiub" or a.dtype.kind == "V"):
        f = a.astype(np.float64)
        head += f"  min {np.nanmin(f):.6g} max {np.nanmax(f):.6g} mean {np.nanmean(f):.6g}" if not np.all(np.isnan(f)) else "  all NaN"
        if np.isnan(f).any():
            head += f"  ({int(np.isnan(f).sum())} NaN)"
    return head + "\n" + np.array2string(a, threshold=200, edgeitems=3, precision=6)


def _save(path: str, results: list) -> None:
    """Results as .npy/.npz; bf16 (which numpy files cannot name) as float32, exactly."""
    arrays = [np.asarray(r) for r in results]
    arrays = [a.astype(np.float32) if a.dtype.kind == "V" else a for a in arrays]
    if path.endswith(".npy") and len(arrays) != 1:
        raise ValueError(f"{len(arrays)} results do not fit one .npy; write an .npz")
    import io

    from ..output import write_atomically

    buffer = io.BytesIO()
    if path.endswith(".npy"):
        np.save(buffer, arrays[0])
    else:  # out0, out1, ...: the names --compare reads
        named: dict[str, Any] = {f"out{i}": a for i, a in enumerate(arrays)}
        np.savez(buffer, **named)
    try:
        write_atomically(path, buffer.getvalue())
    except OSError as e:
        e.writing, e.filename = True, path  # type: ignore[attr-defined]
        raise


if __name__ == "__main__":
    entry()
