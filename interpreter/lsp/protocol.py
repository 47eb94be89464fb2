"""The JSON-RPC protocol of the language server: pygls's, answering every request.

pygls turns each message into its typed form while it reads it (`structure_message`); when a
request's params do not fit its method (`{"textDocument": 5}` for a hover), it logs the error and
shows a message, but never answers the request, so the editor waits for ever. Here such a request
is answered at once with a JSON-RPC error carrying its id: InvalidParams (-32602), saying which
params are wrong, or InternalError (-32603) when the message could not be read for another
reason. A notification has no answer to give; it is dropped with the log line pygls writes.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol

log = logging.getLogger("cardrules.lsp")

MAX_PROBLEMS = 5  # wrong params named in one error message
_CAMEL = re.compile(r"(?<=[a-z])_([a-z])")


class _Answered:
    """What a request already answered with an error becomes: `handle_message` drops it."""

    jsonrpc = "answered"


ANSWERED = _Answered()


def _problems(err: BaseException | None) -> str:
    """The wrong params of a request in words ('invalid value for type, expected int @
    $.params.position.line'), from the cattrs error behind pygls's."""
    if err is None:
        return ""
    try:
        from cattrs import transform_error

        # (the path as the editor wrote it: textDocument, not the Python field text_document)
        found = [_CAMEL.sub(lambda m: m.group(1).upper(), p.replace("$.", "", 1)) for p in transform_error(err)]
    except Exception:  # (not a cattrs error, or another cattrs): the error's own words
        return str(err)
    more = f"; and {len(found) - MAX_PROBLEMS} more" if len(found) > MAX_PROBLEMS else ""
    return "; ".join(found[:MAX_PROBLEMS]) + more


class AnsweringProtocol(LanguageServerProtocol):
    """pygls's protocol, except that a request whose params cannot be read is answered."""

    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except JsonRpcException as err:
            if not (isinstance(data, dict) and "id" in data and "method" in data):
                raise  # a notification or a response: nothing to answer
            method = data.get("method")
            if isinstance(err, JsonRpcInvalidParams):
                detail = _problems(err.__cause__)
                answer: JsonRpcException = JsonRpcInvalidParams(
                    f"invalid params for {method}" + (f": {detail}" if detail else ""))
            else:
                answer = JsonRpcInternalError(f"cannot read the request {method}: {_problems(err.__cause__)}")
            try:
                self._send_response(data["id"], error=answer.to_response_error())
            except Exception as failed:  # (an id no response can carry): as pygls would
                log.error("cannot answer request %r: %s", data.get("id"), failed)
                raise err from None
            return ANSWERED

    def handle_message(self, message) -> None:
        if message is ANSWERED:
            return
        super().handle_message(message)
