"""`cardrules serve` through real websockets and HTTP (Starlette's TestClient, and a really started
server for who may connect): each page gets its seat's observation only, and only with its seat's
token; a foreign Origin or (on loopback) a foreign Host is refused; bad input (a move for another
seat, a stale decision, a malformed or too deeply nested message, a socket closed mid-game) is
refused with a clear message and the game is unchanged; replays step by step; the command binds
to 127.0.0.1 and prints each human seat's address."""

from __future__ import annotations

import http.client
import json
import random
import re
import socket
import urllib.request
import warnings

import pytest

pytest.importorskip("starlette", reason="cardrules serve needs the extra 'serve': pip install 'cardrules[serve]'")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx (the extra 'test')")
pytest.importorskip("websockets", reason="the access tests need a real websocket client (websockets)")

with warnings.catch_warnings():  # (starlette 1.x prefers httpx2 to httpx for its TestClient)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from servecli import ServeCommand  # noqa: E402
from tablecheck import card_ids_in_state, hidden_counts, unseen_ids  # noqa: E402
from websockets.exceptions import InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from interpreter import load  # noqa: E402
from interpreter.agents import make_agent  # noqa: E402
from interpreter.logs import write_log  # noqa: E402
from interpreter.server import MoveRefused, ReplayError, ReplaySession, TableSession, create_app  # noqa: E402
from interpreter.server.app import ServerThread  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # (starlette: httpx -> httpx2)


@pytest.fixture(scope="module")
def initiative():
    return load("initiative")


def two_humans(rules, seed: int = 3) -> TableSession:
    return TableSession(rules, seed, ["human", "human"], [None, None])


def seat_ws(session: TableSession, seat: int) -> str:
    """The websocket path of a seat's page, with the seat's token."""
    return f"/ws?seat={seat}&token={session.tokens[seat]}"


def snapshot(session: TableSession) -> tuple:
    """Everything a refused message must leave as it was."""
    game = session.game
    return session.version, len(game.log), json.dumps(game.to_json(), sort_keys=True, default=str)


def move(state: dict, k: int = 0, **changes) -> dict:
    return {"type": "move", "decision": state["version"], "option": state["decision"]["moves"][k]["option"], **changes}


def test_each_page_gets_its_own_seat_only(initiative):
    session = two_humans(initiative)
    with TestClient(create_app(session)) as client, \
            client.websocket_connect(seat_ws(session, 1)) as one, client.websocket_connect(seat_ws(session, 2)) as two:
        first, second = one.receive_json(), two.receive_json()
        assert (first["seat"], second["seat"]) == (1, 2)
        game = session.game
        for seat, state in ((1, first), (2, second)):
            assert not unseen_ids(card_ids_in_state(state), game, seat)
            piles = {(z["owner"], z["zone"]): z["rows"][0]["count"] for z in state["zones"]
                     if z["rows"][0]["kind"] == "hidden"}
            assert piles == hidden_counts(game, seat)  # face down, with the true counts
        # the deciding seat has moves; the other sees whose decision it is, without its options
        decider = game.pending.seat
        mine, theirs = (first, second) if decider == 1 else (second, first)
        assert mine["decision"]["yours"] and mine["decision"]["moves"]
        assert theirs["decision"] == {"player": decider, "prompt": theirs["decision"]["prompt"], "yours": False,
                                      "moves": []}


def test_a_move_for_another_seat_is_refused(initiative):
    session = two_humans(initiative)
    with TestClient(create_app(session)) as client, client.websocket_connect(seat_ws(session, 1)) as one, \
            client.websocket_connect(seat_ws(session, 2)) as two:
        state1, state2 = one.receive_json(), two.receive_json()
        decider = session.game.pending.seat
        waiting_ws, waiting = (two, state2) if decider == 1 else (one, state1)
        deciding = state1 if decider == 1 else state2
        before = snapshot(session)
        # the waiting seat answers the other's decision with the current number
        waiting_ws.send_json({"type": "move", "decision": waiting["version"], "option": 0})
        error = waiting_ws.receive_json()
        assert error["type"] == "error" and error["code"] == "not-your-decision"
        assert f"P{decider}'s decision" in error["message"]
        # a page naming another seat in its move
        other = 3 - decider
        deciding_ws = one if decider == 1 else two
        deciding_ws.send_json(move(deciding, seat=other))
        error = deciding_ws.receive_json()
        assert error["code"] == "other-seat" and f"plays P{decider}" in error["message"]
        assert snapshot(session) == before


