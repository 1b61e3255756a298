"""The options of convopt's passes, one frozen dataclass per pass (the
kernel passes share `KernelOptions`), typed: the one place an option is
declared.  A pass class inherits its record; from the same fields come the
`convopt` command's flags (cli.py), the keywords of `convopt.lower` and
`convopt.decompose` (api.py), the pipeline text (pipelines.py) and
`--list-passes`.  Adding an option is adding a field with `option(...)`.

    device: Device = option(Device.CPU, "the class of machine ...", help="The class of machine ... (--help)")

A field's type is what a value is turned into (an enum of ../lowering/choices.py,
bool, int, str, a tuple of str, or Optional of one); its metadata: `doc`
(`--list-passes`, the API's docstring), `flag` (the command line's `--flag`:
"" the option's own name, None none), `keyword` (the Python API's keyword:
"" the field's name, None none), `help` (the flag's `--help` text),
`metavar`, and `choices` (for an open set of strings: a function giving the
names).  This module imports nothing heavy: the command line reads it for `--help`.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple, Optional

from .lowering.choices import DEVICES, MATMUL_TILES, OPT_LEVELS, PEELS, TARGETS, Device, MatmulTiles, OptLevel, Peel, Target, spellings
from .lowering.forms import registry


def option_name(field_name: str) -> str:
    """The pipeline text's name of a field: `conv_form` -> `conv-form`."""
    return field_name.replace("_", "-")


def option(default: Any, doc: str, *, flag: Optional[str] = "", keyword: Optional[str] = "", help: str = "",  # noqa: A002 - click's word
           metavar: Optional[str] = None, choices: Optional[Callable[[], tuple[str, ...]]] = None) -> Any:
    """A field declaring one option (the module docstring says what each argument is)."""
    meta = {"doc": doc, "flag": flag, "keyword": keyword, "help": help, "metavar": metavar, "choices": choices}
    return dataclasses.field(default=default, metadata=meta)


_TYPES: dict[type, dict[str, Any]] = {}


def field_types(cls: type) -> dict[str, Any]:
    """A record's field names -> their types, resolved (Optional[X] -> X); once per class."""
    if cls not in _TYPES:
        hints = typing.get_type_hints(cls)
        _TYPES[cls] = {f.name: unoptional(hints[f.name]) for f in dataclasses.fields(cls)}
    return _TYPES[cls]


def unoptional(tp: Any) -> Any:
    """X for Optional[X]; tp otherwise."""
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    return args[0] if typing.get_origin(tp) is typing.Union and len(args) == 1 else tp


def is_choice(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, Enum)


def is_record(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, Options)


def is_list(tp: Any) -> bool:
    return typing.get_origin(tp) is tuple


def choice_error(label: str, choices: tuple[str, ...], value: object) -> ValueError:
    return ValueError(f"{label} must be one of {', '.join(choices)}, not {value!r}")


def typed(label: str, tp: Any, value: Any) -> Any:
    """A front end's value (text, or a Python value) as an option of type tp;
    a ValueError naming `label` and the choices for a value that is none."""
    if is_choice(tp):
        try:
            return tp(value)
        except ValueError:
            raise choice_error(label, spellings(tp), value) from None
    if is_list(tp):
        items = value.split(",") if isinstance(value, str) else value
        return tuple(s for s in (str(x).strip() for x in items) if s)
    if tp is bool or tp is int:
        return tp(value)
    return value


def checked(label: str, leaf: Leaf, value: Any) -> Any:
    """typed(), and for a field of an open set of choices, a value among them
    (read now: a form registered after import is a choice too)."""
    converted = typed(label, leaf.type, value)
    names = leaf.field.metadata.get("choices")
    if names is not None and converted not in names():
        raise choice_error(label, names(), converted)
    return converted


@dataclass(frozen=True)
class Options:
    """A record of options: its fields are options (or records of them);
    values given as their spelling are turned into the field's type."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value, tp = getattr(self, f.name), field_types(type(self))[f.name]
            if value is not None and not is_record(tp):
                object.__setattr__(self, f.name, checked(option_name(f.name), Leaf((f.name,), f, tp), value))


def spelled(value: Any) -> str:
    """An option value as pipeline text spells it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


def pipeline_options(record: Options) -> list[str]:
    """`name=value` for each option of record that is not its default, in field order."""
    return [f"{option_name(f.name)}={spelled(getattr(record, f.name))}" for f in dataclasses.fields(record)
            if getattr(record, f.name) != f.default]


class Leaf(NamedTuple):
    """One option of a record of records: where it is (field names from the
    top record), its field and its type."""

    path: tuple[str, ...]
    field: dataclasses.Field
    type: Any

    @property
    def flag(self) -> Optional[str]:
        """The command line's flag name (no dashes before), or None."""
        flag = self.field.metadata.get("flag", "")
        return option_name(self.field.name) if flag == "" else flag

    @property
    def keyword(self) -> Optional[str]:
        """The Python API's keyword, or None."""
        keyword = self.field.metadata.get("keyword", "")
        return self.field.name if keyword == "" else keyword


