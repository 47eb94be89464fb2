"""The browser table and replay viewer (`cardrules serve`; the extra `serve`: Starlette and uvicorn).

The server keeps the game; each page (one per seat, `/?seat=N`) is sent that seat's observation
only, drawn generically from the ruleset's zone declarations; moves come back over a websocket
and are checked before they touch the game. A replay is re-run from its log and shown step by
step from any seat or in full. docs/playtest.md says how to use it.

    from interpreter.server import TableSession, create_app
    app = create_app(TableSession(rules, seed, ["human", "random"], [None, make_agent("random")]))

`create_app` and the servers need the extra (`interpreter.server.app`); the sessions do not.
"""

from __future__ import annotations

from .replay import ReplayError, ReplaySession
from .table import MoveRefused, TableSession

__all__ = ["MoveRefused", "ReplayError", "ReplaySession", "TableSession", "create_app"]


def create_app(session):
    """The Starlette application for a TableSession or a ReplaySession (needs the extra 'serve')."""
    from .app import create_app as make

    return make(session)
