"""The `convopt` driver, in the style of mlir-opt.

    convopt --lower-conv-bwd in.mlir -o out.mlir
    convopt --pass-pipeline='builtin.module(func.func(convopt-decompose-conv-bwd))' < in.mlir

Reads INPUT (or stdin), parses and verifies it, runs the passes (verifying
after each), prints the result.  Errors are MLIR-style diagnostics on stderr
with exit code 1; `-o` is written atomically and only on success.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import click

from . import __version__
from .lowering.forms import registry as forms
from .pipelines import OPT_LEVELS, default_pipeline

if TYPE_CHECKING:
    from .driver import Options

SPLIT_MARKER = "// -----"

_LONG_OPTIONS = (
    "output",
    "lower-conv-bwd",
    "decompose-conv-bwd",
    "backend-legal-ops",
    "target",
    "pass-pipeline",
    "list-passes",
    "split-input-file",
    "verify-diagnostics",
    "mlir-print-debuginfo",
    "print-ir-after-all",
    "torch-boundary",
    "remarks",
    "conv-form",
    "matmul-tiles",
    "device",
    "cost-profile",
    "opt-level",
    "lower-forward-convs",
    "lower-pool-bwd",
    "stats",
    "torch-mlir-stages",
    "threads",
    "verify-each",
    "mlir-timing",
    "timing",
    "mlir-print-ir-before",
    "mlir-print-ir-after",
    "allow-unregistered-dialect",
    "dump-pass-pipeline",
    "mlir-elide-elementsattrs-if-larger",
    "mlir-print-op-generic",
    "version",
    "help",
)


class FormChoice(click.Choice):
    """`--conv-form`: a click.Choice over the registry's form names, read
    each time they are used (a form registered after import is a choice
    too); the names are read without importing the forms."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return forms.names()

    @choices.setter
    def choices(self, value: object) -> None:
        """click.Choice sets the list it is given: the registry's is read instead."""