def leaves(cls: type, path: tuple[str, ...] = ()) -> Iterator[Leaf]:
    """Every option of a record and of the records in its fields, in field order."""
    for f in dataclasses.fields(cls):
        tp = field_types(cls)[f.name]
        if is_record(tp):
            yield from leaves(tp, (*path, f.name))
        else:
            yield Leaf((*path, f.name), f, tp)


def flags(cls: type) -> dict[str, Leaf]:
    """The command line's flag names of a record's options -> the options."""
    return {str(leaf.flag): leaf for leaf in leaves(cls) if leaf.flag}


def keywords(cls: type) -> dict[str, Leaf]:
    """The Python API's keywords of a record's options -> the options."""
    return {str(leaf.keyword): leaf for leaf in leaves(cls) if leaf.keyword}


def build(cls: type, values: dict[tuple[str, ...], Any], path: tuple[str, ...] = ()) -> Any:
    """A record of cls with the values given by path (the others: defaults)."""
    kwargs = {}
    for f in dataclasses.fields(cls):
        tp = field_types(cls)[f.name]
        if is_record(tp):
            kwargs[f.name] = build(tp, values, (*path, f.name))
        elif (*path, f.name) in values:
            kwargs[f.name] = values[(*path, f.name)]
    return cls(**kwargs)


# --- the records ---------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelOptions(Options):
    """The options of every pass that emits kernels (patterns/options.KernelPass)."""

    peel: Peel = option(Peel.AUTO, f"split borders off instead of zero padding: {'|'.join(PEELS)}", flag=None, keyword=None)
    conv_form: str = option(
        "auto", f"shape of the emitted convolutions: {'|'.join(registry.names())}", choices=registry.names,
        help="Shape of the emitted convolutions (default: auto, the fastest measured).")
    matmul_tiles: MatmulTiles = option(
        MatmulTiles.NONE,
        f"large static bf16/f32 matmuls as linalg.pack+mmt4d+unpack with CPU-specific tiles: {'|'.join(MATMUL_TILES)} "
        "(none: plain linalg.matmul; avx512: 16x16x2 bf16, 16x16x1 f32; host: those /proc/cpuinfo's avx512_bf16/avx512f enable)",
        help="Emit large static bf16/f32 matmuls as linalg.pack + linalg.mmt4d + linalg.unpack with these CPU-specific tiles (default: none, plain "
        "linalg.matmul; avx512: 16x16x2 bf16, 16x16x1 f32; host: those this machine's /proc/cpuinfo avx512_bf16/avx512f flags enable).")
    device: Device = option(
        Device.CPU,
        f"the class of machine the IR is built for, which decides the forms auto picks: {'|'.join(DEVICES)} "
        "(cpu: any x86-64 CPU; host: this machine's calibration if convopt-calibrate --install made one, else its CPU class from /proc/cpuinfo)",
        help="The class of machine the IR is built for, which decides the forms --conv-form=auto picks (default: cpu, any x86-64 CPU; "
        "avx2, avx512: those x86-64 CPUs; gpu: IREE's rocm, cuda and vulkan-spirv backends; host: this machine's CPU class).")
    cost_profile: str = option(
        "",
        "a cost profile file written by convopt-calibrate: auto picks forms by the costs measured on that machine "
        "(device cpu or host: the CPU class it was measured on)",
        metavar="FILE",
        help="Choose forms by the costs convopt-calibrate measured on a machine and wrote to FILE (with --device cpu or host: for the CPU class "
        "measured; a file of another CPU model or IREE version gets a warning).")
    opt_level: OptLevel = option(
        OptLevel.O2,
        f"how much build time weighs against run time in the form choice: {'|'.join(OPT_LEVELS)} "
        "(O2: a dispatch's build amortized over 10^5 runs; O0, O1: over 10^3, fewer ops; O3: 10^7, run time alone)",
        help="How much IREE's build time weighs against run time in the form choice, as iree-compile spells its levels (default O2: a dispatch's "
        "build amortized over 10^5 runs; O0, O1: over 10^3, fewer ops and faster builds; O3: run time alone).")


@dataclass(frozen=True)
class DecomposeOptions(Options):
    """The options of convopt-decompose-conv-bwd of its own (it emits kernels too, with `lower`)."""

    legal_ops: Optional[tuple[str, ...]] = option(
        None, "op names the backend takes as they are (e.g. aten.convolution_backward); default: the target's",
        flag="backend-legal-ops", keyword="backend_legal_ops", metavar="OPS",
        help="Comma-separated torch op names the backend takes as they are (e.g. aten.convolution_backward).")
    target: Optional[Target] = option(
        None, f"capability profile deciding legality per op: {'|'.join(TARGETS)}",
        help="Backend capability profile deciding legality per op (default: linalg).")
    lower: bool = option(False, "lower the ops the decomposition creates to linalg right away, with peel, conv-form and matmul-tiles",
                         flag=None, keyword=None)


@dataclass(frozen=True)
class BoundaryOptions(Options):
    """The options of convopt-finalize-boundary."""

    torch_boundary: bool = option(False, "keep !torch.vtensor signatures and torch_c casts",
                                  help="Keep !torch.vtensor signatures and torch_c casts (drop-in for torch-mlir pipelines).")
