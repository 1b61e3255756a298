"""Passes: a registry by name, MLIR-style pipeline text, and a pass manager.

A pass is a frozen dataclass whose fields are its options; it declares its
registered NAME, a one-line SUMMARY and the op it anchors on
(`builtin.module` or `func.func`).  Pass classes are imported lazily, so
`--help` and parsing do not pay for the lowering code.

    builtin.module(func.func(convopt-decompose-conv-bwd{legal-ops=aten.a,aten.b}))
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Optional, Union

from ..diagnostics import ConvoptError, Diagnostic, DiagnosticEngine
from ..dialects.builtin import MODULE
from ..dialects.func import FUNC
from ..ir.core import Operation
from ..pass_options import field_types, option_name, spelled, typed
from ..timing import NO_TIMING, Timing

# name -> "module:Class", imported on first use
REGISTRY: dict[str, str] = {
    "convopt-decompose-conv-bwd": "convopt.lowering.patterns.decompose:DecomposeConvBwd",
    "convopt-conv-bwd-to-linalg": "convopt.lowering.patterns.conv_bwd:ConvBwdToLinalg",
    "convopt-torch-to-linalg": "convopt.lowering.patterns.torch_to_linalg:TorchToLinalg",
    "convopt-pool-bwd-to-linalg": "convopt.lowering.patterns.pool_bwd:PoolBwdToLinalg",
    "convopt-finalize-boundary": "convopt.passes.boundary:FinalizeBoundary",
    "convopt-cleanup": "convopt.passes.cleanup:Cleanup",
    "convopt-drop-symbolic-shapes": "convopt.passes.symbolic:DropSymbolicShapes",
}


class PipelineError(Exception):
    """A bad `--pass-pipeline` text or pass option (reported without a
    source location)."""


@dataclass
class PassContext:
    diagnostics: DiagnosticEngine
    stats: Optional[list] = None


@dataclass(frozen=True)
class Pass:
    NAME: ClassVar[str] = ""
    SUMMARY: ClassVar[str] = ""
    ANCHOR: ClassVar[str] = FUNC

    def run(self, op: Operation, ctx: PassContext) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def pass_class(name: str) -> type[Pass]:
    target = REGISTRY.get(name)
    if target is None:
        raise PipelineError(f"'{name}' does not refer to a registered pass; registered passes: {', '.join(sorted(REGISTRY))}")
    module_name, _, cls_name = target.partition(":")
    return getattr(importlib.import_module(module_name), cls_name)


def unknown_pass_message(names: tuple[str, ...]) -> Optional[str]:
    """`'x' is not a registered pass; registered passes: ...` for the first
    name of `names` that is not registered, or None."""
    for name in names:
        if name not in REGISTRY:
            return f"'{name}' is not a registered pass; registered passes: {', '.join(sorted(REGISTRY))}"
    return None


def make_pass(name: str, options: dict[str, str]) -> Pass:
    cls = pass_class(name)
    fields = {option_name(f.name): f for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, text in options.items():
        f = fields.get(key)
        if f is None:
            valid = ", ".join(sorted(fields)) or "(none)"
            raise PipelineError(f"no such option '{key}' for pass '{name}'; valid options: {valid}")
        kwargs[f.name] = _convert(name, key, text, field_types(cls)[f.name])
    try:
        return cls(**kwargs)
    except ValueError as e:
        raise PipelineError(f"invalid options for pass '{name}': {e}") from None


def _convert(pass_name: str, key: str, text: str, tp: Any) -> Any:
    """An option's text as a value of its field's type (pass_options.field_types)."""
    if tp is bool:
        if text.lower() in ("true", "1", ""):
            return True
        if text.lower() in ("false", "0"):
            return False
        raise PipelineError(f"option '{key}' of pass '{pass_name}' expects true or false, got '{text}'")
    if tp is int:
        try:
            return int(text)
        except ValueError:
            raise PipelineError(f"option '{key}' of pass '{pass_name}' expects an integer, got '{text}'") from None
    try:
        return typed(key, tp, text)
    except ValueError as e:
        raise PipelineError(f"invalid options for pass '{pass_name}': {e}") from None


def describe_passes() -> str:
    """The text of `--list-passes`."""
    rows: list[tuple[str, str]] = []  # (left column, description); options indented under their pass
    for name in sorted(REGISTRY):
        cls = pass_class(name)
        rows.append((f"  {name} [{cls.ANCHOR}]", cls.SUMMARY))
        for f in dataclasses.fields(cls):
            doc = f.metadata.get("doc", "") if f.metadata else ""
            default = f.default if f.default is not dataclasses.MISSING else ""
            if isinstance(default, tuple):
                default = ",".join(default)
            rows.append((f"      {option_name(f.name)}={'<unset>' if default is None else default}", doc))
    width = max(len(left) for left, _ in rows) + 2
    return "Available passes:\n" + "".join(f"{left:<{width}}{doc}".rstrip() + "\n" for left, doc in rows)


# --- pipeline text ---------------------------------------------------------------------

Entry = Union[Pass, tuple[str, list]]  # a pass, or (anchor op name, nested entries)


def parse_pipeline(text: str) -> list[Entry]:
    """Parse `builtin.module(func.func(a{x=1 y=b,c}), b)` into entries.
    A function pass may stand at module level (it runs on every function);
    a module pass may not be nested in func.func(...)."""
    entries, rest = _parse_list(text.strip(), 0)
    if rest != len(text.strip()):
        raise PipelineError(f"unexpected '{text.strip()[rest:]}' in pass pipeline")
    if len(entries) == 1 and isinstance(entries[0], tuple) and entries[0][0] == MODULE:
        entries = entries[0][1]
    _check_nesting(entries, MODULE)
    return entries


def _check_nesting(entries: list[Entry], anchor: str) -> None:
    for entry in entries:
        if isinstance(entry, tuple):
            if anchor == FUNC:
                raise PipelineError(f"'{entry[0]}(...)' cannot be nested in func.func")
            _check_nesting(entry[1], entry[0])
        elif entry.ANCHOR == MODULE and anchor != MODULE:
            raise PipelineError(f"pass '{entry.NAME}' runs on builtin.module and cannot be nested in {anchor}(...)")


def _parse_list(text: str, i: int) -> tuple[list[Entry], int]:
    entries: list[Entry] = []
    while i < len(text):
        while i < len(text) and text[i] in " \t\n,":
            i += 1
        if i >= len(text) or text[i] == ")":
            break
        j = i
        while j < len(text) and (text[j].isalnum() or text[j] in "-_."):
            j += 1
        name = text[i:j]
        if not name:
            raise PipelineError(f"expected a pass or op name at '{text[i:]}'")
        if j < len(text) and text[j] == "(":
            if name not in (MODULE, FUNC):
                raise PipelineError(f"can only nest passes under '{MODULE}' or '{FUNC}', not '{name}'")
            nested, k = _parse_list(text, j + 1)
            if k >= len(text) or text[k] != ")":
                raise PipelineError(f"missing ')' after '{name}(' in pass pipeline")
            entries.append((name, nested))
            i = k + 1
            continue
        options: dict[str, str] = {}
        if j < len(text) and text[j] == "{":
            depth, k = 1, j + 1
            while k < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[k], 0)
                k += 1
            if depth:
                raise PipelineError(f"missing '}}' in options of pass '{name}'")
            options = _parse_options(text[j + 1 : k - 1], name)
            j = k
        entries.append(make_pass(name, options))
        i = j
    return entries, i


def _parse_options(text: str, pass_name: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in text.split():
        key, eq, value = item.partition("=")
        if not eq:
            value = "true"
        options[key] = value.strip("'\"")
    return options


# --- running -------------------------------------------------------------------------------

PassHook = Callable[[Pass, Operation], None]


@dataclass
class Instruments:
    """What a run does around each pass: verify what it changed (all of the
    IR with verify_each), call before/after (e.g. the IR dumps), time it."""

    verify_each: bool = False
    before: Optional[PassHook] = None
    after: Optional[PassHook] = None
    timing: Timing = NO_TIMING


class PassManager:
    """A pipeline parsed once (`PassManager.parse(text)`), run on any number
    of modules (each chunk of --split-input-file, each function of the
    per-function route)."""

    def __init__(self, entries: list[Entry], text: str = ""):
        self.entries = entries
        self.text = text

    @classmethod
    def parse(cls, text: str) -> PassManager:
        """Raises PipelineError on a bad pipeline text."""
        return cls(parse_pipeline(text), text)

    def describe(self) -> str:
        """The pipeline with every option of every pass spelled out (what
        --dump-pass-pipeline prints, as mlir-opt does)."""

        def entry(e: Entry) -> str:
            if isinstance(e, tuple):
                return f"{e[0]}({', '.join(entry(x) for x in e[1])})"
            options = []
            for f in dataclasses.fields(e):
                value = getattr(e, f.name)
                if value is not None:
                    options.append(f"{option_name(f.name)}={spelled(value)}")
            return e.NAME + ("{" + " ".join(options) + "}" if options else "")

        return f"{MODULE}({', '.join(entry(e) for e in self.entries)})"

    def passes(self) -> list[Pass]:
        """Every pass of the pipeline, in order."""
        out: list[Pass] = []
        todo = list(self.entries)
        while todo:
            entry = todo.pop(0)
            if isinstance(entry, tuple):
                todo[:0] = entry[1]
            else:
                out.append(entry)
        return out

    def module_pass(self, per_function: tuple[str, ...] = ()) -> Optional[str]:
        """The name of the first module pass (not anchored on func.func, and
        not one of `per_function`, module passes that treat each function on
        its own), or None when the whole pipeline runs function by function."""
        for entry in self.entries:
            if isinstance(entry, tuple) and entry[0] != "func.func":
                return f"{entry[0]}(...)"
        for p in self.passes():
            if p.ANCHOR != "func.func" and p.NAME not in per_function:
                return p.NAME
        return None

    def run(self, module: Operation, ctx: PassContext, instruments: Optional[Instruments] = None) -> None:
        """Run the pipeline on module, verifying after each pass what it
        changed (everything with verify_each) and everything once at the end."""
        from ..verifier import verify

        tools = instruments or Instruments()
        self._run_entries(self.entries, module, ctx, tools)
        with tools.timing.scope("Verifier"):
            verify(module)

    def _run_entries(self, entries: list[Entry], op: Operation, ctx: PassContext, tools: Instruments) -> None:
        for entry in entries:
            if isinstance(entry, tuple):
                anchor, nested = entry
                with tools.timing.scope(f"'{anchor}' Pipeline"):
                    for target in _anchored(op, anchor):
                        self._run_entries(nested, target, ctx, tools)
                continue
            for target in _anchored(op, entry.ANCHOR):
                _run_pass(entry, target, ctx, tools)


def _run_pass(p: Pass, op: Operation, ctx: PassContext, tools: Instruments) -> None:
    from ..verifier import verify_changed

    if tools.before is not None:
        tools.before(p, op)
    with tools.timing.scope(p.NAME):
        p.run(op, ctx)
    with tools.timing.scope("Verifier"):
        verify_changed(op, full=tools.verify_each)
    if tools.after is not None:
        tools.after(p, op)


def _anchored(op: Operation, anchor: str) -> list[Operation]:
    """The ops a pass anchored on `anchor` runs on, starting from `op`: op
    itself, or the anchor ops directly in its body (functions of a module)."""
    if op.name == anchor:
        return [op]
    return [o for r in op.regions for b in r.blocks for o in b.ops if o.name == anchor]


def fail(message: str, at: object = None) -> ConvoptError:
    from ..diagnostics import position_of

    return ConvoptError(Diagnostic("error", message, position_of(at)))
