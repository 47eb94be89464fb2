"""Choosing what you cannot see (issue 32.2): a `choose` among cards of a zone hidden from the
chooser (another player's hand, a face-down deck) offers each such card by its place, "the 2nd
card of P2's hand" (id `hand.p2.2`): the options, their labels and ids, the chooser's observation,
the log and the lines `cardrules play` prints name no hidden card, while the value chosen is the
card at that place. Cards the chooser sees (their own hand, a card revealed) keep their names. A
determinized copy offers the same options (the place, not the card, is what is offered).
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.play import Printer
from interpreter.engine.decisions import ordinal
from interpreter.errors import IllegalDecisionError

NAMES = ["Ace", "Bishop", "Crown", "Duke", "Earl", "Fool", "Gull", "Hart", "Isle", "Jack"]

RULESET = """\
name: blindpick
players: 2
code: [blindpick.rules]
cards: [blindpick.cards]
zones:
  deck: {per: shared, ordered: true, visibility: hidden}
  hand: {per: player, ordered: true, visibility: owner}
  table: {per: shared, ordered: true, visibility: public}
card_types:
  token_card:
    attributes:
      rank: {type: int, default: 0}
setup: deal()
turn:
  active: alternate
  phases:
    - {name: main, do: take_turn(game.active)}
end:
  - {when: "game.turn > 4", draw: four turns}
"""

RULES = """\
procedure deal() {
  for name in card_names() { create name in deck() }
  for p in players { repeat 3 { move first(deck()) to hand(p) } }
}

procedure take_turn(p) {
  let q = first(others(p))
  let c = choose "a card to take" from hand(q) by p
  move c to hand(p)
  let d = choose "a card to play" from hand(p) by p
  move d to table()
  let two = choose 2 "two cards to bury" from deck() by p
  for b in two { move b to table() }
}
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory) -> Path:
    folder: Path = tmp_path_factory.mktemp("blindpick")
    (folder / "blindpick.yaml").write_text(RULESET, encoding="utf-8")
    (folder / "blindpick.rules").write_text(RULES, encoding="utf-8")
    (folder / "blindpick.cards").write_text(
        "".join(f'card "{n}" : token_card {{ rank = {i + 1} }}\n' for i, n in enumerate(NAMES)), encoding="utf-8")
    return folder / "blindpick.yaml"


@pytest.fixture(scope="module")
def rules(ruleset):
    return load(ruleset)


def _names_in(text: str, cards) -> list[str]:
    return [c.defn.name for c in cards if c.defn.name in text]


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]


def test_cards_of_another_players_hidden_hand_are_offered_by_place(rules):
    game = rules.new_game(seed=1)
    seat, options = game.decision()
    hand2 = game.state.zones[("hand", 2, "")]
    assert seat == 1 and [c.defn.name for c in hand2] == ["Duke", "Earl", "Fool"]
    assert [(o.id, o.label) for o in options] == [
        ("hand.p2.1", "the 1st card of P2's hand"), ("hand.p2.2", "the 2nd card of P2's hand"),
        ("hand.p2.3", "the 3rd card of P2's hand")]
    assert [o.value for o in options] == hand2  # the value is the card at that place
    view = game.observation(1)
    assert view["decision"]["options"] == [
        {"index": i, "id": f"hand.p2.{i + 1}", "label": f"the {ordinal(i + 1)} card of P2's hand"} for i in range(3)]
    assert _names_in(json.dumps(view), hand2) == []


def test_the_card_id_of_a_hidden_option_is_refused(rules):
    game = rules.new_game(seed=1)
    hidden = game.state.zones[("hand", 2, "")][1]
    with pytest.raises(IllegalDecisionError, match="not a legal option.*the 2nd card of P2's hand \\(hand.p2.2\\)"):
        game.apply(f"c{hidden.id}")
    game.apply("the 2nd card of P2's hand")  # (by label, as any option)
    assert game.state.zones[("hand", 1, "")][-1] is hidden


