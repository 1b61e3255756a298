"""What convopt would do with the document: hover on a
`torch.aten.convolution_backward` (the `--remarks` decision and the
`--stats` multiply-adds), and the "show lowered IR" / "apply lowered IR"
commands and code actions (`--lower-conv-bwd`'s output)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Optional

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from .analysis import CONV_BWD, OpReport, lowered_or_error
from .server import ConvoptServer

SHOW = "convopt.showLoweredIR"
APPLY = "convopt.applyLoweredIR"
REQUEST_FAILED = -32803  # LSP's RequestFailed


async def hover(ls: ConvoptServer, params: types.HoverParams) -> Optional[types.Hover]:
    snap = ls.snapshot(params.text_document.uri)
    line = params.position.line
    if line >= len(snap.lines.starts):
        return None
    start = snap.lines.starts[line]
    column = snap.text.find(CONV_BWD, start, snap.lines.starts[line + 1] if line + 1 < len(snap.lines.starts) else len(snap.text))
    if column < 0:
        return None
    report = await ls.report(snap)
    op = report.ops.get(line + 1)
    if op is not None:
        text = hover_text(op)
    elif report.errors:
        text = f"convopt --lower-conv-bwd stops at an error: {report.errors[0]}"
    else:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text), snap.lines.range(column, column + len(CONV_BWD)))


def hover_text(op: OpReport) -> str:
    """Markdown: the remark, then the --stats lines of the op."""
    parts = [f"**convopt --lower-conv-bwd --remarks**: {r}" for r in op.remarks]
    if op.stats:
        parts.append("**--stats** (multiply-adds executed / useful):\n```\n" + "\n".join(op.stats) + "\n```")
    return "\n\n".join(parts)


def _arguments(args: tuple[Any, ...]) -> tuple[str, Optional[str]]:
    """(uri, function or None) from a command's arguments: [uri] or
    [uri, "name"] (with or without the @)."""
    if not args or not isinstance(args[0], str):
        raise JsonRpcException(message="expected the document URI as the first argument", code=-32602)
    function = args[1] if len(args) > 1 and isinstance(args[1], str) and args[1] else None
    return args[0], function.lstrip("@") if function else None


async def _lowered(ls: ConvoptServer, uri: str, function: Optional[str]) -> tuple[str, Any]:
    snap = ls.snapshot(uri)
    text, error = await ls.run(lowered_or_error, snap.name, snap.text, ls.settings, function)
    if text is None:
        raise JsonRpcException(message="\n".join(error), code=REQUEST_FAILED)
    return text, snap


async def show_lowered(ls: ConvoptServer, *args: Any) -> str:
    """`convopt --lower-conv-bwd` of the document, or of one function, as
    the result; where the client can show documents, also written to a
    temporary file that the client is asked to open beside the document."""
    uri, function = _arguments(args)
    text, snap = await _lowered(ls, uri, function)
    window = ls.client_capabilities.window
    if window is not None and window.show_document is not None and window.show_document.support:
        path = _lowered_path(snap.name, function)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        await ls.window_show_document_async(types.ShowDocumentParams(Path(path).as_uri(), take_focus=False))
    return text


def _lowered_path(name: str, function: Optional[str]) -> str:
    """<tmp>/convopt-lsp/<file>[.<function>].lowered.mlir"""
    directory = os.path.join(tempfile.gettempdir(), "convopt-lsp")
    os.makedirs(directory, exist_ok=True)
    stem = Path(name).name.removesuffix(".mlir") + (f".{function}" if function else "")
    return os.path.join(directory, f"{stem}.lowered.mlir")


async def apply_lowered(ls: ConvoptServer, *args: Any) -> dict[str, Any]:
    """Replace the document with its `--lower-conv-bwd` output (a
    workspace/applyEdit the client may refuse)."""
    uri, _ = _arguments(args)
    text, snap = await _lowered(ls, uri, None)
    whole = snap.lines.range(0, len(snap.text))
    edit = types.WorkspaceEdit(changes={uri: [types.TextEdit(whole, text)]})
    result = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit, label="convopt --lower-conv-bwd"))
    return {"applied": result.applied, "failureReason": result.failure_reason}


def code_actions(ls: ConvoptServer, params: types.CodeActionParams) -> Optional[list[types.CodeAction]]:
    """Offered where the document has a convolution_backward: show the
    lowered IR of the function at the cursor and of the document, and
    apply the lowering to the document."""
    snap = ls.snapshot(params.text_document.uri)
    if CONV_BWD not in snap.text:
        return None
    actions = []
    function = snap.index.function_at(snap.lines.offset(params.range.start))
    if function is not None:
        actions.append(_action(f"convopt: show lowered IR of @{function.name}", SHOW, [snap.uri, function.name]))
    actions.append(_action("convopt: show lowered IR of the document", SHOW, [snap.uri]))
    actions.append(_action("convopt: replace the document with its lowered IR", APPLY, [snap.uri]))
    return actions


def _action(title: str, command: str, arguments: list[Any]) -> types.CodeAction:
    return types.CodeAction(title=title, kind=types.CodeActionKind.Source, command=types.Command(title=title, command=command, arguments=arguments))


def register(server: ConvoptServer) -> None:
    server.feature(types.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.Source]))(code_actions)
    server.command(SHOW)(show_lowered)
    server.command(APPLY)(apply_lowered)
