"""Cards seen by everyone but their holder (issue 32.1): zones of `visibility: others`, and
`reveal c to PLAYERS`, on the test ruleset tests/data/sharedhands (three hands of `others`
visibility dealt from a shared face-down deck; each turn a hint `reveal c to q`, then a card held
and one played by position):

- its scenarios (tests/data/sharedhands/scenarios: the exact observations of each player);
- the load errors: `others` on a shared zone (located at its visibility), on an attribute (the
  schema), a reveal to something that is not a player (located at the expression), `reveal(c, p)`;
- observations: every player sees the others' hands and not their own; a card revealed to some
  players is shown to them alone, at its place, until it moves; reveals add up, and to every
  player it is a reveal;
- determinization resamples exactly the cards the viewer cannot see (its own hand, the deck) and
  keeps everything else, the viewer's options too;
- nothing leaks to the holder: observations, options and labels, what `cardrules play` prints to
  them, at every decision of random games (with the invariants of tests/helpers/playout.py);
- the browser table shows a partner's cards under the partner and the viewer's own as backs at
  their places (which the moves about them mark); the terminal lists them likewise.
"""

from __future__ import annotations

import io
import json
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest
from playout import playout

from interpreter import load
from interpreter.cli.play import Printer
from interpreter.engine.determinize import hidden_from
from interpreter.errors import CardrulesError, ErrorList, RuntimeRuleError
from interpreter.lang.values import SHOWN
from interpreter.presentation import distinct_moves
from interpreter.presentation.terminal import TerminalTable
from interpreter.server.views import table_view

DATA = Path(__file__).resolve().parent / "data" / "sharedhands"


@pytest.fixture(scope="module")
def rules():
    return load(DATA / "sharedhands.yaml")


def _copy(tmp_path: Path, replace: tuple[str, str] = ("", ""), rules_extra: str = "") -> Path:
    """A copy of sharedhands with one text of its YAML replaced and rule code added."""
    for f in DATA.iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "sharedhands.yaml"
    text = path.read_text(encoding="utf-8")
    assert replace[0] in text
    path.write_text(text.replace(*replace), encoding="utf-8")
    with open(tmp_path / "sharedhands.rules", "a", encoding="utf-8") as out:
        out.write(rules_extra)
    return path