def normalize_argv(argv: list[str]) -> list[str]:
    """Accept mlir-opt's single-dash spellings (`-split-input-file`)."""
    out = []
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            name = arg[1:].split("=", 1)[0]
            if name in _LONG_OPTIONS:
                arg = "-" + arg
        out.append(arg)
    return out


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("input_path", metavar="[INPUT]", default="-", required=False)
@click.option("-o", "--output", "output_path", default="-", metavar="PATH", help="Write the result to PATH (atomically; nothing is written on error).")
@click.option("--lower-conv-bwd", is_flag=True, help="Lower every torch.aten.convolution_backward to linalg: directly where the target accepts it, else decomposed first.")
@click.option("--decompose-conv-bwd", is_flag=True, help="Only decompose convolution_backward into aten.convolution and aten.sum (torch in, torch out).")
@click.option("--backend-legal-ops", metavar="OPS", default=None, help="Comma-separated torch op names the backend takes as they are (e.g. aten.convolution_backward).")
@click.option("--target", type=click.Choice(["linalg", "rocmlir"]), default=None, help="Backend capability profile deciding legality per op (default: linalg).")
@click.option("--pass-pipeline", metavar="TEXT", default=None, help="An MLIR-style pass pipeline, e.g. 'builtin.module(func.func(convopt-cleanup))'.")
@click.option("--list-passes", is_flag=True, help="Print the registered passes and their options.")
@click.option("--split-input-file", is_flag=True, help="Process chunks separated by '// -----' lines on their own.")
@click.option("--verify-diagnostics", is_flag=True, help="Check expected-error/warning/remark comments against the diagnostics.")
@click.option("--mlir-print-debuginfo", is_flag=True, help="Print loc(...) locations.")
@click.option("--print-ir-after-all", is_flag=True, help="Print the IR after each pass to stderr.")
@click.option("--torch-boundary", is_flag=True, help="Keep !torch.vtensor signatures and torch_c casts (drop-in for torch-mlir pipelines).")
@click.option("--remarks", is_flag=True, help="Report, at each convolution_backward, which lowering was chosen and why.")
@click.option("--conv-form", type=FormChoice(), default=None, help="Shape of the emitted convolutions (default: auto, the fastest measured).")
@click.option(
    "--matmul-tiles",
    type=click.Choice(["none", "avx512", "host"]),
    default=None,
    help="Emit large static bf16/f32 matmuls as linalg.pack + linalg.mmt4d + linalg.unpack with these CPU-specific tiles (default: none, plain linalg.matmul; "
    "avx512: 16x16x2 bf16, 16x16x1 f32; host: those this machine's /proc/cpuinfo avx512_bf16/avx512f flags enable).",
)
@click.option(
    "--device",
    type=click.Choice(["cpu", "avx2", "avx512", "gpu", "host"]),
    default=None,
    help="The class of machine the IR is built for, which decides the forms --conv-form=auto picks (default: cpu, any x86-64 CPU; "
    "avx2, avx512: those x86-64 CPUs; gpu: IREE's rocm, cuda and vulkan-spirv backends; host: this machine's CPU class).",
)
@click.option(
    "--cost-profile",
    metavar="FILE",
    default=None,
    help="Choose forms by the costs convopt-calibrate measured on a machine and wrote to FILE (with --device cpu or host: for the CPU class measured; "
    "a file of another CPU model or IREE version gets a warning).",
)
@click.option(
    "--opt-level",
    type=click.Choice(OPT_LEVELS),
    default=None,
    help="How much IREE's build time weighs against run time in the form choice, as iree-compile spells its levels (default O2: a dispatch's build "
    "amortized over 10^5 runs; O0, O1: over 10^3, fewer ops and faster builds; O3: run time alone).",
)
@click.option(
    "--lower-forward-convs",
    is_flag=True,
    help="With --lower-conv-bwd, also lower the graph's own aten.convolution ops (and the aten.sum and shape ops convopt-torch-to-linalg takes) through convopt's forms.",
)
@click.option(
    "--lower-pool-bwd",
    is_flag=True,
    help="Lower the window ops torch-mlir and IREE do not lower for every argument: avg_pool1d/2d/3d_backward (the scatter of a depthwise "
    "convolution), max_pool3d_with_indices_backward (by its indices) and the max-pool forward ops (values and indices); alone or with --lower-conv-bwd.",
)
@click.option("--stats", is_flag=True, help="Print, per lowered op, executed and useful multiply-adds and the form chosen (to stderr).")
@click.option(
    "--torch-mlir-stages",
    is_flag=True,
    help="With --lower-conv-bwd, on a raw FX import: run torch-mlir's frontend stage (conv backward kept), convopt, then torch-mlir's linalg stage, in-process (needs the torch_mlir package).",
)
@click.option(
    "--threads",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    metavar="N",
    help="Process the functions of a large module one by one in N worker processes (0: one per CPU; 1: in this process, which bounds memory); the output is the same bytes as processing the module as a whole (--mlir-timing names the route taken and why; with --remarks, N != 1 gets a remark saying why the module went as a whole).",
)
@click.option("--verify-each", is_flag=True, help="Verify all of the IR after every pass (default: what each pass changed, and all of it at the end).")
@click.option("--mlir-timing", "--timing", "mlir_timing", is_flag=True, help="Print the wall time of parsing, verifying, each pass and the output to stderr, in mlir-opt's report layout.")
@click.option("--mlir-print-ir-before", multiple=True, metavar="PASS", help="Print the IR before each run of the pass PASS to stderr (repeatable, or comma-separated names).")
@click.option("--mlir-print-ir-after", multiple=True, metavar="PASS", help="Print the IR after each run of the pass PASS to stderr (repeatable, or comma-separated names).")
@click.option("--allow-unregistered-dialect", is_flag=True, help="Let ops of dialects convopt does not know through (kept, printed in the generic form); an unknown op of a known dialect is an error all the same.")
@click.option("--dump-pass-pipeline", is_flag=True, help="Print the pass pipeline that will run, with every option of every pass, to stderr (as mlir-opt).")
@click.option("--mlir-print-op-generic", is_flag=True, help="Print every op in MLIR's generic form, named linalg ops with their bodies spelled out (as mlir-opt).")
@click.option("--mlir-elide-elementsattrs-if-larger", "elide_elements_over", type=click.IntRange(min=0), default=None, metavar="N", help="Print dense attributes of more than N elements as dense_resource<__elided__> (as mlir-opt).")
@click.version_option(__version__, "--version", prog_name="convopt")
def main(input_path: str, output_path: str, **flags: Any) -> None:
    """Lower torch-mlir's convolution backward to linalg (mlir-opt style).

    INPUT is a file of textual MLIR ('-' or nothing for stdin); the result goes
    to stdout unless -o is given.  Without a pass option the input is parsed,
    verified and printed back.
    """
    from .driver import run

    if flags["list_passes"]:
        from .passes import describe_passes

        click.echo(describe_passes(), nl=False)
        return
    sys.exit(run(_options(input_path, output_path, _Flags(**flags))))


