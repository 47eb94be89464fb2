"""A real LSP client session with `cardrules lsp` for tests: pygls' LanguageClient talking to the
server as a subprocess over stdio, its event loop in a background thread, driven by plain calls.

    with LspSession(root) as lsp:
        lsp.open(path, text)
        lsp.wait_diagnostics(path, lambda found: found)      # the first non-empty list
        lsp.hover(path, line, character)

Diagnostics the server publishes are kept by file (the latest list) and counted; opening or
changing a file drops its list, so that a wait takes what is published after the change.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the extra 'lsp'")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

TIMEOUT = 20.0


def server_command() -> list[str]:
    """The installed `cardrules` script beside this Python (else `python -m interpreter.cli.main`)."""
    script = Path(sys.executable).parent / "cardrules"
    if script.is_file():
        return [str(script), "lsp"]
    found = shutil.which("cardrules")
    return [found, "lsp"] if found else [sys.executable, "-m", "interpreter.cli.main", "lsp"]


def uri(path: Path) -> str:
    return from_fs_path(str(Path(path).resolve())) or ""


class LspSession:
    def __init__(self, root: Path, debounce: float = 0.05) -> None:
        self.root = Path(root)
        self.debounce = debounce
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="lsp-client", daemon=True)
        self.client = LanguageClient("cardrules-tests", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.published = 0
        self.arrivals: list[tuple[float, str, int]] = []  # every publish: (perf_counter, uri, how many)
        self.condition = threading.Condition()
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            with self.condition:
                self.diagnostics[params.uri] = list(params.diagnostics)
                self.published += 1
                self.arrivals.append((time.perf_counter(), params.uri, len(params.diagnostics)))
                self.condition.notify_all()

    # ------------------------------------------------------------------ running
    def run(self, coroutine, timeout: float = TIMEOUT) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def __enter__(self) -> LspSession:
        self.thread.start()
        env = {**os.environ, "CARDRULES_LSP_DEBOUNCE": str(self.debounce)}
        command = server_command()

        async def start() -> types.InitializeResult:
            await self.client.start_io(*command, env=env)
            result = await self.client.initialize_async(types.InitializeParams(
                capabilities=types.ClientCapabilities(), root_uri=uri(self.root),
                workspace_folders=[types.WorkspaceFolder(uri=uri(self.root), name="root")]))
            self.client.initialized(types.InitializedParams())
            return result

        self.initialize_result = self.run(start())
        return self

    def __exit__(self, *exc) -> None:
        async def stop() -> None:
            try:
                await asyncio.wait_for(self.client.shutdown_async(None), 5)
                self.client.exit(None)
            except Exception:
                pass
            server = self.client._server
            if server is not None and server.returncode is None:
                try:
                    await asyncio.wait_for(server.wait(), 5)
                except asyncio.TimeoutError:
                    server.kill()
            await self.client.stop()

        try:
            self.run(stop(), timeout=15)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)

    @property
    def alive(self) -> bool:
        server = self.client._server
        return server is not None and server.returncode is None

    # ------------------------------------------------------------------ documents
    def _forget(self, key: str) -> None:
        """Drop a file's diagnostics: a wait then takes only those published after this change."""
        with self.condition:
            self.diagnostics.pop(key, None)

    def open(self, path: Path, text: str, language: str = "cardrules") -> None:
        key = uri(path)
        self._forget(key)
        self.versions[key] = 1
        item = types.TextDocumentItem(uri=key, language_id=language, version=1, text=text)
        self.loop.call_soon_threadsafe(self.client.text_document_did_open, types.DidOpenTextDocumentParams(item))

    def replace(self, path: Path, text: str) -> None:
        """Send the whole new text of an open document."""
        self.change(path, [types.TextDocumentContentChangeWholeDocument(text=text)])

    def change(self, path: Path, changes: list) -> None:
        key = uri(path)
        self._forget(key)
        self.versions[key] = self.versions.get(key, 1) + 1
        params = types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=key, version=self.versions[key]),
            content_changes=changes)
        self.loop.call_soon_threadsafe(self.client.text_document_did_change, params)

    def wait_diagnostics(self, path: Path, accept: Callable[[list[types.Diagnostic]], bool],
                         timeout: float = TIMEOUT) -> list[types.Diagnostic]:
        """The latest diagnostics of a file once `accept` takes them (AssertionError on timeout)."""
        key = uri(path)
        with self.condition:
            done = self.condition.wait_for(lambda: key in self.diagnostics and accept(self.diagnostics[key]),
                                           timeout)
            if not done:
                raise AssertionError(f"no acceptable diagnostics for {path} in {timeout} s; "
                                     f"last: {self.diagnostics.get(key)}")
            return self.diagnostics[key]

    # ------------------------------------------------------------------ requests
    @staticmethod
    def _position(path: Path, line: int, character: int) -> dict:
        return {"text_document": types.TextDocumentIdentifier(uri=uri(path)),
                "position": types.Position(line=line, character=character)}

    def hover(self, path: Path, line: int, character: int) -> types.Hover | None:
        return self.run(self.client.text_document_hover_async(types.HoverParams(**self._position(path, line, character))))

    def definition(self, path: Path, line: int, character: int):
        return self.run(self.client.text_document_definition_async(
            types.DefinitionParams(**self._position(path, line, character))))

    def completion(self, path: Path, line: int, character: int) -> types.CompletionList:
        return self.run(self.client.text_document_completion_async(
            types.CompletionParams(**self._position(path, line, character))))

    def formatting(self, path: Path) -> list[types.TextEdit] | None:
        return self.run(self.client.text_document_formatting_async(types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True))))

    def symbols(self, path: Path):
        return self.run(self.client.text_document_document_symbol_async(types.DocumentSymbolParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)))))


def position_of(text: str, needle: str, skip: int = 0) -> tuple[int, int]:
    """(line, character) of the start of `needle` in `text` (0-based; text without characters
    beyond U+FFFF before it, so characters are UTF-16 units), its `skip`-th occurrence."""
    offset = -1
    for _ in range(skip + 1):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)