def test_the_chooser_sees_its_own_hand_and_a_revealed_card_by_name(rules):
    game = rules.new_game(seed=1)
    game.state.reveal(game.state.zones[("hand", 2, "")][2])
    assert [o.label for o in game.decision()[1]] == [
        "the 1st card of P2's hand", "the 2nd card of P2's hand", "Fool"]
    assert [o.id for o in game.decision()[1]][2] == f"c{game.state.zones[('hand', 2, '')][2].id}"
    game.apply(0)  # takes Duke into its own hand: seen, so named
    assert [o.label for o in game.decision()[1]] == ["Ace", "Bishop", "Crown", "Duke"]


def test_a_combination_of_hidden_cards_is_named_by_its_places(rules):
    game = rules.new_game(seed=1)
    game.apply(0)
    game.apply(0)
    deck = list(game.state.zones[("deck", 0, "")])
    options = game.decision()[1]
    assert game.pending.prompt == "two cards to bury" and len(deck) == 4
    assert [(o.id, o.label) for o in options][:2] == [
        ("deck.1+deck.2", "the 1st card of the deck + the 2nd card of the deck"),
        ("deck.1+deck.3", "the 1st card of the deck + the 3rd card of the deck")]
    assert options[1].value == [deck[0], deck[2]]
    assert _names_in(json.dumps(game.observation(1)), deck) == []


def test_the_log_and_the_printed_lines_name_no_hidden_card(rules):
    game = rules.new_game(seed=1)
    taken = game.state.zones[("hand", 2, "")][1]
    out = io.StringIO()
    printer = Printer(game, humans=[2], quiet=False, out=out)  # P2 sees P1's choices printed
    for answer in (1, 0, 0):
        seat, options = game.decision()
        printer.before_decision(seat, options[answer])
        game.apply(answer)
        printer.flush()
    decisions = [e for e in game.log if e["type"] == "decision"]
    assert decisions[0] == {"type": "decision", "player": 1, "option": "hand.p2.2",
                            "label": "the 2nd card of P2's hand"}
    assert decisions[2]["option"] == "deck.1+deck.2"
    assert "P1 chooses: the 2nd card of P2's hand" in out.getvalue()
    assert taken.defn.name == "Earl" and "Earl" not in json.dumps(decisions[0]) + json.dumps(decisions[2])
    assert "P1 chooses (hidden)" in out.getvalue()  # the two cards buried, hidden from P2 too


def test_a_determinized_copy_offers_the_same_places(rules):
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        game = rules.new_game(seed=seed, log=False)
        while not game.is_over:
            seat, options = game.decision()
            copy = game.determinize(seat, random.Random(rng.random()))
            assert [(o.id, o.label) for o in copy.decision()[1]] == [(o.id, o.label) for o in options]
            checked += any("card of" in o.label for o in options)
            game.apply(rng.randrange(len(options)))
    assert checked >= 16


def test_a_scenario_takes_a_hidden_card_by_its_place_or_its_label(ruleset, tmp_path):
    from interpreter.scenarios import run_scenario

    scenario = tmp_path / "take.yaml"
    scenario.write_text(f"""\
ruleset: {ruleset}
cites: [T-32.2]
given:
  players:
    1: {{hand: [Ace, Hart]}}
    2: {{hand: [Bishop, {{card: Crown, as: c}}, Duke]}}
  zones: {{deck: [Earl, Fool, Gull]}}
when:
  - then: {{observation.1.decision.options: [{{id: hand.p2.1}}, {{id: hand.p2.2}}, {{id: hand.p2.3}}]}}
  - player: 1
    options: ["the 1st card of P2's hand", "the 2nd card of P2's hand", "the 3rd card of P2's hand"]
    choose: $c
  - {{player: 1, options: [Ace, Hart, Crown], choose: Crown}}
  - {{player: 1, choose: "the 1st card of the deck + the 3rd card of the deck"}}
then:
  players.1.hand: [Ace, Hart]
  players.2.hand: [Bishop, Duke]
  zones.table: [Crown, Earl, Gull]
  decision.options: ["the 1st card of P1's hand", "the 2nd card of P1's hand"]
""", encoding="utf-8")
    result = run_scenario(scenario)
    assert result.passed, result.failures
