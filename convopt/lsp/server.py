"""The language server: documents, the debounced check, and the one worker
process that runs convopt.

Every convopt run (a check, a `--remarks --stats` report, a lowering) goes
to one worker process, one at a time (its parser tables loaded once, at
start-up), so the event loop keeps answering requests (definition,
references and symbols come from the lexical index, built on the loop)
while a large document is being checked: a worker thread shares the GIL
with the loop (a definition sent during a check of resnet18.mlir: median
506 and 687 ms with a thread, 373 and 429 ms with the process, two runs
each of bench/lsp.py's measure at a load average of 14 on 2 CPUs).  A change restarts the document's timer; when it fires,
the text of that moment is checked, and if the document changed meanwhile
the result is dropped and the newest text checked next: at most one check
per document runs, and one waits.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Optional, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from .analysis import LoweringReport, Settings, check, lowering_report
from .index import Index, build_index
from .positions import LineMap, to_lsp

T = TypeVar("T")


@dataclass
class Snapshot:
    """One version of a document, with its line map and lexical index."""

    uri: str
    name: str  # the file name in diagnostics: the path of a file: URI
    version: int
    text: str
    lines: LineMap
    index: Index


@dataclass
class _DocState:
    timer: Optional[asyncio.TimerHandle] = None
    running: bool = False
    again: bool = False
    snapshot: Optional[Snapshot] = None
    report: Optional[tuple[int, asyncio.Future]] = None  # (version, its LoweringReport)


class ConvoptServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("convopt-lsp", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.settings = Settings()
        self.worker = _worker()
        self.docs: dict[str, _DocState] = {}

    # -- documents -------------------------------------------------------------------
    def snapshot(self, uri: str) -> Snapshot:
        """The document's current text with its index (built once per version)."""
        doc = self.workspace.get_text_document(uri)
        state = self.docs.setdefault(uri, _DocState())
        version = doc.version if doc.version is not None else -1
        snap = state.snapshot
        if snap is None or snap.version != version or snap.text is not doc.source:
            text = doc.source
            snap = Snapshot(uri, doc.path or uri, version, text, LineMap(text, self.workspace.position_encoding or types.PositionEncodingKind.Utf16), build_index(text))
            state.snapshot = snap
        return snap

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in the worker process (a new one if it died)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)
        except BrokenProcessPool:
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, "convopt-lsp: the worker process died; starting a new one"))
            self.worker = _worker()
            return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)

    def shutdown(self) -> None:
        super().shutdown()
        self.worker.shutdown(wait=False, cancel_futures=True)

    def closed(self, uri: str) -> None:
        state = self.docs.pop(uri, None)
        if state is not None and state.timer is not None:
            state.timer.cancel()
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # -- the debounced check ---------------------------------------------------------------
    def schedule_check(self, uri: str, delay: float) -> None:
        state = self.docs.setdefault(uri, _DocState())
        if state.timer is not None:
            state.timer.cancel()
        state.timer = asyncio.get_running_loop().call_later(delay, self._start_check, uri)

    def _start_check(self, uri: str) -> None:
        state = self.docs.get(uri)
        if state is None:  # closed meanwhile
            return
        state.timer = None
        if state.running:
            state.again = True
            return
        state.running = True
        doc = self.workspace.get_text_document(uri)
        version, text, name = doc.version, doc.source, doc.path or uri
        encoding = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        future = asyncio.ensure_future(self.run(lsp_diagnostics, uri, name, text, encoding))
        future.add_done_callback(lambda f: self._check_done(uri, version, f))

    def _check_done(self, uri: str, version: Optional[int], future: asyncio.Future) -> None:
        state = self.docs.get(uri)
        if state is None or future.cancelled():
            return
        state.running = False
        current = self.workspace.get_text_document(uri).version
        if future.exception() is None and current == version:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=future.result(), version=version))
        elif future.exception() is not None:
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"convopt-lsp: checking {uri} failed: {future.exception()!r}"))
        if state.again or current != version:
            state.again = False
            if state.timer is None:
                self._start_check(uri)

    # -- the lowering report behind hover ------------------------------------------------
    async def report(self, snap: Snapshot) -> LoweringReport:
        """`--lower-conv-bwd --remarks --stats` of this version, computed once."""
        state = self.docs.setdefault(snap.uri, _DocState())
        if state.report is None or state.report[0] != snap.version:
            future = asyncio.ensure_future(self.run(lowering_report, snap.name, snap.text, self.settings))
            state.report = (snap.version, future)
        return await state.report[1]


def _worker() -> ProcessPoolExecutor:
    """One process, started with `spawn` (the server has threads; a fork
    would copy their locks), that builds the parser before the first job."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up, initargs=(os.getpid(),))


def _warm_up(server_pid: int) -> None:
    threading.Thread(target=_exit_with, args=(server_pid,), daemon=True).start()
    check("<warm-up>", "module {\n}\n")


def _exit_with(server_pid: int) -> None:
    """End the worker once the server is gone (killed: nobody would stop it)."""
    while os.getppid() == server_pid:
        time.sleep(1)
    os._exit(0)


def lsp_diagnostics(uri: str, name: str, text: str, encoding: str) -> list[types.Diagnostic]:
    """What `convopt FILE` reports, as LSP diagnostics (in the worker)."""
    lines = LineMap(text, encoding)
    return [to_lsp(d, lines, uri) for d in check(name, text)]


def initialize(ls: ConvoptServer, params: types.InitializeParams) -> None:
    ls.settings, problems = Settings.from_options(params.initialization_options)
    for problem in problems:
        ls.window_log_message(types.LogMessageParams(types.MessageType.Warning, problem))


def did_open(ls: ConvoptServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule_check(params.text_document.uri, 0)


def did_change(ls: ConvoptServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule_check(params.text_document.uri, ls.settings.debounce)


def did_close(ls: ConvoptServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.closed(params.text_document.uri)


def register(server: ConvoptServer) -> None:
    server.feature(types.INITIALIZE)(initialize)
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
