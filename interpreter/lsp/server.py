"""The language server: pygls feature handlers over stdio.

Edits only record the new text and wake the analysis loop. The loop waits until the edits pause
(`debounce` seconds without one), then, in a worker thread (analysis.py), checks the edited code
and card files first (their rulesets loaded, nothing else) and publishes their own diagnostics,
then analyses them whole and publishes the diagnostics of every file of their rulesets (the
edited files first), unless newer edits came in meanwhile (then it analyses again; a result set
aside three times running is published anyway). A deck file gets its ruleset's index: hover and
completion of its card names.
Hover, definition, completion and document symbols answer at once from the latest index of names
and the text as it stands; formatting runs the canonical printer in a thread. Nothing an editor
sends stops the server: a handler that fails answers with an error, an analysis that fails
becomes a diagnostic.
"""

from __future__ import annotations

import asyncio
import logging
import os
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..errors import CardrulesError
from ..lang.formatting import format_text
from .analysis import Analyser, Analysis, Check, QuickCheck
from .diagnostics import SOURCE, error_range, utf16
from .features import (
    Entry,
    completions,
    deck_card_at,
    deck_completions,
    definitions,
    document_symbols,
    find,
    hover_markdown,
)
from .protocol import AnsweringProtocol
from .rulesets import CODE_SUFFIXES, RulesetFinder
from .symbols import Symbol, SymbolIndex

log = logging.getLogger("cardrules.lsp")

DEBOUNCE = 0.3  # seconds without an edit before an analysis starts
STALE_LIMIT = 3  # results set aside for newer edits this many times running are published anyway

_COMPLETION_KINDS = {
    "zone": types.CompletionItemKind.Module, "procedure": types.CompletionItemKind.Function,
    "function": types.CompletionItemKind.Function, "keyword": types.CompletionItemKind.Interface,
    "attribute": types.CompletionItemKind.Field, "property": types.CompletionItemKind.Property,
    "card": types.CompletionItemKind.Constant, "card type": types.CompletionItemKind.Class,
    "event": types.CompletionItemKind.Event, "option": types.CompletionItemKind.Value,
    "local": types.CompletionItemKind.Variable, "name": types.CompletionItemKind.Variable,
    "built-in function": types.CompletionItemKind.Function, "built-in procedure": types.CompletionItemKind.Function,
    "language keyword": types.CompletionItemKind.Keyword,
}
_SYMBOL_KINDS = {"card": types.SymbolKind.Constant, "procedure": types.SymbolKind.Function,
                 "function": types.SymbolKind.Function, "keyword": types.SymbolKind.Interface}


