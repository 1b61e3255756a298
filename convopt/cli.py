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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import click

from . import __version__
from .lowering.choices import spellings
from .pass_options import Leaf, build, flags, is_choice
from .pipelines import PipelineOptions, default_pipeline

if TYPE_CHECKING:
    from .driver import Options

SPLIT_MARKER = "// -----"

PIPELINE_FLAGS = flags(PipelineOptions)
"""`--flag` name -> the pass option it sets (pass_options.Leaf): the flags
made from the pass options' fields."""

class LiveChoice(click.Choice):
    """A click.Choice over names read each time they are used (`--conv-form`:
    the registry's forms, so that a form registered after import is a
    choice too, read without importing the forms)."""

    def __init__(self, names: Callable[[], tuple[str, ...]]) -> None:
        self._names = names
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return self._names()

    @choices.setter
    def choices(self, value: object) -> None:
        """click.Choice sets the list it is given: the function's is read instead."""


def flag_option(leaf: Leaf) -> tuple[list[str], dict[str, Any]]:
    """The declaration and attributes of the click option of a pass option:
    a flag for a bool, a choice for an enum or an open set of names, else a
    value (default None: not given)."""
    meta = leaf.field.metadata
    decls = ["--" + str(leaf.flag), str(leaf.flag).replace("-", "_")]
    if leaf.type is bool:
        return decls, {"is_flag": True, "help": meta["help"]}
    if meta["choices"] is not None:
        kind: Any = LiveChoice(meta["choices"])
    elif is_choice(leaf.type):
        kind = click.Choice(spellings(leaf.type))
    else:
        kind = click.INT if leaf.type is int else None
    return decls, {"type": kind, "default": None, "metavar": meta["metavar"], "help": meta["help"]}


def flag_param(leaf: Leaf) -> click.Option:
    """The click option of a pass option (flag_option)."""
    decls, attrs = flag_option(leaf)
    return click.Option(decls, **attrs)


def _flag(name: str) -> Callable[[Any], Any]:
    """The decorator adding the flag --name of a pass option."""
    decls, attrs = flag_option(PIPELINE_FLAGS[name])
    return click.option(*decls, **attrs)


def long_options() -> set[str]:
    """The names of the command's long options (`split-input-file`)."""
    return {opt[2:] for p in main.params for opt in p.opts if opt.startswith("--")} | {"help"}


def normalize_argv(argv: list[str]) -> list[str]:
    """Accept mlir-opt's single-dash spellings (`-split-input-file`)."""
    out = []
    names = long_options()
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            name = arg[1:].split("=", 1)[0]
            if name in names:
                arg = "-" + arg
        out.append(arg)
    return out


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("input_path", metavar="[INPUT]", default="-", required=False)
@click.option("-o", "--output", "output_path", default="-", metavar="PATH", help="Write the result to PATH (atomically; nothing is written on error).")
@_flag("lower-conv-bwd")
@_flag("decompose-conv-bwd")
@_flag("backend-legal-ops")
@_flag("target")
@click.option("--pass-pipeline", metavar="TEXT", default=None, help="An MLIR-style pass pipeline, e.g. 'builtin.module(func.func(convopt-cleanup))'.")
@click.option("--list-passes", is_flag=True, help="Print the registered passes and their options.")
@click.option("--split-input-file", is_flag=True, help="Process chunks separated by '// -----' lines on their own.")
@click.option("--verify-diagnostics", is_flag=True, help="Check expected-error/warning/remark comments against the diagnostics.")
@click.option("--mlir-print-debuginfo", is_flag=True, help="Print loc(...) locations.")
@click.option("--print-ir-after-all", is_flag=True, help="Print the IR after each pass to stderr.")
@_flag("torch-boundary")
@click.option("--remarks", is_flag=True, help="Report, at each convolution_backward, which lowering was chosen and why.")
@_flag("conv-form")
@_flag("matmul-tiles")
@_flag("device")
@_flag("cost-profile")
@_flag("opt-level")
@_flag("lower-forward-convs")
@_flag("lower-pool-bwd")
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
    given = {name: flags.pop(name.replace("-", "_")) for name in PIPELINE_FLAGS}
    sys.exit(run(_options(input_path, output_path, _Flags(**flags), given)))


def _place_the_other_flags(command: click.Command) -> None:
    """The flags of pass options main does not place itself, before --version
    (a new option is a flag without a line here)."""
    placed = {p.name for p in command.params}
    at = next(i for i, p in enumerate(command.params) if p.name == "version")
    for leaf in PIPELINE_FLAGS.values():
        if str(leaf.flag).replace("-", "_") not in placed:
            command.params.insert(at, flag_param(leaf))
            at += 1


