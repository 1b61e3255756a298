"""convopt-lsp end to end: pytest-lsp starts `python -m convopt.lsp` and
drives it over stdio as an editor would (open, edit into an error and
back, hover, definition, references, symbols, code actions, the
commands); the expected texts come from the command line's own code
(`run_text`), so the server must say what `convopt` says."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any, Union

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from convopt.diagnostics import ConvoptError
from convopt.driver import Options, run_text
from convopt.lowering.choices import Target
from convopt.pass_options import DecomposeOptions
from convopt.pipelines import PipelineOptions, default_pipeline

ROOT = Path(__file__).resolve().parents[2]
PATH = str(ROOT / "test" / "unit" / "lsp-doc.mlir")  # never written: the document lives in the editor
URI = Path(PATH).as_uri()
LOWER = default_pipeline(PipelineOptions(lower_conv_bwd=True))

DOC = """\
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
func.func @sum(%a: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%a : tensor<4xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %1 : tensor<f32>
}
func.func @grads(%go: !torch.vtensor<[1,4,4,4],f32>, %x: !torch.vtensor<[1,4,4,4],f32>, %w: !torch.vtensor<[4,2,3,3],f32>) -> (!torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4,2,3,3],f32>) {
  %int4 = torch.constant.int 4
  %l0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %int2 = torch.constant.int 2
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l2, %l2, %transposed, %l6, %int2, %mask : !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4,2,3,3],f32>
}
"""
LINES = DOC.split("\n")
CONV_LINE = next(i for i, line in enumerate(LINES) if "torch.aten.convolution_backward" in line)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def pos(line: int, needle: str, nth: int = 0) -> types.Position:
    """The position of the nth occurrence of needle on a 0-based line."""
    col = -1
    for _ in range(nth + 1):
        col = LINES[line].index(needle, col + 1)
    return types.Position(line, col)


def converter():
    """lsprotocol's converter, except that an item of a code action list
    with a `command` object is a CodeAction (lsprotocol 2025.0.0 reads
    every item with a `command` key as a Command)."""
    conv = default_converter()

    def command_or_action(obj: Any, _: type) -> Union[types.Command, types.CodeAction]:
        return conv.structure(obj, types.Command if isinstance(obj.get("command"), str) else types.CodeAction)

    conv.register_structure_hook(Union[types.Command, types.CodeAction], command_or_action)
    return conv


def make_client() -> LanguageClient:
    """pytest-lsp's client, also recording every publishDiagnostics and
    answering workspace/applyEdit (recording the edit)."""
    client = LanguageClient(converter_factory=converter)
    client.published = []  # type: ignore[attr-defined]
    client.edits = []  # type: ignore[attr-defined]

    def publish(c: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        c.diagnostics[params.uri] = params.diagnostics
        c.published.append(params)  # type: ignore[attr-defined]

    def apply_edit(c: LanguageClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        c.edits.append(params)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    features[types.WORKSPACE_APPLY_EDIT] = apply_edit
    register_lsp_features(client, features)
    return client


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "convopt.lsp"],
        server_env={**os.environ, "PYTHONPATH": str(ROOT)},
        client_factory=make_client,
    ),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(window=types.WindowClientCapabilities(show_document=types.ShowDocumentClientCapabilities(support=True))),
            initialization_options={"debounceMs": 50},
        )
    )
    lsp_client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(URI, "mlir", 1, DOC)))
    await published(lsp_client, 1)
    yield
    await lsp_client.shutdown_session()


async def published(client: LanguageClient, version: int, timeout: float = 30.0, uri: str = URI) -> list[types.Diagnostic]:
    """The diagnostics published for this version of the document."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        for p in client.published:  # type: ignore[attr-defined]
            if p.uri == uri and p.version == version:
                return list(p.diagnostics)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics for version {version}")


_version = [1]


def change(client: LanguageClient, start: types.Position, end: types.Position, text: str) -> int:
    _version[0] += 1
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(_version[0], URI),
            [types.TextDocumentContentChangePartial(types.Range(start, end), text)],
        )
    )
    return _version[0]


def cli_error(text: str) -> str:
    """The first stderr line of `convopt PATH` on text."""
    with pytest.raises(ConvoptError) as e:
        run_text(text, Options(), PATH)
    return e.value.diagnostics[0]


async def test_open_is_clean(client: LanguageClient):
    assert await published(client, 1) == []