@dataclass(frozen=True)
class _Flags:
    """The command line's flags, as click gives them."""

    lower_conv_bwd: bool
    decompose_conv_bwd: bool
    backend_legal_ops: Optional[str]
    target: Optional[str]
    pass_pipeline: Optional[str]
    list_passes: bool
    split_input_file: bool
    verify_diagnostics: bool
    mlir_print_debuginfo: bool
    print_ir_after_all: bool
    torch_boundary: bool
    remarks: bool
    conv_form: Optional[str]
    matmul_tiles: Optional[str]
    device: Optional[str]
    cost_profile: Optional[str]
    opt_level: Optional[str]
    lower_forward_convs: bool
    lower_pool_bwd: bool
    stats: bool
    torch_mlir_stages: bool
    threads: Optional[int]
    verify_each: bool
    mlir_timing: bool
    mlir_print_ir_before: tuple[str, ...]
    mlir_print_ir_after: tuple[str, ...]
    allow_unregistered_dialect: bool
    dump_pass_pipeline: bool
    elide_elements_over: Optional[int]
    mlir_print_op_generic: bool


def _options(input_path: str, output_path: str, f: _Flags) -> Options:
    """The driver's options for the flags; a usage error (exit 2) for flags
    that do not go together or name no pass."""
    from .driver import Options

    return Options(
        input_path=input_path,
        output_path=output_path,
        pipeline=_pipeline(f),
        split_input_file=f.split_input_file,
        verify_diagnostics=f.verify_diagnostics,
        debuginfo=f.mlir_print_debuginfo,
        print_ir_after_all=f.print_ir_after_all,
        remarks=f.remarks or f.verify_diagnostics,
        stats=f.stats,
        torch_mlir_stages=f.torch_mlir_stages,
        threads=f.threads,
        verify_each=f.verify_each,
        timing=f.mlir_timing,
        print_ir_before=_pass_names(f.mlir_print_ir_before),
        print_ir_after=_pass_names(f.mlir_print_ir_after),
        allow_unregistered_dialect=f.allow_unregistered_dialect,
        pipeline_from_flags=f.pass_pipeline is None,
        dump_pass_pipeline=f.dump_pass_pipeline,
        elide_elements_over=f.elide_elements_over,
        print_generic=f.mlir_print_op_generic,
    )