def test_an_agents_seat_cannot_be_moved_even_by_the_session(initiative):
    session = TableSession(initiative, 4, ["human", "random"], [None, make_agent("random", seed=1)])
    assert list(session.tokens) == [1]  # no page may sit at an agent's seat: it has no token
    before = snapshot(session)
    with pytest.raises(MoveRefused) as refused:
        session.submit(2, {"type": "move", "decision": session.version, "option": 0})
    assert refused.value.code == "other-seat" and "played by random" in refused.value.message
    assert snapshot(session) == before


def test_a_stale_decision_is_refused(initiative):
    session = TableSession(initiative, 5, ["human", "random"], [None, make_agent("random", seed=2)])
    with TestClient(create_app(session)) as client, client.websocket_connect(seat_ws(session, 1)) as ws:
        state = ws.receive_json()
        old = state
        ws.send_json(move(state))
        # until the agent has played ("thinking" before each of its moves, a state after each)
        while state["type"] != "state" or state["version"] == old["version"] or state["thinking"]:
            state = ws.receive_json()
        assert state["decision"]["yours"]
        before = snapshot(session)
        ws.send_json(move(old))  # the same answer again, to the decision already taken
        error = ws.receive_json()
        assert error["code"] == "stale"
        assert f"decision {old['version']} is no longer current" in error["message"]
        assert f"decision {state['version']}" in error["message"]
        assert snapshot(session) == before
        ws.send_json(move(state))  # the current one is taken
        assert ws.receive_json()["version"] == state["version"] + 1


@pytest.mark.parametrize("text, code, says", [
    ("{not json", "malformed", "not JSON"),
    ("[1, 2]", "malformed", "a message is a JSON object"),
    ('{"type": "shout"}', "malformed", "unknown message type 'shout'"),
    ('{"type": "move", "option": 0}', "malformed", "'decision' must be a whole number, not None"),
    ('{"type": "move", "decision": 0, "option": "first"}', "malformed", "'option' must be a whole number"),
    ('{"type": "move", "decision": 0, "option": true}', "malformed", "'option' must be a whole number"),
    ('{"type": "move", "decision": 0, "option": 999}', "illegal", "option 999 is not one of the"),
    ('{"type": "move", "decision": 0, "option": -1}', "illegal", "option -1 is not one of the"),
    ("[" * 100_000 + "]" * 100_000, "malformed", "nested too deeply"),
    ('{"a": ' * 100_000 + "1" + "}" * 100_000, "malformed", "nested too deeply"),
], ids=lambda value: value[:40] if isinstance(value, str) else value)
def test_malformed_messages_are_refused(initiative, text, code, says):
    session = two_humans(initiative)
    decider = session.game.pending.seat
    with TestClient(create_app(session)) as client, client.websocket_connect(seat_ws(session, decider)) as ws:
        ws.receive_json()
        before = snapshot(session)
        ws.send_text(text)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == code
        assert says in error["message"]
        assert snapshot(session) == before
        ws.send_text(text)  # the connection stays usable: refused again, the same way
        assert ws.receive_json()["code"] == code


def test_a_binary_frame_is_refused_and_the_connection_stays(initiative):
    session = two_humans(initiative)
    decider = session.game.pending.seat
    with TestClient(create_app(session)) as client, client.websocket_connect(seat_ws(session, decider)) as ws:
        state = ws.receive_json()
        before = snapshot(session)
        ws.send_bytes(json.dumps(move(state)).encode())
        error = ws.receive_json()
        assert error["code"] == "malformed" and "send a text frame" in error["message"]
        assert snapshot(session) == before
        ws.send_json(move(state))  # the same move as text is taken
        assert ws.receive_json()["version"] == 1


def test_a_socket_closed_mid_game_leaves_the_game_to_go_on(initiative):
    session = two_humans(initiative)
    decider = session.game.pending.seat
    other = 3 - decider
    with TestClient(create_app(session)) as client:
        with client.websocket_connect(seat_ws(session, other)) as watcher:
            watcher.receive_json()
        with client.websocket_connect(seat_ws(session, decider)) as ws:
            state = ws.receive_json()
        # both closed; nothing changed; the decider comes back to the same decision
        before = snapshot(session)
        assert before[0] == 0 and not session.game.is_over
        with client.websocket_connect(seat_ws(session, decider)) as ws, \
                client.websocket_connect(seat_ws(session, other)) as watcher:
            again = ws.receive_json()
            watcher.receive_json()
            assert again["version"] == state["version"] and again["decision"] == state["decision"]
            watcher.close()  # one page goes away mid-game: the other's move is taken
            ws.send_json(move(again))
            assert ws.receive_json()["version"] == 1
        assert session.version == 1