class CardrulesServer(LanguageServer):
    """The server's state: the analyser, the index of names per document, what is published."""

    def __init__(self, check: Check, debounce: float = DEBOUNCE, quick: QuickCheck | None = None) -> None:
        super().__init__("cardrules", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=AnsweringProtocol)
        self.debounce = debounce
        self.analyser = Analyser(check, RulesetFinder(), quick)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardrules-analysis")
        self.indexes: dict[Path, SymbolIndex] = {}
        self.published: dict[Path, int] = {}  # file -> how many diagnostics it shows now
        self.decks: set[Path] = set()  # the files analysed as decks (their index: their ruleset's)
        self.dirty: set[Path] = set()
        self.wake: asyncio.Event | None = None
        self.loop_task: asyncio.Task | None = None
        self.stale = 0

    # ------------------------------------------------------------------ documents
    def open_texts(self) -> dict[Path, str]:
        texts = {}
        for uri, document in list(self.workspace.text_documents.items()):
            path = _path(uri)
            if path is not None:
                texts[path] = document.source
        return texts

    def touched(self, uri: str) -> None:
        path = _path(uri)
        if path is None:
            return
        self.dirty.add(path)
        if self.wake is None:
            self.wake = asyncio.Event()
            self.loop_task = asyncio.get_running_loop().create_task(self.analysis_loop())
        self.wake.set()

    # ------------------------------------------------------------------ analysis
    async def analysis_loop(self) -> None:
        assert self.wake is not None
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            while True:  # until the edits pause
                self.wake.clear()
                try:
                    await asyncio.wait_for(self.wake.wait(), self.debounce)
                except asyncio.TimeoutError:
                    break
            self.wake.clear()
            targets, self.dirty = sorted(self.dirty), set()
            texts = self.open_texts()
            if not await self.publish_quick(targets, texts) and self.stale < STALE_LIMIT:
                self.stale += 1  # newer edits came in: check them first
                self.dirty.update(targets)
                continue
            try:
                results = await loop.run_in_executor(self.worker, self.analyser.analyse, targets, texts)
            except Exception as err:  # never let one analysis stop the next
                log.error("analysis failed: %s", "".join(traceback.format_exception(err)))
                results = {t: _failed(t, err) for t in targets}
            if self.wake.is_set() and self.stale < STALE_LIMIT:
                self.stale += 1
                self.dirty.update(targets)
                continue
            self.stale = 0
            try:
                self.publish(results)
            except Exception as err:  # (a file name no URI can hold, say): the next edit tries again
                log.error("publishing diagnostics failed: %s", err)

    async def publish_quick(self, targets: list[Path], texts: dict[Path, str]) -> bool:
        """The edited code and card files' own diagnostics, from loading their rulesets only,
        published before the whole check; False when newer edits came in meanwhile (nothing
        published then)."""
        if not any(t.suffix in CODE_SUFFIXES for t in targets):
            return True
        try:
            found = await asyncio.get_running_loop().run_in_executor(self.worker, self.analyser.quick, targets, texts)
        except Exception as err:  # the whole check comes next all the same
            log.error("quick check failed: %s", "".join(traceback.format_exception(err)))
            return True
        if self.wake is not None and self.wake.is_set():
            return False
        try:
            for file, analysis in found.items():
                self.indexes[file] = analysis.index
                diagnostics = analysis.diagnostics[file]
                if diagnostics or self.published.get(file) or self._is_open(file):
                    self.published[file] = len(diagnostics)
                    self.text_document_publish_diagnostics(
                        types.PublishDiagnosticsParams(uri=from_fs_path(str(file)) or "", diagnostics=diagnostics))
        except Exception as err:  # (a file name no URI can hold, say): the whole check tries again
            log.error("publishing diagnostics failed: %s", err)
        return True

    def publish(self, results: dict[Path, Analysis]) -> None:
        done: set[int] = set()
        for target, analysis in results.items():
            self.indexes[target] = analysis.index
            if analysis.deck:
                self.decks.add(target)
            else:
                self.decks.discard(target)
            if id(analysis) in done:
                continue
            done.add(id(analysis))
            for file in analysis.files - set(results):  # (its other files: the same ruleset's names)
                self.indexes[file] = analysis.index
            edited = [f for f in analysis.diagnostics if f in results]  # (the edited files first)
            ordered = {f: analysis.diagnostics[f] for f in [*edited, *analysis.diagnostics]}
            for file, found in ordered.items():
                if not found and not self.published.get(file) and not self._is_open(file):
                    continue  # nothing shown, nothing to show
                self.published[file] = len(found)
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=from_fs_path(str(file)) or "", diagnostics=found))

    def _is_open(self, file: Path) -> bool:
        uri = from_fs_path(str(file))
        return uri in self.workspace.text_documents

    # ------------------------------------------------------------------ lookups
    def index_for(self, uri: str) -> SymbolIndex | None:
        path = _path(uri)
        return self.indexes.get(path) if path is not None else None

    def module_for(self, uri: str):
        path = _path(uri)
        found = self.analyser.builder.last_good.get(str(path)) if path is not None else None
        return found[1] if found is not None else None


def _path(uri: str) -> Path | None:
    path = to_fs_path(uri)
    if not path:
        return None
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def _failed(target: Path, err: Exception) -> Analysis:
    message = f"cardrules could not check this file: {type(err).__name__}: {err}"
    start = types.Position(line=0, character=0)
    found = Analysis(files={target})
    found.diagnostics[target] = [types.Diagnostic(range=types.Range(start=start, end=start), message=message,
                                                  severity=types.DiagnosticSeverity.Error, source=SOURCE)]
    return found


def _location(span) -> types.Location:
    return types.Location(uri=from_fs_path(span.file) or "", range=error_range(span))


def _text(server: CardrulesServer, uri: str) -> str | None:
    """The document's text: the editor's if it is open, else the file's; None when there is
    neither (a request about a document never opened that is not on disk is answered with null)."""
    try:
        return server.workspace.get_text_document(uri).source
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _server_position(server: CardrulesServer, uri: str, position: types.Position) -> tuple[str, int, int] | None:
    """The document's text and the position in characters (not UTF-16 units); None without a text."""
    text = _text(server, uri)
    if text is None:
        return None
    lines = text.split("\n")
    line = position.line
    if not 0 <= line < len(lines):
        return text, line, position.character
    units = 0
    column = 0
    for char in lines[line]:
        if units >= position.character:
            break
        units += 2 if ord(char) > 0xFFFF else 1
        column += 1
    return text, line, column


def _client_range(text: str, line: int, start: int, end: int) -> types.Range:
    """A range on one line, from columns in characters to UTF-16 units."""
    lines = text.split("\n")
    line_text = lines[line] if 0 <= line < len(lines) else None
    return types.Range(start=types.Position(line=line, character=utf16(line_text, start)),
                       end=types.Position(line=line, character=utf16(line_text, end)))