async def test_edit_into_an_error_and_back(client: LanguageClient):
    """An undeclared name: the CLI's message at the CLI's position; then
    the edit undone, and the diagnostic goes."""
    where = pos(5, "%in")
    broken = change(client, where, types.Position(where.line, where.character + 3), "%nope")
    [diag] = await published(client, broken)
    text = "\n".join(LINES[:5] + [LINES[5].replace("%in", "%nope", 1)] + LINES[6:])
    start = diag.range.start
    assert f"{PATH}:{start.line + 1}:{start.character + 1}: error: {diag.message}" == cli_error(text)
    assert diag.severity == types.DiagnosticSeverity.Error
    assert (diag.range.start, diag.range.end) == (where, types.Position(where.line, where.character + 5))
    fixed = change(client, where, types.Position(where.line, where.character + 5), "%in")
    assert await published(client, fixed) == []


async def test_a_syntax_error_and_a_verifier_error(client: LanguageClient):
    line = LINES.index("  return %1 : tensor<f32>")
    end = types.Position(line, len(LINES[line]))
    broken = change(client, types.Position(line, 0), end, "  return %1 : tensor<f32")
    [diag] = await published(client, broken)
    assert f"{PATH}:{diag.range.start.line + 1}:{diag.range.start.character + 1}: error: {diag.message}" == cli_error(DOC.replace("return %1 : tensor<f32>", "return %1 : tensor<f32"))
    fixed = change(client, types.Position(line, 0), types.Position(line, len("  return %1 : tensor<f32")), LINES[line])
    assert await published(client, fixed) == []


async def test_a_misspelled_op_is_the_cli_error(client: LanguageClient):
    """torch.aten.convolution_backwrd: the unknown-op error with its
    suggestion, as the command line reports it, at the op name."""
    where = pos(CONV_LINE, "torch.aten.convolution_backward")
    end = types.Position(where.line, where.character + len("torch.aten.convolution_backward"))
    broken = change(client, where, end, "torch.aten.convolution_backwrd")
    [diag] = await published(client, broken)
    assert diag.message.endswith("did you mean 'torch.aten.convolution_backward'?")
    text = DOC.replace("torch.aten.convolution_backward", "torch.aten.convolution_backwrd")
    assert f"{PATH}:{diag.range.start.line + 1}:{diag.range.start.character + 1}: error: {diag.message}" == cli_error(text)
    assert diag.range.start == where
    fixed = change(client, where, types.Position(where.line, where.character + len("torch.aten.convolution_backwrd")), "torch.aten.convolution_backward")
    assert await published(client, fixed) == []


async def test_split_files_and_utf16_columns(client: LanguageClient):
    """A `// -----` file is checked chunk by chunk, as --split-input-file
    does (document line numbers); columns are UTF-16 code units (an emoji
    before the error counts 2), and closing the document clears it."""
    path = str(ROOT / "test" / "unit" / "lsp-split.mlir")
    uri = Path(path).as_uri()
    text = (
        'func.func @ok() {\n  return\n}\n// -----\nfunc.func @f() -> f32 attributes {s = "\U0001F600"} { return %nope : f32 }\n'
        "// -----\nfunc.func @g(%a: f32) {\n  %0 = arith.addf %a, %a : f32\n  %0 = arith.addf %a, %a : f32\n  return\n}\n"
    )
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "mlir", 1, text)))
    [diag, redefined] = await published(client, 1, uri=uri)
    with pytest.raises(ConvoptError) as e:
        run_text(text, Options(split_input_file=True), path)
    line = text.split("\n")[4]
    assert e.value.diagnostics[0] == f"{path}:5:{line.index('%nope') + 1}: error: {diag.message}"
    assert diag.range.start == types.Position(4, line.index("%nope") + 1)
    # the third chunk: its error and note on the document's lines 9 and 8
    assert f"{path}:9:3: error: {redefined.message}" in e.value.diagnostics
    assert redefined.range.start == types.Position(8, 2)
    [note] = redefined.related_information
    assert (note.message, note.location.range.start) == ("previously defined here", types.Position(7, 2))
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    for _ in range(3000):
        if list(client.diagnostics.get(uri, [diag])) == []:
            break
        await asyncio.sleep(0.01)
    assert list(client.diagnostics[uri]) == []


async def test_changes_are_debounced(client: LanguageClient):
    """Five changes in a row: one check, of the last version."""
    before = len(client.published)  # type: ignore[attr-defined]
    line = LINES.index("  return %1 : tensor<f32>")
    versions = []
    for ch in "abcde":
        versions.append(change(client, types.Position(line, 0), types.Position(line, 0), ch))
    last_error = await published(client, versions[-1])
    assert len(last_error) == 1
    assert [p.version for p in client.published[before:]] == [versions[-1]]  # type: ignore[attr-defined]
    fixed = change(client, types.Position(line, 0), types.Position(line, 5), "")
    assert await published(client, fixed) == []