def _pipeline(f: _Flags) -> Optional[str]:
    """The pass pipeline text the flags ask for (None: parse, verify, print)."""
    if f.torch_mlir_stages and not f.lower_conv_bwd:
        _usage_error("--torch-mlir-stages applies to --lower-conv-bwd")
    if f.torch_mlir_stages and f.mlir_print_op_generic:
        _usage_error("--mlir-print-op-generic cannot be combined with --torch-mlir-stages (torch-mlir prints the result): run torch-mlir-opt --mlir-print-op-generic on it")
    if f.torch_mlir_stages and f.mlir_print_debuginfo:
        _usage_error("--mlir-print-debuginfo cannot be combined with --torch-mlir-stages (torch-mlir's stages do not keep the input's locations)")
    if f.pass_pipeline is not None and (f.lower_conv_bwd or f.decompose_conv_bwd or f.lower_pool_bwd):
        _usage_error("--pass-pipeline cannot be combined with --lower-conv-bwd, --decompose-conv-bwd or --lower-pool-bwd")
    if f.lower_pool_bwd and f.decompose_conv_bwd and not f.lower_conv_bwd:
        _usage_error("--lower-pool-bwd lowers to linalg: give it alone or with --lower-conv-bwd, not with --decompose-conv-bwd")
    if f.lower_pool_bwd and not f.lower_conv_bwd and (f.target is not None or f.backend_legal_ops is not None or f.lower_forward_convs or f.torch_mlir_stages):
        _usage_error("--target, --backend-legal-ops, --lower-forward-convs and --torch-mlir-stages apply to --lower-conv-bwd")
    if f.pass_pipeline is None and f.lower_pool_bwd and not f.lower_conv_bwd:
        return default_pipeline(False, False, None, None, f.torch_boundary, f.conv_form, f.matmul_tiles, f.device, pool=True, cost_profile=_cost_profile(f.cost_profile),
                                opt_level=f.opt_level)
    if f.lower_forward_convs and not f.lower_conv_bwd:
        _usage_error("--lower-forward-convs applies to --lower-conv-bwd")
    if f.pass_pipeline is None and (f.lower_conv_bwd or f.decompose_conv_bwd):
        return default_pipeline(f.lower_conv_bwd, f.decompose_conv_bwd, f.target, f.backend_legal_ops, f.torch_boundary, f.conv_form, f.matmul_tiles, f.device, f.lower_forward_convs,
                                f.lower_pool_bwd, cost_profile=_cost_profile(f.cost_profile), opt_level=f.opt_level)
    if f.target is not None or f.backend_legal_ops is not None or f.torch_boundary or f.conv_form is not None or f.matmul_tiles is not None or f.device is not None or f.cost_profile or f.opt_level:
        _usage_error("--target, --backend-legal-ops, --torch-boundary, --conv-form, --matmul-tiles, --device, --cost-profile and --opt-level apply to --lower-conv-bwd or --decompose-conv-bwd")
    return f.pass_pipeline


def _cost_profile(path: Optional[str]) -> Optional[str]:
    """--cost-profile's file as the pass option takes it, after a warning
    where it was measured on another CPU or IREE; a usage error where it
    cannot be read or is no profile."""
    if not path:
        return None
    from .lowering.kernel import calibrated

    try:
        absolute, why = calibrated.resolve(path)
    except ValueError as e:
        _usage_error(f"--cost-profile: {e}")
    if why:
        click.echo(f"{path}: warning: {why}", err=True)
    return absolute


def _pass_names(values: tuple[str, ...]) -> tuple[str, ...]:
    """The pass names of a repeatable, comma-separated flag (the driver
    refuses a name that is no pass, with exit code 1 as for --pass-pipeline)."""
    return tuple(n.strip() for v in values for n in v.split(",") if n.strip())


def _usage_error(message: str) -> NoReturn:
    click.echo(f"convopt: error: {message}", err=True)
    sys.exit(2)


def entry() -> None:
    """Console-script entry point."""
    # The IR is a graph of cycles (ops <-> values <-> uses) that lives until
    # the process ends; the cyclic collector only walks it again and again
    # (1.75x the run time on large modules, measured in bench/tool.py).
    gc.disable()
    from .output import Interrupted

    try:
        main.main(args=normalize_argv(sys.argv[1:]), prog_name="convopt", standalone_mode=True)
    except Interrupted as e:  # SIGTERM/SIGHUP while writing -o: the temp file is gone; die of the signal
        signal.signal(e.signum, signal.SIG_DFL)
        os.kill(os.getpid(), e.signum)
        sys.exit(128 + e.signum)  # pragma: no cover - the signal kills first
    except BrokenPipeError:  # pragma: no cover - e.g. `convopt ... | head`
        try:
            sys.stdout = open(os.devnull, "w")
        finally:
            sys.exit(1)
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)
    except Exception as e:  # a bug in convopt: one line, not a traceback
        if os.environ.get("CONVOPT_DEBUG"):
            raise
        sys.stderr.write(f"convopt: internal error: {type(e).__name__}: {e} (set CONVOPT_DEBUG=1 for a traceback)\n")
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    entry()
