"""What the server asks convopt about a document, as plain functions of its
text (no LSP types): the diagnostics of a parse and verify, the
`--remarks`/`--stats` report of `--lower-conv-bwd` per op, and the lowered
text.  They run the CLI's own code (`convopt.driver.process`, `run_text`,
`run_pipeline`), so the messages and bytes are the command line's.

A document with `// -----` lines is handled as `--split-input-file` handles
it (each chunk on its own, line numbers those of the document), as
mlir-lsp-server does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from ..api import KEYWORDS
from ..diagnostics import ConvoptError, Diagnostic, DiagnosticEngine, SourceFile
from ..driver import SPLIT_LINE, Options, Session, check_options, process, run_pipeline, run_text, split_chunks
from ..lowering.choices import DEVICES, MATMUL_TILES, TARGETS
from ..lowering.forms import registry
from ..pass_options import build
from ..pipelines import PipelineOptions, default_pipeline

CONV_BWD = "torch.aten.convolution_backward"
_CHOICES = {"target": TARGETS, "convForm": registry.names(), "matmulTiles": MATMUL_TILES, "device": DEVICES}


@dataclass(frozen=True)
class Settings:
    """The `--lower-conv-bwd` flags hover and the lowering commands use,
    from the client's `initializationOptions`:

        {"target": "rocmlir", "backendLegalOps": "aten.convolution_backward",
         "convForm": "im2col", "matmulTiles": "avx512", "device": "gpu",
         "torchBoundary": true, "debounceMs": 250}
    """

    target: Optional[str] = None
    backend_legal_ops: Optional[str] = None
    conv_form: Optional[str] = None
    matmul_tiles: Optional[str] = None
    device: Optional[str] = None
    torch_boundary: bool = False
    debounce: float = 0.25  # seconds without a change before a document is checked

    @property
    def pipeline(self) -> str:
        keywords = {"target": self.target, "backend_legal_ops": self.backend_legal_ops, "conv_form": self.conv_form, "matmul_tiles": self.matmul_tiles,
                    "device": self.device, "torch_boundary": self.torch_boundary}
        values = {KEYWORDS[k].path: v for k, v in keywords.items() if v is not None}
        return default_pipeline(build(PipelineOptions, {**values, ("lower_conv_bwd",): True}))

    @classmethod
    def from_options(cls, options: Any) -> tuple[Settings, list[str]]:
        """The settings and a message per value that was ignored."""
        if not isinstance(options, dict):
            return cls(), []
        problems = []
        chosen: dict[str, Optional[str]] = {}
        for key, allowed in _CHOICES.items():
            value = options.get(key)
            if value is not None and value not in allowed:
                problems.append(f"convopt-lsp: {key}={value!r} ignored (one of {', '.join(allowed)})")
                value = None
            chosen[key] = value
        legal = options.get("backendLegalOps")
        if isinstance(legal, str):
            from ..lowering.patterns.legality import legal_op_problem

            wrong = next((p for p in (legal_op_problem(k.strip()) for k in legal.split(",") if k.strip()) if p is not None), None)
            if wrong is not None:
                problems.append(f"convopt-lsp: backendLegalOps={legal!r} ignored ({wrong})")
                legal = None
        debounce = options.get("debounceMs", 250)
        if not isinstance(debounce, (int, float)) or debounce < 0:
            problems.append(f"convopt-lsp: debounceMs={debounce!r} ignored (milliseconds, >= 0)")
            debounce = 250
        settings = cls(
            chosen["target"], legal if isinstance(legal, str) else None, None if chosen["convForm"] == "auto" else chosen["convForm"],
            chosen["matmulTiles"], chosen["device"], bool(options.get("torchBoundary", False)), debounce / 1000,
        )
        return settings, problems


def _chunks(name: str, text: str) -> tuple[list[SourceFile], bool]:
    if SPLIT_LINE.search(text):
        return split_chunks(name, text), True
    return [SourceFile(name, text)], False


def check(name: str, text: str) -> list[Diagnostic]:
    """The diagnostics `convopt FILE` reports (parse and verify), one per
    failing chunk, each located in its chunk's SourceFile."""
    engine = DiagnosticEngine()
    for chunk in _chunks(name, text)[0]:
        process(chunk, Options(), engine)
    return engine.diagnostics


