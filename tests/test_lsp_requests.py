"""`cardrules lsp` answers every request (issue 29.11): driven over stdio by raw JSON-RPC, as a
careless or hostile editor could write it, the real server process answers a request whose params
do not fit its method with an InvalidParams error carrying the request's id, a well-formed request
about a document it never saw with an empty answer, and goes on serving."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the extra 'lsp'")

from lsp_session import server_command  # noqa: E402

ANSWER_WITHIN = 5.0  # seconds for an answer once the server is up
INVALID_PARAMS = -32602


class RawClient:
    """The server as a subprocess; messages framed by hand, read by a thread into a queue."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(server_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=root, env=dict(os.environ))
        self.messages: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line in (b"\r\n", b"\n"):
                    break
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def answer(self, id_: int, timeout: float = ANSWER_WITHIN) -> dict:
        """The response to request `id_` (notifications such as diagnostics skipped)."""
        while True:
            try:
                message = self.messages.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no answer to request {id_} within {timeout} s") from None
            if message.get("id") == id_ and "method" not in message:
                return message

    def request(self, id_: int, method: str, params, timeout: float = ANSWER_WITHIN) -> dict:
        self.send({"id": id_, "method": method, "params": params})
        return self.answer(id_, timeout)

    def close(self) -> None:
        try:
            self.request(999, "shutdown", None)
            self.send({"method": "exit"})
            self.process.wait(5)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("lsp-raw")
    client = RawClient(root)
    started = client.request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}}, timeout=60)
    assert started["result"]["serverInfo"]["name"] == "cardrules"
    client.send({"method": "initialized", "params": {}})
    yield client, root
    client.close()


@pytest.mark.parametrize("id_, method, params, message", [
    (10, "textDocument/hover", {"textDocument": 5},
     "invalid params for textDocument/hover: invalid value for type, expected str @ params.textDocument.uri; "
     "required field missing @ params.position"),
    (11, "textDocument/hover", None, "invalid params for textDocument/hover: invalid value for type, "
                                     "expected HoverParams @ params"),
    (12, "textDocument/completion", {"textDocument": {"uri": "file:///x.cards"}, "position": {"line": 0, "character": "x"}},
     "invalid params for textDocument/completion: invalid value for type, expected int @ params.position.character"),
    (13, "textDocument/formatting", {"textDocument": {"uri": "file:///x.cards"}, "options": []},
     "invalid params for textDocument/formatting: invalid value for type, expected int @ params.options.tabSize; "
     "invalid value for type, expected bool @ params.options.insertSpaces"),
])
def test_a_request_with_invalid_params_is_answered_with_an_error(server, id_, method, params, message):
    client, _root = server
    found = client.request(id_, method, params)
    assert found == {"jsonrpc": "2.0", "id": id_, "error": {"code": INVALID_PARAMS, "message": message}}


@pytest.mark.parametrize("id_, method, extra, result", [
    (20, "textDocument/hover", {"position": {"line": 0, "character": 0}}, None),
    (21, "textDocument/definition", {"position": {"line": 0, "character": 0}}, None),
    (22, "textDocument/completion", {"position": {"line": 3, "character": 2}}, None),
    (23, "textDocument/formatting", {"options": {"tabSize": 2, "insertSpaces": True}}, None),
    (24, "textDocument/documentSymbol", {}, []),
])
def test_a_request_about_a_document_never_opened_is_answered(server, id_, method, extra, result):
    client, root = server
    never = (root / "never-opened.cards").resolve().as_uri()
    found = client.request(id_, method, {"textDocument": {"uri": never}, **extra})
    assert found == {"jsonrpc": "2.0", "id": id_, "result": result}


def test_the_server_goes_on_after_bad_requests(server):
    client, root = server
    client.request(30, "textDocument/hover", {"textDocument": 5})
    path = root / "opened.cards"
    text = 'card "A" : thing {\n}\n'
    path.write_text(text, encoding="utf-8")
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": path.resolve().as_uri(), "languageId": "cardrules", "version": 1, "text": text}}})
    found = client.request(31, "textDocument/formatting", {"textDocument": {"uri": path.resolve().as_uri()},
                                                           "options": {"tabSize": 2, "insertSpaces": True}})
    assert found["id"] == 31 and "error" not in found