def play_through_sockets(rules, seed: int, pick_seed: int) -> tuple[TableSession, list[str]]:
    """A whole game of two humans through their sockets, each move picked at random."""
    session = two_humans(rules, seed)
    pick = random.Random(pick_seed)
    ids = []
    with TestClient(create_app(session)) as client, client.websocket_connect(seat_ws(session, 1)) as one, \
            client.websocket_connect(seat_ws(session, 2)) as two:
        pages = {1: one, 2: two}
        states = {1: one.receive_json(), 2: two.receive_json()}
        while states[1]["result"] is None:
            seat = session.game.pending.seat
            state = states[seat]
            assert state["decision"]["yours"]
            for s in (1, 2):
                assert not unseen_ids(card_ids_in_state(states[s]), session.game, s)
            chosen = pick.choice(state["decision"]["moves"])
            ids.append(session.game.pending[chosen["option"]].id)
            pages[seat].send_json({"type": "move", "decision": state["version"], "option": chosen["option"]})
            states = {1: one.receive_json(), 2: two.receive_json()}
    return session, ids


def test_a_game_through_the_sockets_is_the_game_of_those_moves(initiative):
    session, ids = play_through_sockets(initiative, seed=11, pick_seed=1)
    direct = initiative.new_game(seed=11)
    for option_id in ids:
        direct.apply(option_id)
    assert direct.is_over and direct.result == session.game.result
    assert direct.log == session.game.log
    final = session.state(1)
    assert final["result"] == direct.result.observed() and final["result_text"].startswith(("P1 wins", "P2 wins", "draw"))
    assert final["log"][-1].startswith("game over: ")


# ---------------------------------------------------------------- replays
@pytest.fixture(scope="module")
def logged(tmp_path_factory, initiative):
    session, _ids = play_through_sockets(initiative, seed=12, pick_seed=2)
    path = tmp_path_factory.mktemp("logs") / "game.jsonl"
    write_log(path, session.game, ["human", "human"])
    return path, session.game


def replay_of(path):
    from interpreter.cli.replay import read_log

    header, entries = read_log(str(path))
    return ReplaySession(load(header["ruleset"], header.get("options")), header, entries, str(path))


def test_a_replay_has_a_step_per_decision_and_shows_the_decision_taken(logged):
    path, game = logged
    replay = replay_of(path)
    decisions = [e for e in game.log if e["type"] == "decision"]
    assert len(replay.steps) == len(decisions) + 1
    for k in (0, len(decisions) // 2, len(decisions) - 1):
        full = replay.state(k, "full")
        entry = decisions[k]
        assert full["taken"] == f"P{entry['player']} chooses: {entry['label']}"
        assert replay.state(k, entry["player"])["taken"] == f"you choose: {entry['label']}"
    last = replay.state(len(replay.steps) - 1, 1)
    assert last["taken"] is None and last["result"] == game.result.observed()


def test_replay_views_hide_what_the_seat_could_not_see_and_the_full_view_shows_all(logged):
    path, _game = logged
    replay = replay_of(path)
    masked = 0
    for k in range(0, len(replay.steps), 3):
        step_game = replay.steps[k]["game"]
        full = replay.state(k, "full")
        assert card_ids_in_state(full) == set(step_game.state.cards)  # every card, face up
        for seat in (1, 2):
            state = replay.state(k, seat)
            assert not unseen_ids(card_ids_in_state(state), step_game, seat)
            masked += state["taken"] is not None and "(hidden)" in state["taken"]
    assert masked > 0  # the other seat's secret picks are shown as hidden


def test_the_replay_endpoint_steps_and_refuses_bad_requests(logged):
    path, _game = logged
    replay = replay_of(path)
    with TestClient(create_app(replay)) as client:
        assert client.get("/api/info").json()["steps"] == len(replay.steps)
        forward = client.get("/api/replay?step=2&view=2").json()
        back = client.get("/api/replay?step=1&view=2").json()
        assert (forward["step"], back["step"], forward["seat"]) == (2, 1, 2)
        assert back == client.get("/api/replay?step=1&view=2").json()  # stepping back gives the same view
        bad = client.get(f"/api/replay?step={len(replay.steps)}&view=full")
        assert bad.status_code == 400 and f"steps are 0 to {len(replay.steps) - 1}" in bad.json()["message"]
        bad = client.get("/api/replay?step=0&view=9")
        assert bad.status_code == 400 and "a seat 1 to 2, or full" in bad.json()["message"]


def test_the_command_reads_the_log_it_is_given(logged):
    from interpreter.cli.serve import replay_session

    path, game = logged
    replay = replay_session(str(path))
    assert replay.rules.name == "initiative" and replay.names == ["human", "human"]
    assert replay.state(len(replay.steps) - 1, "full")["result"] == game.result.observed()
    assert all(not replay.state(k, 1)["decision"]["yours"] for k in (0, 1))  # a replay takes no moves


def test_a_log_that_does_not_fit_is_located(logged, tmp_path):
    path, _game = logged
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if json.loads(line).get("type") == "decision")
    wrong = json.loads(lines[number])
    wrong["option"] = "c9999"
    lines[number] = json.dumps(wrong)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReplayError) as caught:
        replay_of(bad)
    assert f"bad.jsonl:{number + 1}:1" in str(caught.value) and "no option 'c9999'" in str(caught.value)