_place_the_other_flags(main)


@dataclass(frozen=True)
class _Flags:
    """The driver's own flags, as click gives them (the pass options' flags
    are PIPELINE_FLAGS)."""

    pass_pipeline: Optional[str]
    list_passes: bool
    split_input_file: bool
    verify_diagnostics: bool
    mlir_print_debuginfo: bool
    print_ir_after_all: bool
    remarks: bool
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


def _options(input_path: str, output_path: str, f: _Flags, given: dict[str, Any]) -> Options:
    """The driver's options for the flags (`given`: the pass options' flags
    -> their values, None or False where not given); a usage error (exit 2)
    for flags that do not go together or name no pass."""
    from .driver import Options

    return Options(
        input_path=input_path,
        output_path=output_path,
        pipeline=_pipeline(f, {name: value for name, value in given.items() if value is not None and value is not False}),
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


def pipeline_options(given: dict[str, Any], record: type[PipelineOptions] = PipelineOptions) -> PipelineOptions:
    """The record of the pass options' flags given (flag name -> value);
    --cost-profile's file resolved (_cost_profile)."""
    names = flags(record)
    values = {names[name].path: value for name, value in given.items()}
    if "cost-profile" in given:
        values[names["cost-profile"].path] = _cost_profile(given["cost-profile"]) or ""
    return build(record, values)


def flags_pipeline(args: Iterable[str]) -> str:
    """The pipeline text `convopt ARGS` runs for the pass options' flags in
    args (`--lower-conv-bwd`, `--device=gpu`), for the test harnesses; a
    ValueError for an argument that is none of them."""
    given: dict[str, Any] = {}
    for arg in args:
        name, eq, value = arg.removeprefix("--").partition("=")
        if not arg.startswith("--") or name not in PIPELINE_FLAGS:
            raise ValueError(f"no pass option has the flag {arg!r}")
        given[name] = value if eq else True
    return default_pipeline(pipeline_options(given))


def _flags(names: Iterable[str]) -> str:
    """`--a, --b and --c`."""
    flags = [f"--{n}" for n in names]
    return ", ".join(flags[:-1]) + " and " + flags[-1] if len(flags) > 1 else "".join(flags)


def _pipeline(f: _Flags, given: dict[str, Any]) -> Optional[str]:
    """The pass pipeline text the flags ask for (None: parse, verify, print);
    given: the pass options' flags given."""
    lower, decompose, pool = (name in given for name in ("lower-conv-bwd", "decompose-conv-bwd", "lower-pool-bwd"))
    if f.torch_mlir_stages and not lower:
        _usage_error("--torch-mlir-stages applies to --lower-conv-bwd")
    if f.torch_mlir_stages and f.mlir_print_op_generic:
        _usage_error("--mlir-print-op-generic cannot be combined with --torch-mlir-stages (torch-mlir prints the result): run torch-mlir-opt --mlir-print-op-generic on it")
    if f.torch_mlir_stages and f.mlir_print_debuginfo:
        _usage_error("--mlir-print-debuginfo cannot be combined with --torch-mlir-stages (torch-mlir's stages do not keep the input's locations)")
    if f.pass_pipeline is not None and (lower or decompose or pool):
        _usage_error("--pass-pipeline cannot be combined with --lower-conv-bwd, --decompose-conv-bwd or --lower-pool-bwd")
    if pool and decompose and not lower:
        _usage_error("--lower-pool-bwd lowers to linalg: give it alone or with --lower-conv-bwd, not with --decompose-conv-bwd")
    conv_only = [name for name, leaf in PIPELINE_FLAGS.items() if leaf.path[0] == "decompose"] + ["lower-forward-convs"]
    if pool and not lower and (any(name in given for name in conv_only) or f.torch_mlir_stages):
        _usage_error(f"{_flags([*conv_only, 'torch-mlir-stages'])} apply to --lower-conv-bwd")
    if "lower-forward-convs" in given and not lower:
        _usage_error("--lower-forward-convs applies to --lower-conv-bwd")
    if f.pass_pipeline is None and (lower or decompose or pool):
        return default_pipeline(pipeline_options(given))
    options = [name for name, leaf in PIPELINE_FLAGS.items() if len(leaf.path) > 1]
    if any(name in given for name in options):
        _usage_error(f"{_flags(options)} apply to --lower-conv-bwd or --decompose-conv-bwd")
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
