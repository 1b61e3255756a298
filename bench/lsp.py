"""bench/lsp: how long convopt-lsp takes to answer an edit of a large document.

Starts `python -m convopt.lsp` and drives it over stdio with pygls' client,
as an editor would, on
  * the largest graph of test/inputs and of test/models (resnet18.mlir, 324 KB),
  * a 1 MB module: three copies of resnet18's function (renamed) in one module,
and measures, per document (best and median of --repeats edits, each a
space inserted in a function body, then its undo: the
  document stays valid, so each check parses and verifies all of it):
  * parse+verify: `convopt.lsp.analysis.check` (what the worker runs) timed
    in this process, for reference;
  * check: from sending textDocument/didChange to receiving the
    publishDiagnostics of that version, with the debounce set to 0 (the
    parse + verify on the worker thread, the LSP round trip included);
  * definition-during-check: a textDocument/definition sent right after
    the change, while the check runs on the worker: the latency an editor
    sees for navigation (the change applied, the lexical index rebuilt,
    sharing the GIL with the check);
  * hover (first, then cached): the --lower-conv-bwd --remarks --stats run
    behind the first hover on a convolution_backward of a version, then the
    second hover of the same version;
  * a burst of 20 changes 10 ms apart with the default 250 ms debounce: how
    many checks ran (published diagnostics) and the time from the last
    change to its diagnostics.

    python -m bench.lsp [--repeats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from convopt.lsp.analysis import check

ROOT = Path(__file__).resolve().parents[1]


def documents() -> list[tuple[str, str]]:
    inputs = max((ROOT / "test" / "inputs").glob("*.mlir"), key=lambda p: p.stat().st_size)
    resnet = (ROOT / "test" / "models" / "resnet18.mlir").read_text()
    body = resnet.split("\n", 1)[1].rsplit("}", 1)[0]  # the function, without `module {` ... `}`
    big = "module {\n" + "".join(body.replace("func.func @main(", f"func.func @main{i}(") for i in range(3)) + "}\n"
    return [(str(inputs.relative_to(ROOT)), inputs.read_text()), ("test/models/resnet18.mlir", resnet), ("3 x resnet18 in one module", big)]


class Bench:
    def __init__(self) -> None:
        self.client = LanguageClient("convopt-lsp-bench", "1")
        self.published: dict[tuple[str, int], float] = {}
        self.version = 1

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.published[(params.uri, params.version or 0)] = time.perf_counter()

    async def start(self, debounce_ms: int) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        await self.client.start_io(sys.executable, "-m", "convopt.lsp", env=env)
        await self.client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(), initialization_options={"debounceMs": debounce_ms}))
        self.client.initialized(types.InitializedParams())

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def diagnostics(self, uri: str, version: int) -> float:
        while (uri, version) not in self.published:
            await asyncio.sleep(0.002)
        return self.published[(uri, version)]

    def change(self, uri: str, line: int, text: str, remove: int = 0) -> int:
        self.version += 1
        rng = types.Range(types.Position(line, 4), types.Position(line, 4 + remove))
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(types.VersionedTextDocumentIdentifier(self.version, uri), [types.TextDocumentContentChangePartial(rng, text)]))
        return self.version


async def measure(name: str, text: str, repeats: int) -> dict[str, object]:
    bench = Bench()
    await bench.start(0)
    uri = f"file:///bench/{abs(hash(name))}.mlir"
    bench.client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "mlir", 1, text)))
    await bench.diagnostics(uri, 1)
    lines = text.split("\n")
    body = next(i for i, line in enumerate(lines) if line.startswith("    %") and "=" in line)
    use = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("    %") and lines[i].count("%") >= 2)
    use_col = lines[use].index("%", lines[use].index("=") + 1)
    conv = next(i for i, line in enumerate(lines) if "torch.aten.convolution_backward" in line)
    checks, lookups, hovers, cached = [], [], [], []
    for _ in range(repeats):
        for edit in (" ", ""):  # a space and its undo: the document stays valid, so every check parses all of it
            start = time.perf_counter()
            version = bench.change(uri, body, edit, remove=0 if edit else 1)
            t0 = time.perf_counter()
            await bench.client.text_document_definition_async(types.DefinitionParams(types.TextDocumentIdentifier(uri), types.Position(use, use_col + 1)))
            lookups.append(time.perf_counter() - t0)
            checks.append(await bench.diagnostics(uri, version) - start)
        for store in (hovers, cached):
            t0 = time.perf_counter()
            await bench.client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(conv, lines[conv].index("torch.aten"))))
            store.append(time.perf_counter() - t0)
    await bench.stop()
    burst = await measure_burst(uri, text, body)
    inline = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        check(name, text)
        inline.append(time.perf_counter() - t0)
    return {"name": name, "bytes": len(text.encode()), "inline": inline, "check": checks, "definition": lookups, "hover": hovers, "hover_cached": cached, **burst}


async def measure_burst(uri: str, text: str, line: int) -> dict[str, object]:
    bench = Bench()
    await bench.start(250)
    bench.client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "mlir", 1, text)))
    await bench.diagnostics(uri, 1)
    before = len(bench.published)
    for _ in range(20):
        last = bench.change(uri, line, " ")
        sent = time.perf_counter()
        await asyncio.sleep(0.01)
    done = await bench.diagnostics(uri, last)
    await asyncio.sleep(0.5)
    await bench.stop()
    return {"burst_checks": len(bench.published) - before, "burst_last_to_diagnostics": done - sent}


def ms(values: list[float]) -> str:
    return f"{min(values) * 1000:.0f} / {statistics.median(values) * 1000:.0f}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; times in ms, best / median")
    print(f"{'document':36} {'bytes':>9} {'parse+verify':>13} {'check':>13} {'definition':>13} {'hover':>13} {'hover again':>13} {'20-change burst':>26}")
    for name, text in documents():
        r = await measure(name, text, args.repeats)
        burst = f"{r['burst_checks']} check(s), +{r['burst_last_to_diagnostics'] * 1000:.0f} ms"  # type: ignore[operator]
        print(f"{name:36} {r['bytes']:>9} {ms(r['inline']):>13} {ms(r['check']):>13} {ms(r['definition']):>13} {ms(r['hover']):>13} {ms(r['hover_cached']):>13} {burst:>26}")  # type: ignore[arg-type]
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    asyncio.run(main())
