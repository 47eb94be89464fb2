"""The web application (Starlette) and its server (uvicorn): the page, its assets, one websocket
per open page for a game at the table, and a JSON endpoint for the steps of a replay.

    GET  /                         the page (static/index.html); it reads ?seat=N&token=T or ?view=full
    GET  /static/...               its script and style sheet, shipped in the package
    GET  /api/info                 {"mode": "table" | "replay", "title", "seats", "humans", ...}
    WS   /ws?seat=N&token=T        a table: the seat's state after every change, "thinking" before an
                                   agent's decision; moves in
    GET  /api/replay?step=K&view=V a replay: the state at step K (from 0; the page's address and
                                   counter count from 1) from seat V (a number) or "full"

Who may connect: a table's socket needs its human seat's token (`TableSession.tokens`, printed
in the seat's address, `seat_urls`); an agent's seat has none, so no page sees it while the game
runs. A browser's socket must come from the server's own page (its Origin header names the
host:port its Host header names; a client that sends no Origin is not a browser page and needs
only the token). A connection that arrives at a loopback address must name a loopback host and
the server's port (DNS rebinding: a foreign name made to resolve to 127.0.0.1 is refused, pages
and sockets alike). A refused handshake is closed before it is accepted (HTTP 403) and receives
nothing; a refused page request gets 400.

A refused message is answered on its socket with `{"type": "error", "code", "message"}`; a
socket that closes is forgotten, and the game goes on for the others (the seat's page may
connect again and gets the current state).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

try:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.datastructures import Headers
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.types import ASGIApp, Receive, Scope, Send
    from starlette.websockets import WebSocket, WebSocketClose, WebSocketDisconnect
except ImportError as err:  # (a module set to None in sys.modules raises ImportError too)
    raise ImportError("cardrules serve needs the extra 'serve': pip install 'cardrules[serve]'") from err

from .eventlog import FULL
from .replay import ReplaySession
from .table import MOVE_SHAPE, MoveRefused, TableSession

STATIC = Path(__file__).resolve().parent / "static"
POLICY_VIOLATION = 1008  # the websocket close code for a connection the server will not serve


class Hub:
    """The open sockets of a table, by seat, and the lock that orders every change of the game."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.sockets: dict[WebSocket, int] = {}
        self.lock = asyncio.Lock()

    async def send(self, ws: WebSocket, data: dict) -> bool:
        try:
            await ws.send_text(json.dumps(data, ensure_ascii=False))
            return True
        except Exception:  # (the page went away mid-send: forget it, the game goes on)
            self.sockets.pop(ws, None)
            return False

    async def broadcast(self) -> None:
        for ws, seat in list(self.sockets.items()):
            await self.send(ws, self.session.state(seat))

    async def run_agents(self) -> None:
        """Let the agents play up to the next human decision, one decision at a time (off the
        event loop): before each, every page is told that the agent is thinking; after each, it
        gets the new state (with the cards the move touched). Called with the lock held."""
        while self.session.waiting_for_agent():
            message = self.session.thinking_message()
            for ws in list(self.sockets):
                await self.send(ws, message)
            await run_in_threadpool(self.session.advance, 1)
            await self.broadcast()


def _seat_of(text: str | None, count: int) -> int | None:
    try:
        seat = int(text) if text is not None else None
    except ValueError:
        return None
    return seat if seat is not None and 1 <= seat <= count else None


LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 with or without brackets) is this machine only."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def _host_and_port(authority: str | None, default_port: int) -> tuple[str, int] | None:
    """('host', port) of a Host header or an Origin's authority; None if it does not parse."""
    if not authority:
        return None
    try:
        parts = urlsplit("//" + authority)
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.path:
        return None
    return parts.hostname.lower(), port if port is not None else default_port


def _default_port(scope: Scope) -> int:
    return 443 if scope.get("scheme") in ("https", "wss") else 80