# ---------------------------------------------------------------- the command
def test_serve_usage_errors():
    from interpreter.cli.main import main

    assert main(["serve"]) == 2
    assert main(["serve", "initiative", "--replay", "x.jsonl", "--no-browser"]) == 2
    assert main(["serve", "--replay", "x.jsonl", "--seed", "3", "--no-browser"]) == 2
    assert main(["serve", "--replay", "no-such-log.jsonl", "--no-browser"]) == 1


def test_serve_binds_to_localhost_and_prints_each_human_seats_address():
    served = ServeCommand("initiative", "--seed", "1", "--no-browser", "--port", "0")
    try:
        assert served.read_until("^Initiative").startswith("Initiative: seed 1, players P1 human, P2 random")
        url = served.read_until("^serving on ").split()[2]
        assert url.startswith("http://127.0.0.1:")
        seat_url = served.seat_urls(1)[1]
        assert re.fullmatch(re.escape(url) + r"\?seat=1&token=[A-Za-z0-9_-]{22,}", seat_url), seat_url
        assert not any("protected only by" in line for line in served.lines)  # (loopback: no warning)
        with urllib.request.urlopen(url + "api/info", timeout=5) as answer:
            info = json.load(answer)
        assert info["humans"] == [1] and info["seats"] == ["human", "random"]
        with urllib.request.urlopen(seat_url, timeout=5) as answer:
            assert b'<script src="/static/table.js">' in answer.read()
        query = seat_url.split("?", 1)[1]
        with connect(f"ws://{url[len('http://'):]}ws?{query}", proxy=None, origin=url.rstrip("/")) as page:
            assert json.loads(page.recv(timeout=10))["seat"] == 1  # the printed address sits at P1
        with pytest.raises(InvalidStatus):  # the same without its token: nothing
            connect(f"ws://{url[len('http://'):]}ws?seat=1", proxy=None, open_timeout=10)
    finally:
        served.stop()


def test_serve_beyond_loopback_warns_that_only_the_tokens_protect_the_seats():
    served = ServeCommand("initiative", "--players", "human,human", "--no-browser", "--port", "0", "--host", "0.0.0.0")
    try:
        served.read_until("^serving on every address")
        warning = served.read_until("protected only by")
        assert warning == ("warning: listening beyond this machine (--host 0.0.0.0): the seats are protected only "
                           "by their tokens; give each player only their own seat's address")
        urls = served.seat_urls(2)
        assert urls[1].startswith("http://127.0.0.1:") and "?seat=1&token=" in urls[1]
        assert urls[2].split("token=")[1] != urls[1].split("token=")[1]
    finally:
        served.stop()


def test_serve_with_no_human_seat_is_a_usage_error(capsys):
    from interpreter.cli.main import main

    assert main(["serve", "initiative", "--players", "random,random", "--no-browser"]) == 2
    assert "no human seat" in capsys.readouterr().err


# ---------------------------------------------------------------- who may connect (a real server)
@pytest.fixture
def served(initiative):
    """A table (P1 human, P2 the random agent) served by uvicorn on 127.0.0.1, any free port."""
    session = TableSession(initiative, 6, ["human", "random"], [None, make_agent("random", seed=3)])
    server = ServerThread(create_app(session)).start()
    yield session, server
    server.stop()


