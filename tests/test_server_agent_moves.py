"""Issue 35.9 through the table's websocket: before an agent takes a decision every page is sent
a "thinking" message, and after each of its decisions a state whose `last_move` names the move
(as the seat may read it) and the cards it touched that the seat sees: the option's cards and
the cards that changed zone. A card hidden from a seat is never among them."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette", reason="cardrules serve needs the extra 'serve': pip install 'cardrules[serve]'")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx (the extra 'test')")

with warnings.catch_warnings():  # (starlette 1.x prefers httpx2 to httpx for its TestClient)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from interpreter import load  # noqa: E402
from interpreter.agents import make_agent  # noqa: E402
from interpreter.server import TableSession, create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_pages_hear_that_an_agent_thinks_before_each_of_its_moves_then_see_what_it_touched():
    session = TableSession(load("lanes"), 3, ["human", "random"], [None, make_agent("random", seed=1)])
    with TestClient(create_app(session)) as client, \
            client.websocket_connect(f"/ws?seat=1&token={session.tokens[1]}") as ws:
        state = ws.receive_json()
        assert state["version"] == 0 and state["decision"]["yours"]
        ws.send_json({"type": "move", "decision": 0, "option": 0})
        messages = [ws.receive_json()]
        while messages[-1]["type"] != "state" or not messages[-1]["decision"]["yours"]:
            messages.append(ws.receive_json())
    kinds = [(m["type"], m["version"]) for m in messages]
    assert kinds == [("state", 1), ("thinking", 1), ("state", 2), ("thinking", 2), ("state", 3),
                     ("thinking", 3), ("state", 4)]
    assert state["last_move"] is None
    assert messages[0]["thinking"] and messages[0]["thinking_seat"] == 2
    assert messages[0]["last_move"] == {"number": 0, "seat": 1, "name": "human",
                                        "text": "you choose: Ashen Wyvern 3/3", "cards": [27]}
    assert [(m["seat"], m["name"]) for m in messages if m["type"] == "thinking"] == [(2, "random")] * 3
    moves = [m["last_move"] for m in messages[2::2]]
    assert moves == [
        {"number": 1, "seat": 2, "name": "random", "text": "P2 chooses: Warhorn Charge", "cards": [51]},
        # the drafted card, then what followed: P1's last card drafted for them, a new round dealt
        {"number": 2, "seat": 2, "name": "random", "text": "P2 chooses: Moth Scout 1/1",
         "cards": [12, 4, 47, 20, 48, 18]},
        {"number": 3, "seat": 2, "name": "random", "text": "P2 chooses: Harbor Pike 2/2", "cards": [20]}]
    taken = [e["option"] for e in session.game.log if e["type"] == "decision"]
    assert taken == ["c27", "c51", "c12", "c20"]  # (each move's own card comes first)
    assert [m["thinking"] for m in messages[2::2]] == [True, True, False]


def test_a_move_about_cards_a_seat_cannot_see_touches_nothing_on_its_table():
    session = TableSession(load("initiative"), 3, ["human", "human"], [None, None])
    option = session.game.pending[0]
    assert (session.game.pending.seat, option.id) == (1, "c6+c15")  # two cards from P1's hand
    assert "last_move" in session.state(1) and session.state(1)["last_move"] is None
    session.submit(1, {"type": "move", "decision": 0, "option": 0})
    assert session.state(1)["last_move"] == {"number": 0, "seat": 1, "name": "human",
                                             "text": "you choose: Stab + Muster Army", "cards": [6, 15]}
    assert session.state(2)["last_move"] == {"number": 0, "seat": 1, "name": "human",
                                             "text": "P1 chooses (hidden)", "cards": []}