def foreign_origin(scope: Scope) -> str | None:
    """Why a websocket handshake comes from another site's page (None: it does not). A browser
    always sends Origin; it must name the host:port that the Host header names, so that no other
    page the user visits can read a seat or play its moves. No Origin: not a browser page."""
    headers = Headers(scope=scope)
    origin = headers.get("origin")
    if origin is None:
        return None
    own = _host_and_port(headers.get("host"), _default_port(scope))
    try:
        parts = urlsplit(origin)
    except ValueError:
        parts = None
    theirs = None  # ("null", file://, anything not a web page's origin: never this server's)
    if parts is not None and parts.scheme in ("http", "https"):
        theirs = _host_and_port(parts.netloc, 443 if parts.scheme == "https" else 80)
    return None if own is not None and theirs == own else f"Origin {origin!r} is not this server's own page"


def foreign_host(scope: Scope) -> str | None:
    """Why a request that arrived at a loopback address names a host that is not this machine at
    this server's port (None: it does not). This is what DNS rebinding looks like: a page of
    evil.example whose name now resolves to 127.0.0.1 is its own origin, but its Host header
    still says evil.example."""
    server = scope.get("server")
    if not server or not is_loopback(str(server[0])):
        return None  # (reached on another address: the tokens protect the seats)
    host = Headers(scope=scope).get("host")
    named = _host_and_port(host, _default_port(scope))
    if named is not None and is_loopback(named[0]) and (server[1] is None or named[1] == server[1]):
        return None
    return f"Host {host!r} is not this machine at port {server[1]}"


class LocalGuard:
    """ASGI middleware: refuses a request whose Host is foreign on loopback (`foreign_host`; 400
    for a page, a closed handshake for a socket) and a websocket whose Origin is another site's
    (`foreign_origin`). Starlette's TrustedHostMiddleware takes a fixed list of names and ignores
    the port; this one follows the address each connection arrived at."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            why = foreign_host(scope)
            if why is None and scope["type"] == "websocket":
                why = foreign_origin(scope)
            if why is not None:
                refusal = PlainTextResponse(f"refused: {why}", status_code=400) if scope["type"] == "http" \
                    else WebSocketClose(code=POLICY_VIOLATION)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def seat_for(session: TableSession, seat_text: str | None, token: str | None) -> int | None:
    """The human seat whose token this is (and which `seat_text` names, if given); None for a
    missing or wrong token, an agent's seat, a seat that does not exist."""
    if not token:
        return None
    wanted = _seat_of(seat_text, session.rules.player_count) if seat_text is not None else None
    if seat_text is not None and wanted is None:
        return None
    found = None
    for seat, secret in session.tokens.items():  # (every one compared, in constant time each)
        if hmac.compare_digest(secret.encode(), token.encode()) and (wanted is None or wanted == seat):
            found = seat
    return found


def seat_urls(session: TableSession, base_url: str) -> dict[int, str]:
    """Each human seat's address (`base_url` ends with '/'): the page and its seat's token."""
    return {seat: f"{base_url}?seat={seat}&token={quote(token)}" for seat, token in session.tokens.items()}


def table_routes(session: TableSession) -> list:
    hub = Hub(session)
    count = session.rules.player_count

    async def info(request: Request) -> JSONResponse:
        return JSONResponse({"mode": "table", "title": session.rules.title, "players": count,
                             "seats": session.names, "humans": session.humans})

    async def play(ws: WebSocket) -> None:
        seat = seat_for(session, ws.query_params.get("seat"), ws.query_params.get("token"))
        if seat is None:  # (refused before it is accepted: the page learns nothing, not even why)
            await ws.close(code=POLICY_VIOLATION)
            return
        await ws.accept()
        async with hub.lock:
            hub.sockets[ws] = seat
            await hub.send(ws, session.state(seat))
            await hub.run_agents()
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                text = frame.get("text")
                if text is None:  # (a binary frame)
                    await hub.send(ws, MoveRefused("malformed", f"send a text frame: {MOVE_SHAPE}").to_json())
                    continue
                try:
                    message = json.loads(text)
                except json.JSONDecodeError as err:
                    await hub.send(ws, MoveRefused("malformed", f"not JSON: {err.msg} at column {err.colno}").to_json())
                    continue
                except RecursionError:
                    await hub.send(ws, MoveRefused("malformed", "the message is nested too deeply to read: send "
                                                                f"{MOVE_SHAPE}").to_json())
                    continue
                async with hub.lock:
                    try:
                        session.submit(seat, message)
                    except MoveRefused as refused:
                        await hub.send(ws, refused.to_json())
                        continue
                    await hub.broadcast()
                    await hub.run_agents()
        except WebSocketDisconnect:
            pass
        finally:
            hub.sockets.pop(ws, None)

    return [Route("/api/info", info), WebSocketRoute("/ws", play)]