def ws_url(server, query: str) -> str:
    return server.url.replace("http://", "ws://") + "ws" + (f"?{query}" if query else "")


def refused(uri: str, **options) -> int:
    """The HTTP status with which the server refuses the handshake (fails if it accepts)."""
    try:
        page = connect(uri, proxy=None, open_timeout=10, **options)
    except InvalidStatus as refusal:
        return refusal.response.status_code
    with page:
        try:
            received = page.recv(timeout=2)
        except Exception as err:  # noqa: BLE001 (closed without a word: still accepted first)
            received = repr(err)
    raise AssertionError(f"the handshake was accepted and the socket received {received[:200]!r}")


@pytest.mark.parametrize("query", [
    "", "seat=1", "seat=1&token=", "seat=1&token=wrong", "seat=1&token={t1}x", "seat=2", "seat=2&token={t1}",
    "seat=7&token={t1}", "seat=x&token={t1}", "token=wrong",
])
def test_a_socket_without_its_seats_token_gets_nothing(served, query):
    session, server = served
    before = snapshot(session)
    assert refused(ws_url(server, query.format(t1=session.tokens[1]))) == 403
    assert snapshot(session) == before


def test_each_human_seat_has_its_own_token(initiative):
    session = two_humans(initiative)
    server = ServerThread(create_app(session)).start()
    try:
        assert set(session.tokens) == {1, 2} and session.tokens[1] != session.tokens[2]
        assert refused(ws_url(server, f"seat=2&token={session.tokens[1]}")) == 403
        for seat in (1, 2):
            with connect(ws_url(server, f"seat={seat}&token={session.tokens[seat]}"), proxy=None) as page:
                assert json.loads(page.recv(timeout=10))["seat"] == seat
            with connect(ws_url(server, f"token={session.tokens[seat]}"), proxy=None) as page:
                assert json.loads(page.recv(timeout=10))["seat"] == seat  # the token alone names its seat
        assert server.seat_url(2) == f"{server.url}?seat=2&token={session.tokens[2]}"
    finally:
        server.stop()


@pytest.mark.parametrize("origin", ["http://evil.example", "http://evil.example:{port}", "http://127.0.0.1:1",
                                    "http://localhost:{port}", "null", "file://"])
def test_a_foreign_origin_is_refused(served, origin):
    session, server = served
    port = server.url.rsplit(":", 1)[1].rstrip("/")
    before = snapshot(session)
    assert refused(ws_url(server, f"seat=1&token={session.tokens[1]}"), origin=origin.format(port=port)) == 403
    assert snapshot(session) == before


def test_the_servers_own_origin_or_none_is_served(served):
    session, server = served
    for origin in (server.url.rstrip("/"), None):  # the page itself; a non-browser client
        with connect(ws_url(server, f"seat=1&token={session.tokens[1]}"), proxy=None, origin=origin) as page:
            state = json.loads(page.recv(timeout=10))
            assert state["type"] == "state" and state["seat"] == 1


def http_status(server, path: str, host: str) -> int:
    address = server.url[len("http://"):].rstrip("/")
    connection = http.client.HTTPConnection(address, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host})
        return connection.getresponse().status
    finally:
        connection.close()


def test_on_loopback_a_foreign_host_is_refused(served):
    """DNS rebinding: evil.example made to resolve to 127.0.0.1 is the page's own origin, so the
    Origin check passes; the Host header names it, and a loopback server refuses it."""
    session, server = served
    port = int(server.url.rsplit(":", 1)[1].rstrip("/"))
    for path in ("/", "/api/info", "/static/table.js"):
        assert http_status(server, path, f"evil.example:{port}") == 400
        assert http_status(server, path, "127.0.0.1:1") == 400  # the server's own port only
        assert http_status(server, path, f"localhost:{port}") == 200
        assert http_status(server, path, f"127.0.0.1:{port}") == 200
    before = snapshot(session)
    rebound = socket.create_connection(("127.0.0.1", port))
    with pytest.raises(InvalidStatus) as refusal:
        connect(f"ws://evil.example:{port}/ws?seat=1&token={session.tokens[1]}", sock=rebound, proxy=None,
                origin=f"http://evil.example:{port}")
    assert refusal.value.response.status_code == 403
    assert snapshot(session) == before