@dataclass
class OpReport:
    """What `--lower-conv-bwd --remarks --stats` says about one op."""

    line: int  # 1-based line of the op in the document
    column: int
    remarks: list[str] = field(default_factory=list)  # "lowered directly: ..." or "decomposed: ..."
    stats: list[str] = field(default_factory=list)  # the --stats lines without their location: "torch.aten.convolution_backward grad_input: form=..."


@dataclass
class LoweringReport:
    ops: dict[int, OpReport]  # by line
    errors: list[str]  # the messages of the errors that stopped the lowering


_STAT = re.compile(r"(\d+):(\d+): (.*)")


def lowering_report(name: str, text: str, settings: Settings) -> LoweringReport:
    """Run `--lower-conv-bwd --remarks --stats` in-process and file its
    remarks and stats lines under the line of the op they are about."""
    engine = DiagnosticEngine(remarks=True)
    stats: list[str] = []
    options = Options(pipeline=settings.pipeline, remarks=True, stats=True)
    for chunk in _chunks(name, text)[0]:
        process(chunk, options, engine, stats.append)
    ops: dict[int, OpReport] = {}
    for diag in engine.diagnostics:
        if diag.severity == "remark" and diag.pos is not None:
            line = diag.pos.display_line
            ops.setdefault(line, OpReport(line, diag.pos.col)).remarks.append(diag.message)
    prefix = f"{name}:"
    for entry in stats:
        m = _STAT.match(entry[len(prefix) :].rstrip("\n")) if entry.startswith(prefix) else None
        if m is not None:
            line = int(m.group(1))
            ops.setdefault(line, OpReport(line, int(m.group(2)))).stats.append(m.group(3))
    return LoweringReport(ops, [d.message for d in engine.diagnostics if d.severity == "error"])


def lowered(name: str, text: str, settings: Settings, function: Optional[str] = None) -> str:
    """`convopt --lower-conv-bwd` of the document (with --split-input-file
    when it has `// -----` lines), or of the one function named `function`:
    its module is lowered and printed without the other functions (the
    bytes `convopt --lower-conv-bwd` prints for a file holding only that
    function).  Raises ConvoptError whose `.diagnostics` are the lines the
    CLI prints."""
    chunks, split = _chunks(name, text)
    if function is None:
        return run_text(text, Options(pipeline=settings.pipeline, split_input_file=split), name)
    from ..parser import parse
    from ..printer import print_module
    from ..verifier import verify

    for chunk in chunks:
        if f"@{function}" not in chunk.text:
            continue
        parsed = parse(chunk)
        found = _function(parsed.module, function)
        if found is None:
            continue
        verify(parsed.module)
        engine = DiagnosticEngine()
        options = Options(pipeline=settings.pipeline)
        run_pipeline(Session(options, check_options(options), engine), parsed.module)
        errors = [d for d in engine.diagnostics if d.severity == "error"]
        if errors:
            raise ConvoptError(errors[0], lines=[line for d in errors for line in d.render().split("\n")])
        block = parsed.module.regions[0].blocks[0]
        block.ops = [op for op in block.ops if op is found or op.name != "func.func"]
        return print_module(parsed.module, parsed.metadata)
    raise ConvoptError(lines=[f"convopt-lsp: error: no function @{function} in {name}"])


def lowered_or_error(name: str, text: str, settings: Settings, function: Optional[str] = None) -> tuple[Optional[str], list[str]]:
    """`lowered`, or None and the lines of its ConvoptError (for a worker
    process: the exception itself does not survive pickling)."""
    try:
        return lowered(name, text, settings, function), []
    except ConvoptError as e:
        return None, e.diagnostics


def _function(module: Any, name: str) -> Any:
    for op in module.regions[0].blocks[0].ops:
        sym = op.attributes.get("sym_name")
        if op.name == "func.func" and getattr(sym, "value", None) == name:
            return op
    return None