def build_server(check: Check, debounce: float | None = None, quick: QuickCheck | None = None) -> CardrulesServer:
    """A server whose diagnostics come from `check` (and first, for the edited files, from
    `quick`); its features registered."""
    if debounce is None:
        debounce = float(os.environ.get("CARDRULES_LSP_DEBOUNCE", DEBOUNCE))
    server = CardrulesServer(check, debounce, quick)

    @server.feature(types.INITIALIZED)
    def initialized(ls: CardrulesServer, params: types.InitializedParams) -> None:
        roots = [Path(p) for f in ls.workspace.folders.values() if (p := to_fs_path(f.uri))]
        if not roots and ls.workspace.root_path:
            roots = [Path(ls.workspace.root_path)]
        ls.analyser.finder.roots = [r.resolve() for r in roots]

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CardrulesServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.touched(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CardrulesServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.touched(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: CardrulesServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.touched(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CardrulesServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.touched(params.text_document.uri)  # checked again as it is on disk

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: CardrulesServer, params: types.HoverParams) -> types.Hover | None:
        index = ls.index_for(params.text_document.uri)
        if index is None:
            return None
        at = _server_position(ls, params.text_document.uri, params.position)
        if at is None:
            return None
        text, line, column = at
        found = find(index, text, line, column)
        path = _path(params.text_document.uri)
        if found is None and path in ls.decks:
            lines = text.split("\n")
            found = deck_card_at(index, lines[line], column) if 0 <= line < len(lines) else None
        if found is None:
            return None
        value = hover_markdown(index, found)
        where = _client_range(text, line, found.start, found.end)
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value), range=where)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: CardrulesServer, params: types.DefinitionParams) -> list[types.Location] | None:
        index = ls.index_for(params.text_document.uri)
        if index is None:
            return None
        at = _server_position(ls, params.text_document.uri, params.position)
        if at is None:
            return None
        text, line, column = at
        found = find(index, text, line, column)
        if found is None or not found.symbols:
            return None
        return [_location(span) for span in definitions(found)]

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[".", '"']))
    def completion(ls: CardrulesServer, params: types.CompletionParams) -> types.CompletionList | None:
        index = ls.index_for(params.text_document.uri) or SymbolIndex()
        at = _server_position(ls, params.text_document.uri, params.position)
        if at is None:
            return None
        text, line, column = at
        lines = text.split("\n")
        if _path(params.text_document.uri) in ls.decks and 0 <= line < len(lines):
            entries, start = deck_completions(index, lines[line], column)
        else:
            entries, start = completions(index, text, line, column, ls.module_for(params.text_document.uri))
        edit_range = _client_range(text, line, start, column)
        return types.CompletionList(is_incomplete=False, items=[_item(e, edit_range) for e in entries])

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: CardrulesServer, params: types.DocumentSymbolParams) -> list[types.SymbolInformation]:
        index = ls.index_for(params.text_document.uri)
        path = _path(params.text_document.uri)
        if index is None or path is None:
            return []
        return [_symbol(s) for s in document_symbols(index, str(path))]

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    async def formatting(ls: CardrulesServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        uri = params.text_document.uri
        path = _path(uri)
        if path is None or path.suffix not in CODE_SUFFIXES:
            return None
        text = _text(ls, uri)
        if text is None:
            return None
        try:
            formatted = await asyncio.to_thread(format_text, text, str(path))
        except CardrulesError:  # it does not parse: the diagnostics say why
            return None
        if formatted == text:
            return []
        lines = text.split("\n")
        end = types.Position(line=len(lines) - 1, character=len(lines[-1].encode("utf-16-le")) // 2)
        return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end),
                               new_text=formatted)]

    return server


def _item(entry: Entry, edit_range: types.Range) -> types.CompletionItem:
    return types.CompletionItem(label=entry.label, kind=_COMPLETION_KINDS.get(entry.kind), detail=entry.detail or None,
                                label_details=types.CompletionItemLabelDetails(description=entry.kind),
                                text_edit=types.TextEdit(range=edit_range, new_text=entry.label))


def _symbol(symbol: Symbol) -> types.SymbolInformation:
    return types.SymbolInformation(name=symbol.name, kind=_SYMBOL_KINDS.get(symbol.kind, types.SymbolKind.Object),
                                   location=_location(symbol.span), container_name=symbol.kind)


def serve(check: Check, quick: QuickCheck | None = None) -> None:
    """Run the language server on stdin and stdout until the editor ends it."""
    logging.basicConfig(level=logging.WARNING, format="cardrules lsp: %(message)s")
    build_server(check, quick=quick).start_io()