def _at(path: Path, text: str) -> tuple[int, int]:
    """(line, column) of the first `text` in the file, from 1."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text in line:
            return number, line.index(text) + 1
    raise AssertionError(f"{text!r} not in {path}")


def _errors(path: Path) -> list[CardrulesError]:
    with pytest.raises(CardrulesError) as caught:
        load(path)
    err = caught.value
    return list(err.errors) if isinstance(err, ErrorList) else [err]


def _names(view) -> str:
    return json.dumps(view)


def _hidden_names(game, seat: int) -> set[str]:
    """The names of the cards `seat` may not see (sharedhands' names are all different)."""
    return {c.defn.name for c in game.state.cards.values() if not game.visible(c, seat)}


def _named(text: str, names: set[str]) -> set[str]:
    return {n for n in names if f'"{n}"' in text or f" {n}" in text or text.endswith(n)}


# ---------------------------------------------------------------- load errors
def test_others_on_a_shared_zone_is_a_located_error(tmp_path):
    path = _copy(tmp_path, ("deck: {per: shared, ordered: true, visibility: hidden}",
                            "deck: {per: shared, ordered: true, visibility: others}"))
    [err] = _errors(path)
    line, column = _at(path, "deck: {per: shared, ordered: true, visibility: others}")
    where = (line, column + len("deck: {per: shared, ordered: true, visibility: "))
    assert err.span.file.endswith("sharedhands.yaml") and (err.span.line, err.span.column) == where
    assert err.message == ("zone 'deck': visibility others shows its cards to every player but the zone's own, "
                           "and a shared zone has no player of its own")
    assert "per: player" in err.hint


def test_others_is_a_zone_visibility_not_an_attribute_one(tmp_path):
    path = _copy(tmp_path, ("held: {type: card}", "held: {type: card, visibility: others}"))
    [err] = _errors(path)
    assert (err.span.line, "player_attributes.held.visibility") == (_at(path, "held:")[0], err.message.split(":")[0])
    assert "'others' is not one of: public, owner, hidden" in err.message


@pytest.mark.parametrize("target,at,words", [
    ("hand(q)", "hand(q)", "a list of cards, not of players"),
    ("3", "3", "a number, not a player"),
    ("[q, first(deck())]", "first(deck())", "this item is a card, not a player"),
    ('"P2"', '"P2"', "text, not a player"),
])
def test_a_reveal_to_what_is_not_a_player_is_a_located_error(tmp_path, target, at, words):
    extra = f"\nprocedure show(c, q) {{\n  reveal c to {target}\n}}\n"
    path = _copy(tmp_path, rules_extra=extra)
    [err] = _errors(path)
    line, column = _at(path.with_name("sharedhands.rules"), f"reveal c to {target}")
    where = (line, column + len("reveal c to ") + (target.index(at) if at != target else 0))
    assert err.span.file.endswith("sharedhands.rules") and (err.span.line, err.span.column) == where, err
    assert words in err.message and err.message.startswith("'reveal ... to' shows cards to players")
    assert "a list of players" in err.hint


def test_reveal_with_a_comma_is_a_syntax_error_with_the_form_to_write(tmp_path):
    path = _copy(tmp_path, rules_extra="\nprocedure show(c, q) {\n  reveal(c, q)\n}\n")
    [err] = _errors(path)
    line, column = _at(path.with_name("sharedhands.rules"), "reveal(c, q)")
    assert (err.span.line, err.span.column) == (line, column + 8) and "unexpected ','" in err.message
    assert "write `reveal c to p`" in err.hint


def test_a_reveal_to_a_value_that_is_not_a_player_stops_the_game(tmp_path):
    path = _copy(tmp_path, ("  held: {type: card}", "  held: {type: card}\n  seen_by: {type: list}"),
                 "\nprocedure show(p) {\n  reveal first(hand(p)) to p.seen_by\n}\n")
    rules = load(path)
    game = rules.new_game(seed=1)
    p1 = game.players[0]
    game.state.player_attrs[0]["seen_by"] = [p1]
    game.perform("show", p=p1)
    assert [game.visible(c, 1) for c in _hand(game, 1)] == [True, False, False, False]
    game.state.player_attrs[0]["seen_by"] = ["P2"]  # (text, not a player)
    with pytest.raises(RuntimeRuleError, match="'reveal ... to' needs players"):
        game.perform("show", p=p1)


# ---------------------------------------------------------------- the scenarios
SCENARIOS = sorted((DATA / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_the_sharedhands_scenarios_pass(path):
    from interpreter.scenarios import run_scenario

    result = run_scenario(path)
    assert result.passed and result.decisions > 5, result.failures


# ---------------------------------------------------------------- observations
def _hand(game, seat):
    return game.state.zones[("hand", seat, "")]


def _view(card) -> dict:
    return {"id": card.id, "name": card.defn.name, "type": "playing_card", "suit": card.defn.name[-1],
            "rank": int(card.defn.name[:-1])}


def test_each_player_sees_the_others_hands_and_not_their_own(rules):
    game = rules.new_game(seed=1)
    for viewer in (1, 2, 3):
        zones = game.observation(viewer)["zones"]
        for seat in (1, 2, 3):
            expected = {"count": 4} if seat == viewer else [_view(c) for c in _hand(game, seat)]
            assert zones[f"P{seat}"] == {"hand": expected}
        assert zones["shared"] == {"deck": {"count": 6}, "table": []}
        assert [c for c in _hand(game, viewer) if game.visible(c, viewer)] == []
        assert all(game.visible(c, viewer) for seat in (1, 2, 3) if seat != viewer for c in _hand(game, seat))


def test_a_card_revealed_to_a_player_is_shown_to_them_alone_until_it_moves(rules):
    game = rules.new_game(seed=1)
    hint = _hand(game, 2)[1]
    game.apply(f"c{hint.id}")  # P1 shows P2 the 2nd card of P2's hand
    assert game.observation(2)["zones"]["P2"] == {"hand": {"count": 4, "revealed": [dict(_view(hint), position=2)]}}
    assert game.observation(3)["zones"]["P2"]["hand"][1] == _view(hint)
    assert game.observation(1)["zones"]["P1"] == {"hand": {"count": 4}}
    assert hint.id not in game.state.revealed and game.visible(hint, 2)
    # P1 holds and plays blind; P2's turn: the hint is offered to P2 by name, the rest by place
    game.apply(0)
    game.apply(0)
    game.apply(0)  # P2's hint to P3
    assert [(o.id, o.label) for o in game.decision()[1]] == [
        ("hand.p2.1", "the 1st card of your hand"), (f"c{hint.id}", hint.defn.name),
        ("hand.p2.3", "the 3rd card of your hand"), ("hand.p2.4", "the 4th card of your hand")]
    game.apply(0)
    game.apply(f"c{hint.id}")  # P2 plays it: on the table, no longer revealed to P2 alone
    assert game.state.card_zone[hint.id] == ("table", 0, "") and "revealed" not in game.observation(2)["zones"]["P2"]["hand"]


def test_reveals_to_players_add_up_and_to_every_player_it_is_a_reveal(rules):
    game = rules.new_game(seed=1)
    card = game.state.zones[("deck", 0, "")][0]
    p1, p2, p3 = game.players
    game.state.reveal(card, p1)
    game.state.reveal(card, [p2])
    assert [game.visible(card, s) for s in (1, 2, 3)] == [True, True, False] and card.id not in game.state.revealed
    assert game.observation(3)["zones"]["shared"]["deck"] == {"count": 6}
    assert game.observation(2)["zones"]["shared"]["deck"]["revealed"] == [dict(_view(card), position=1)]
    game.state.reveal(card, p3)
    assert card.id in game.state.revealed and game.state.attrs[card.id][SHOWN] == 0
    other = game.state.zones[("deck", 0, "")][1]
    game.state.reveal(other, [p1, p2, p3])
    assert other.id in game.state.revealed


def test_a_card_shown_to_a_player_that_goes_into_a_hidden_zone_is_known_to_them(tmp_path):
    path = _copy(tmp_path, rules_extra="\nprocedure bury(p, q) {\n  let c = first(hand(p))\n  reveal c to q\n"
                                       "  move c to deck()\n}\n")
    game = load(path).new_game(seed=1)
    card = _hand(game, 1)[0]
    game.perform("bury", p=game.players[0], q=game.players[2])
    known = {s: [v["name"] for v in game.observation(s)["zones"]["shared"]["deck"].get("known", [])] for s in (1, 2, 3)}
    assert known == {1: [], 2: [card.defn.name], 3: [card.defn.name]}  # P2 saw it in P1's hand, P3 was shown it


def test_a_saved_game_keeps_what_was_shown_to_whom(rules):
    from interpreter import load_game_json

    game = rules.new_game(seed=1)
    game.apply(1)
    loaded = load_game_json(game.to_json())
    for seat in (1, 2, 3):
        assert loaded.observation(seat) == game.observation(seat)


# ---------------------------------------------------------------- determinization
def test_determinization_resamples_exactly_the_cards_the_viewer_cannot_see(rules):
    rng = random.Random(32)
    checked = moved = 0
    for seed in range(3):
        game = rules.new_game(seed=seed, log=False)
        while not game.is_over:
            seat = game.decision()[0]
            for viewer in (seat, seat % 3 + 1):
                unseen = {c.id for c in hidden_from(game.state, viewer)}
                # its own hand but what it was shown, and the deck
                assert unseen == {c.id for key, cards in game.state.zones.items() for c in cards
                                  if key == ("deck", 0, "") or (key == ("hand", viewer, "")
                                                                and not game.visible(c, viewer))}
                copy = game.determinize(viewer, random.Random(rng.random()))
                assert copy.observation(viewer) == game.observation(viewer)
                if viewer == seat:
                    assert [(o.id, o.label) for o in copy.decision()[1]] == [(o.id, o.label) for o in game.decision()[1]]
                assert Counter(c.id for cards in copy.state.zones.values() for c in cards) == Counter(
                    c.id for cards in game.state.zones.values() for c in cards)
                for key, cards in game.state.zones.items():
                    for index, card in enumerate(cards):
                        if card.id not in unseen:
                            assert copy.state.zones[key][index] is card, (key, index)
                        else:
                            assert copy.state.zones[key][index].id in unseen
                            moved += copy.state.zones[key][index] is not card
                checked += 1
            game.apply(rng.randrange(len(game.decision()[1])))
    assert checked > 60 and moved > checked  # (the unseen cards are drawn anew, not kept)


# ---------------------------------------------------------------- nothing leaks to the holder
def _no_leak(game) -> None:
    """The decider's options and labels, and every observation, name no card hidden from the
    viewer (sharedhands' card names are all different)."""
    for viewer in (1, 2, 3):
        hidden = _hidden_names(game, viewer)
        assert not _named(json.dumps(game.observation(viewer)), hidden), viewer
    if game.pending is not None:
        seat = game.pending.seat
        labels = " | ".join(o.label + " " + o.id for o in game.pending)
        assert not _named(labels, _hidden_names(game, seat)), labels


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_nothing_hidden_from_a_holder_reaches_them_in_random_games(rules, seed):
    game, choices = playout(rules, seed, seed, extra=_no_leak)
    assert game.is_over and len(choices) == 36  # (and tests/helpers/playout.py's invariants held throughout)


def test_cardrules_play_prints_a_holder_no_card_of_their_hand(rules):
    game = rules.new_game(seed=5)
    out = io.StringIO()
    printer = Printer(game, humans=[1], quiet=False, out=out)
    rng = random.Random(5)
    while not game.is_over:
        seat, options = game.decision()
        option = options[rng.randrange(len(options))]
        hidden = _hidden_names(game, 1)
        printer.before_decision(seat, option)
        start = len(out.getvalue())
        game.apply(option)
        printer.flush()
        printed = out.getvalue()[start:]
        assert not _named(printed, hidden & _hidden_names(game, 1)), printed
    lines = out.getvalue().splitlines()
    assert any(line.startswith("P2 chooses: ") for line in lines)  # (P2's hints to P3: seen by P1)
    assert any(line == "P3 chooses (hidden)" for line in lines)  # (P3's hints to P1)


# ---------------------------------------------------------------- the browser table and the terminal
def test_the_table_shows_a_partners_cards_under_them_and_the_viewers_own_as_backs(rules):
    game = rules.new_game(seed=1)
    hint = _hand(game, 2)[2]
    game.apply(f"c{hint.id}")
    game.apply(0)
    game.apply(0)
    game.apply(0)  # P2's decision: a card to hold, P2 sees the hint at its place
    view = table_view(game.observation(2), rules)
    zones = {(z["owner"], z["zone"]): z["rows"][0] for z in view["zones"]}
    assert [z["owner"] for z in view["zones"]] == ["shared", "shared", "P1", "P3", "P2"]
    own = zones[("P2", "hand")]
    assert own["kind"] == "backs" and own["count"] == 4
    assert [c.get("id") for c in own["cards"]] == ["hand.p2.1", "hand.p2.2", hint.id, "hand.p2.4"]
    assert own["cards"][2]["name"] == hint.defn.name and own["cards"][0] == {"back": True, "id": "hand.p2.1",
                                                                              "position": 1}
    for seat in (1, 3):
        assert [c["name"] for c in zones[(f"P{seat}", "hand")]["cards"]] == [c.defn.name for c in _hand(game, seat)]
    moves = view["decision"]["moves"]
    assert [m["cards"] for m in moves] == [["hand.p2.1"], ["hand.p2.2"], [hint.id], ["hand.p2.4"]]
    assert not _named(json.dumps(view), _hidden_names(game, 2))


def test_the_terminal_lists_a_partners_cards_under_them_and_counts_the_viewers_own(rules):
    game = rules.new_game(seed=1)
    out = io.StringIO()
    obs = game.observation(1)
    TerminalTable(rules).draw(out, obs, moves=distinct_moves(obs, rules))
    text = out.getvalue()
    p2 = next(line for line in text.splitlines() if line.startswith("  hand: ") and _hand(game, 2)[0].defn.name in line)
    assert [part.split(" (")[0] for part in p2[len("  hand: "):].split(" · ")] == [c.defn.name for c in _hand(game, 2)]
    mine = text.split("P1 (you)")[1]
    assert "hand 4 hidden" in mine and not _named(text, _hidden_names(game, 1))