async def test_hover_on_convolution_backward(client: LanguageClient):
    """The remark and the --stats lines the CLI prints for that op."""
    log: list[str] = []
    run_text(DOC, Options(pipeline=LOWER, remarks=True, stats=True), PATH, log.append)
    prefix = f"{PATH}:{CONV_LINE + 1}:"
    cli = [entry.split(": ", 1)[1].rstrip("\n").split("\n")[0] for entry in log if entry.startswith(prefix)]
    assert len(cli) == 3  # two stats lines (grad_input, grad_weight), one remark
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(URI), pos(CONV_LINE, "convolution_backward")))
    assert hover is not None
    text = hover.contents.value
    for line in cli:
        assert line.removeprefix("remark: ") in text
    assert "lowered directly: 2-D f32 groups=2 is legal for target linalg" in text
    assert "executed_macs=800 useful_macs=800" in text
    assert hover.range.start == pos(CONV_LINE, "torch.aten.convolution_backward")
    nothing = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(URI), pos(CONV_LINE - 1, "%mask")))
    assert nothing is None


async def definition(client: LanguageClient, at: types.Position) -> types.Location:
    found = await client.text_document_definition_async(types.DefinitionParams(types.TextDocumentIdentifier(URI), at))
    assert isinstance(found, types.Location) and found.uri == URI
    return found


async def test_definition_of_values_block_arguments_and_aliases(client: LanguageClient):
    # a function argument, used in the first generic's ins(...)
    assert (await definition(client, pos(3, "%a"))).range.start == pos(2, "%a")
    # a result used as the second generic's init
    assert (await definition(client, pos(8, "%0"))).range.start == pos(3, "%0")
    # block arguments: each region has its own %in
    assert (await definition(client, pos(5, "%in"))).range.start == pos(4, "%in")
    assert (await definition(client, pos(10, "%in"))).range.start == pos(9, "%in")
    # an alias
    found = await definition(client, pos(8, "#map1"))
    assert (found.range.start, found.range.end) == (types.Position(1, 0), types.Position(1, 5))
    # %r#1 goes to %r:3
    last = len(LINES) - 3
    assert (await definition(client, pos(last, "%r", 1))).range.start == pos(CONV_LINE, "%r")
    # not a symbol
    none = await client.text_document_definition_async(types.DefinitionParams(types.TextDocumentIdentifier(URI), pos(3, "linalg.generic")))
    assert none is None


async def test_references(client: LanguageClient):
    defined = LINES.index("  %int1 = torch.constant.int 1")
    refs = await client.text_document_references_async(
        types.ReferenceParams(text_document=types.TextDocumentIdentifier(URI), position=pos(defined + 1, "%int1", 1), context=types.ReferenceContext(include_declaration=True))
    )
    assert [r.range.start for r in refs] == [pos(defined, "%int1"), pos(defined + 1, "%int1"), pos(defined + 1, "%int1", 1)]
    uses = await client.text_document_references_async(
        types.ReferenceParams(text_document=types.TextDocumentIdentifier(URI), position=pos(0, "#map"), context=types.ReferenceContext(include_declaration=False))
    )
    assert [r.range.start for r in uses] == [pos(3, "#map"), pos(8, "#map")]
    scoped = await client.text_document_references_async(
        types.ReferenceParams(text_document=types.TextDocumentIdentifier(URI), position=pos(9, "%out"), context=types.ReferenceContext(include_declaration=False))
    )
    assert [r.range.start for r in scoped] == [pos(10, "%out")]


async def test_document_symbols(client: LanguageClient):
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(types.TextDocumentIdentifier(URI)))
    assert [(s.name, s.kind, s.range.start.line, s.range.end.line, s.selection_range.start) for s in symbols] == [
        ("@sum", types.SymbolKind.Function, 2, 14, pos(2, "@sum")),
        ("@grads", types.SymbolKind.Function, 15, len(LINES) - 2, pos(15, "@grads")),
    ]


async def execute(client: LanguageClient, command: str, *args: str):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command, list(args)))


async def test_show_lowered_ir(client: LanguageClient):
    whole = run_text(DOC, Options(pipeline=LOWER), PATH)
    assert await execute(client, "convopt.showLoweredIR", URI) == whole
    alone = "\n".join(LINES[LINES.index(next(line for line in LINES if line.startswith("func.func @grads"))) :])
    one = await execute(client, "convopt.showLoweredIR", URI, "@grads")
    assert one == run_text(alone, Options(pipeline=LOWER), PATH)
    assert "@sum" not in one and "torch.aten.convolution_backward" not in one
    client.shown_documents.clear()