def replay_routes(session: ReplaySession) -> list:
    count = session.rules.player_count

    async def info(request: Request) -> JSONResponse:
        return JSONResponse({"mode": "replay", "title": session.rules.title, "players": count,
                             "seats": session.names, "humans": [], "steps": len(session.steps)})

    async def step(request: Request) -> JSONResponse:
        view_text = request.query_params.get("view", FULL)
        viewer: Any = FULL if view_text == FULL else _seat_of(view_text, count)
        try:
            k = int(request.query_params.get("step", "0"))
        except ValueError:
            k = -1
        if viewer is None:
            return JSONResponse({"type": "error", "code": "bad-view",
                                 "message": f"no view {view_text!r}: a seat 1 to {count}, or full"}, status_code=400)
        if not 0 <= k < len(session.steps):
            return JSONResponse({"type": "error", "code": "bad-step",
                                 "message": f"no step {request.query_params.get('step')!r}: "
                                            f"steps are 0 to {len(session.steps) - 1}"}, status_code=400)
        return JSONResponse(await run_in_threadpool(session.state, k, viewer))

    return [Route("/api/info", info), Route("/api/replay", step)]


def create_app(session: TableSession | ReplaySession) -> Starlette:
    """The application for a table or a replay."""

    async def page(request: Request) -> FileResponse:
        # (no-referrer: a seat's address carries its token, which no request may pass on)
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    routes = table_routes(session) if isinstance(session, TableSession) else replay_routes(session)
    app = Starlette(routes=[Route("/", page), *routes, Mount("/static", StaticFiles(directory=STATIC), name="static")],
                    middleware=[Middleware(LocalGuard)])
    app.state.session = session
    return app


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: any free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


class ServerThread:
    """The application served by uvicorn in a background thread (for tests and embedding):
    `start()` returns once it accepts connections; `url`; `seat_url(seat)`; `stop()`."""

    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        self.sock = bound_socket(host, port)
        self.url = url_of(self.sock)
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def seat_url(self, seat: int) -> str:
        """A human seat's address, as `cardrules serve` prints it."""
        return seat_urls(self.app.state.session, self.url)[seat]

    def start(self, timeout: float = 10.0) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


EVERY_ADDRESS = ("0.0.0.0", "::", "")


def serve_forever(app: Starlette, host: str, port: int, open_browser: bool, say=print) -> None:
    """Serve until interrupted (Ctrl-C), telling the user the address of each human seat (and
    opening the first), and warning when the server is reachable from other machines."""
    import webbrowser

    session = app.state.session
    sock = bound_socket(host, port)
    url = url_of(sock)
    if host in EVERY_ADDRESS:  # every address of this machine: a LAN player uses one of them
        port = sock.getsockname()[1]
        url = f"http://127.0.0.1:{port}/"
        say(f"serving on every address of this machine, port {port}  (Ctrl-C stops)")
    else:
        say(f"serving on {url}  (Ctrl-C stops)")
    if not is_loopback(host):
        whom = ("the seats are protected only by their tokens; give each player only their own seat's address"
                if isinstance(session, TableSession) else "anyone who can reach this port can watch the replay, "
                                                           "every card face up")
        say(f"warning: listening beyond this machine (--host {host}): {whom}")
    opened = url
    if isinstance(session, TableSession):
        urls = seat_urls(session, url)
        for seat, address in urls.items():
            say(f"P{seat} ({session.names[seat - 1]}): {address}")
        if host in EVERY_ADDRESS:
            say("(from another machine, write this machine's address instead of 127.0.0.1)")
        opened = urls[session.humans[0]]
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(opened,)).start()
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