async def test_show_lowered_ir_opens_it_where_the_client_can(client: LanguageClient):
    """A client that shows documents is asked to open the lowered IR,
    written to a temporary file."""
    whole = await execute(client, "convopt.showLoweredIR", URI)
    [shown] = client.shown_documents
    assert shown.uri.endswith("/convopt-lsp/lsp-doc.lowered.mlir") and shown.take_focus is False
    assert Path(shown.uri.removeprefix("file://")).read_text() == whole


async def test_apply_lowered_ir(client: LanguageClient):
    result = await execute(client, "convopt.applyLoweredIR", URI)
    assert result["applied"] is True
    [params] = client.edits  # type: ignore[attr-defined]
    [edit] = params.edit.changes[URI]
    assert edit.new_text == run_text(DOC, Options(pipeline=LOWER), PATH)
    assert (edit.range.start, edit.range.end) == (types.Position(0, 0), types.Position(len(LINES) - 1, 0))


async def test_code_actions(client: LanguageClient):
    at = types.Range(pos(CONV_LINE, "%r"), pos(CONV_LINE, "%r"))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(URI), at, types.CodeActionContext(diagnostics=[]))
    )
    assert [(a.title, a.command.command, list(a.command.arguments)) for a in actions] == [
        ("convopt: show lowered IR of @grads", "convopt.showLoweredIR", [URI, "grads"]),
        ("convopt: show lowered IR of the document", "convopt.showLoweredIR", [URI]),
        ("convopt: replace the document with its lowered IR", "convopt.applyLoweredIR", [URI]),
    ]


async def test_command_on_a_broken_document_fails_with_the_cli_text(client: LanguageClient):
    where = pos(5, "%in")
    broken = change(client, where, types.Position(where.line, where.character + 3), "%nope")
    await published(client, broken)
    with pytest.raises(Exception) as e:
        await execute(client, "convopt.showLoweredIR", URI)
    text = "\n".join(LINES[:5] + [LINES[5].replace("%in", "%nope", 1)] + LINES[6:])
    assert cli_error(text) in str(e.value)
    fixed = change(client, where, types.Position(where.line, where.character + 5), "%in")
    assert await published(client, fixed) == []


async def test_initialization_options_choose_the_lowering():
    """initializationOptions are --lower-conv-bwd's flags (bad values are
    reported and ignored); the report under --target=rocmlir names the
    decomposed ops and the --stats lines of their convolutions."""
    from convopt.lsp.analysis import Settings, lowering_report

    settings, problems = Settings.from_options({"target": "rocmlir", "device": "tpu", "debounceMs": 100})
    assert (settings.target, settings.device, settings.debounce) == ("rocmlir", None, 0.1)
    assert problems == ["convopt-lsp: device='tpu' ignored (one of cpu, avx2, avx512, gpu, host)"]
    assert settings.pipeline == default_pipeline(PipelineOptions(lower_conv_bwd=True, decompose=DecomposeOptions(target=Target.ROCMLIR)))
    legality = ROOT / "test" / "lit" / "convopt-decompose-conv-bwd" / "legality.mlir"
    report = lowering_report(str(legality), legality.read_text(), settings)
    log: list[str] = []
    run_text(legality.read_text(), Options(pipeline=settings.pipeline, split_input_file=True, remarks=True, stats=True), str(legality), log.append)
    assert sorted(report.ops) == [31, 51, 71, 90]
    assert report.ops[51].remarks == ["decomposed: 3-D with groups=2 is not legal for target rocmlir"]
    cli = [line.split(": ", 1)[1].rstrip("\n") for line in log if line.startswith(f"{legality}:51:")]
    assert report.ops[51].stats == [line for line in cli if not line.startswith("remark")] != []
    assert all(line.startswith("torch.aten.convolution (") for line in report.ops[51].stats)


async def test_backend_legal_ops_setting_must_name_torch_ops():
    from convopt.lsp.analysis import Settings

    settings, problems = Settings.from_options({"backendLegalOps": "aten.convolution_backwrd"})
    assert settings.backend_legal_ops is None
    assert problems == ["convopt-lsp: backendLegalOps='aten.convolution_backwrd' ignored ('aten.convolution_backwrd' is not a torch op; did you mean 'aten.convolution_backward'?)"]
    settings, problems = Settings.from_options({"backendLegalOps": "aten.convolution_backward"})
    assert settings.backend_legal_ops == "aten.convolution_backward" and problems == []
