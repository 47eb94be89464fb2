"""What observations show (engine/observe.py), on copies of the toy ruleset (tests/data/toy) and
on every shipped game:

- a card held in a global or an attribute is shown where the card itself may be seen (a public
  zone, revealed, gone from the game), masked in a hidden zone;
- a revealed card is hidden again once it moves to another zone (a card passed face down from
  one hand to another);
- `seen`: the events each player witnessed, by the events' declared visibility, the latest N,
  their cards masked, the same in determinized copies and saved games;
- private prompts: another player's decision shows only who decides;
- the load errors of `observation:` and event visibility;
- random games of every shipped game with every prompt private and every event that names a
  `player` seen by that player alone, with the hidden-information invariants of
  tests/helpers/playout.py checked at every decision.
"""

from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path

import pytest
from playout import (
    GENERIC,
    Arrivals,
    forget_observations,
    hidden_information,
    playout,
    private_decisions,
    witnessed_events,
)

from interpreter import load, load_game_json
from interpreter.cli.play import Printer
from interpreter.errors import CardrulesError
from interpreter.lang import ast
from interpreter.lang.values import ZoneKey
from interpreter.presentation.cards import card_text
from interpreter.rules.checker import emitted_events
from interpreter.rules.decks import Deck

TOY = Path(__file__).resolve().parent / "data" / "toy"
SHIPPED = ("initiative", "lanes", "bases")

# rule code the tests add to the toy: events of each visibility, a card kept in globals
EXTRA_RULES = """
procedure tell(p, q, c) {
  emit asked(player: p, card: c)
  emit drew(player: p, card: c)
  emit peeked(player: p, target: q, card: c)
  emit shuffled(player: p)
  emit bumped()
  emit noted()
}

procedure knock(p) {
  may "knock" by p { game.counter += 1 }
}

procedure keep_card(c) {
  game.held = c
  game.kept = [c]
}
"""

EVENTS = """
  asked: "{player} asks about {card}"
  drew: {text: "{player} draws {card}", visibility: owner}
  peeked: {text: "{target} is shown {card}", visibility: "player:target"}
  shuffled: {text: "{player} shuffles", visibility: hidden}
  noted: {text: null, visibility: public}
"""


def _toy(tmp_path: Path, observation: str = "", events: str = EVENTS, rules: str = EXTRA_RULES) -> Path:
    """A copy of the toy ruleset with a card global and list, a card player attribute, the
    events above, `observation` (YAML text of the key's value) and the extra rule code."""
    for f in TOY.iterdir():
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "toy.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("  counter: {type: int, default: 0}\n",
                        "  counter: {type: int, default: 0}\n  held: {type: card}\n  kept: {type: list}\n")
    text = text.replace("player_attributes:\n", "player_attributes:\n  mark: {type: card}\n")
    text = text.replace("  tick: null\n", "  tick: null\n" + events)
    if observation:
        text += f"\nobservation: {observation}\n"
    path.write_text(text, encoding="utf-8")
    with open(tmp_path / "toy.rules", "a", encoding="utf-8") as out:
        out.write(rules)
    return path


def _empty(rules, seed: int = 1):
    return rules.empty_game(seed=seed, decks=[Deck("none", "-", ()) for _ in range(2)])


def _put(game, name: str, zone: str, seat: int = 1, row: str = ""):
    """A new card in a zone (seat 0: a shared zone), owned by the zone's player or player 1."""
    return game.state.new_card(game.rules.card_defs[name], ZoneKey(zone, seat, row), game.players[max(seat, 1) - 1])


def _same(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


HIDDEN_CARD = {"card": "hidden"}


# ------------------------------------------------------------------ 8. card references everywhere
def test_a_card_in_a_global_or_attribute_is_shown_where_the_card_may_be_seen(tmp_path):
    rules = load(_toy(tmp_path))
    game = _empty(rules)
    card = _put(game, "Plain", "hand", 1)
    game.perform("keep_card", c=card)
    game.state.write(game.players[1], "mark", card)
    game.state.write(card, "colours", [card])  # (a card attribute, seen where the card holding it is)
    shown = {"card": card.id, "name": "Plain"}

    def seen_by(viewer: int) -> tuple:
        obs = game.observation(viewer)
        return obs["globals"]["held"], obs["globals"]["kept"], obs["players"][1]["mark"]

    # in P1's hand: P1 sees it, P2 does not, wherever it is held
    assert seen_by(1) == (shown, [shown], shown)
    assert seen_by(2) == (HIDDEN_CARD, [HIDDEN_CARD], HIDDEN_CARD)
    # in a hidden zone: nobody; revealed there: everybody
    game.state.move(card, ZoneKey("pile", 1, ""), None)
    assert seen_by(1) == seen_by(2) == (HIDDEN_CARD, [HIDDEN_CARD], HIDDEN_CARD)
    game.state.reveal(card)
    assert seen_by(1) == seen_by(2) == (shown, [shown], shown)
    # in a public zone (the last trick's cards in a public discard): everybody
    game.state.move(card, ZoneKey("pool", 0, ""), None)
    assert seen_by(1) == seen_by(2) == (shown, [shown], shown)
    assert game.observation(2)["zones"]["shared"]["pool"][0]["colours"] == [shown]
    # gone from the game: shown (nothing is left to hide)
    game.state.delete(card)
    assert seen_by(1) == seen_by(2) == (shown, [shown], shown)


def test_a_revealed_card_passed_to_another_hand_is_held_hidden_again(tmp_path):
    rules = load(_toy(tmp_path))
    game = _empty(rules)
    card = _put(game, "Plain", "hand", 1)
    _put(game, "Big", "hand", 1)
    game.perform("keep_card", c=card)
    game.state.reveal(card)
    assert game.observation(2)["zones"]["P1"]["hand"]["revealed"][0]["id"] == card.id
    game.state.move(card, ZoneKey("hand", 1, ""), 2)  # a move within the zone keeps it revealed
    assert game.observation(2)["zones"]["P1"]["hand"]["revealed"][0]["position"] == 2
    game.state.move(card, ZoneKey("hand", 2, ""), None)  # passed face down: P1 no longer sees it
    p1 = game.observation(1)
    # (P1 saw it go there: P1 knows it is in that hand, not where in it; see test_known_places.py)
    assert p1["zones"]["P2"]["hand"]["count"] == 1 and "revealed" not in p1["zones"]["P2"]["hand"]
    assert [c["id"] for c in p1["zones"]["P2"]["hand"]["known"]] == [card.id]
    assert p1["globals"]["held"] == HIDDEN_CARD
    assert game.observation(2)["globals"]["held"]["card"] == card.id
    assert card.id not in game.state.revealed and not game.visible(card, 1)


def test_a_revealed_card_moved_to_another_row_or_a_public_zone_is_no_longer_revealed(tmp_path):
    rules = load(_toy(tmp_path))
    game = _empty(rules)
    card = _put(game, "Plain", "pile", 2)
    game.state.reveal(card)
    game.state.move(card, ZoneKey("board", 2, "left"), None)
    assert game.observation(1)["zones"]["P2"]["board.left"][0]["id"] == card.id  # public anyway
    game.state.move(card, ZoneKey("pile", 2, ""), None)
    pile = game.observation(1)["zones"]["P2"]["pile"]
    assert "revealed" not in pile and pile["count"] == 1
    assert [c["id"] for c in pile["known"]] == [card.id]  # (everyone saw it go there)
    game.state.shuffle(ZoneKey("pile", 2, ""))
    assert game.observation(1)["zones"]["P2"]["pile"] == {"count": 1}


def test_the_playout_check_finds_a_card_shown_though_it_moved_since_it_was_revealed(tmp_path):
    """tests/helpers/playout.py's `hidden_information`, with `Arrivals` following the game, finds
    the old fault: a revealed card that kept its reveal when it moved to another player's hand.
    (P1 saw it go there, so may be shown it as `known` until that hand is shuffled: shuffled.)"""
    rules = load(_toy(tmp_path))
    for old_fault in (False, True):
        game = _empty(rules)
        game.state.watcher = Arrivals()
        card = _put(game, "Plain", "hand", 1)
        game.state.reveal(card)
        hidden_information(game)
        game.state.move(card, ZoneKey("hand", 2, ""), None)
        game.state.shuffle(ZoneKey("hand", 2, ""))
        forget_observations()  # (the observations the checks share are worked out anew)
        if not old_fault:
            hidden_information(game)
            continue
        game.state.revealed.add(card.id)  # (as `move` left it before: the zone's name did not change)
        with pytest.raises(AssertionError, match="P1 sees Plain#1 in hidden zone"):
            hidden_information(game)


# ------------------------------------------------------------------ 11. the events a player saw
def _told(tmp_path, observation: str = "", zone: str = "hand"):
    rules = load(_toy(tmp_path, observation))
    game = _empty(rules)
    card = _put(game, "Plain", zone, 0 if zone == "pool" else 1)
    game.perform("tell", p=game.players[0], q=game.players[1], c=card)
    return game, card


def test_each_player_sees_the_events_they_witnessed_by_the_declared_visibility(tmp_path):
    game, card = _told(tmp_path)
    shown = {"card": card.id, "name": "Plain"}
    p1 = [(e["event"], e["args"]) for e in game.observation(1)["seen"]]
    p2 = [(e["event"], e["args"]) for e in game.observation(2)["seen"]]
    # a plain template is public; owner: the `player`; player:target: the `target`; hidden and
    # null (a check point, not printed): nobody; {text: null, visibility: public}: everybody
    assert p1 == [("asked", {"player": "P1", "card": shown}), ("drew", {"player": "P1", "card": shown}),
                  ("noted", {})]
    assert p2 == [("asked", {"player": "P1", "card": HIDDEN_CARD}),
                  ("peeked", {"player": "P1", "target": "P2", "card": HIDDEN_CARD}), ("noted", {})]
    # not the log: every event is logged, and so each line of `cardrules play`
    assert [e["event"] for e in game.log if e["type"] == "event"] == ["asked", "drew", "peeked", "shuffled",
                                                                      "bumped", "noted"]
    assert game.observation(1, detail=False).get("seen") is None  # (the cheap form leaves them out)


def test_a_card_in_an_event_is_shown_by_where_it_is_now_as_anywhere_else(tmp_path):
    game, card = _told(tmp_path)
    assert game.observation(2)["seen"][0]["args"]["card"] == HIDDEN_CARD  # (in P1's hand)
    game.state.move(card, ZoneKey("pool", 0, ""), None)
    assert game.observation(2)["seen"][0]["args"]["card"]["card"] == card.id
    game.state.move(card, ZoneKey("pile", 1, ""), None)
    assert game.observation(1)["seen"][0]["args"]["card"] == game.observation(2)["seen"][0]["args"]["card"] \
        == HIDDEN_CARD
    game.state.delete(card)  # (gone from the game: shown)
    assert game.observation(2)["seen"][0]["args"]["card"]["card"] == card.id


def _fresh(tmp_path: Path, name: str) -> Path:
    """A new empty folder in tmp_path (for another copy of the toy)."""
    folder = tmp_path / name
    folder.mkdir()
    return folder


def test_an_observation_lists_the_latest_n_events(tmp_path):
    game, _card = _told(tmp_path, observation="{seen: 2}")
    assert [e["event"] for e in game.observation(1)["seen"]] == ["drew", "noted"]
    assert [e["event"] for e in game.observation(2)["seen"]] == ["peeked", "noted"]
    game, _card = _told(_fresh(tmp_path, "none"), observation="{seen: 0}")
    assert game.observation(1)["seen"] == []
    # the default is 20
    game, card = _told(_fresh(tmp_path, "default"))
    for _ in range(10):
        game.perform("tell", p=game.players[0], q=game.players[1], c=card)
    assert len(game.observation(1)["seen"]) == len(game.observation(2)["seen"]) == 20


def test_events_seen_are_the_same_without_a_log_in_copies_and_in_saved_games(tmp_path):
    game, card = _told(tmp_path)
    quiet = _empty(game.rules)
    quiet.state.logging = False
    quiet_card = _put(quiet, "Plain", "hand", 1)
    quiet.perform("tell", p=quiet.players[0], q=quiet.players[1], c=quiet_card)
    assert quiet.state.log_entries == []
    for viewer in (1, 2):
        assert _same(quiet.observation(viewer)["seen"], game.observation(viewer)["seen"])
        assert _same(game.clone().observation(viewer), game.observation(viewer))
        assert _same(load_game_json(game.to_json(), game.rules).observation(viewer), game.observation(viewer))
        copy = game.determinize(viewer, random.Random(3))
        assert _same(copy.observation(viewer), game.observation(viewer))
    # a copy for P2 keeps nothing P1 witnessed alone (P1 drew the card)
    copy = game.determinize(2, random.Random(3))
    assert [e["event"] for e in copy.observation(2)["seen"]] == ["asked", "peeked", "noted"]
    assert [e["event"] for e in copy.observation(1)["seen"]] == ["asked", "noted"]


def test_every_shipped_game_shows_its_events_to_every_player(tmp_path):
    """The shipped games declare no event visibility: every event is public but the ones
    declared `null` (check points, not printed) and the built-in ones."""
    for name in SHIPPED:
        rules = load(name)
        game = rules.new_game(seed=5)
        rng = random.Random(5)
        for _ in range(30):
            if game.is_over:
                break
            game.apply(rng.randrange(len(game.decision()[1])))
        logged = [e["event"] for e in game.log if e["type"] == "event" and e["event"] not in
                  ("turn_start", "phase_start", "moved") and rules.events.get(e["event"], "") is not None]
        for viewer in (1, 2):
            assert [e["event"] for e in game.observation(viewer)["seen"]] == logged[-20:]


def test_cardrules_play_prints_a_human_only_the_events_they_witnessed(tmp_path):
    rules = load(_toy(tmp_path))
    game = _empty(rules)
    card = _put(game, "Plain", "hand", 1)
    out = io.StringIO()
    printer = Printer(game, [2], quiet=False, out=out)
    game.perform("tell", p=game.players[0], q=game.players[1], c=card)
    printer.flush()
    assert out.getvalue().splitlines() == ["P1 asks about a hidden card", "P2 is shown a hidden card"]
    out = io.StringIO()
    printer = Printer(game, [], quiet=False, out=out)  # (no human: every event, as the log)
    printer.flush()
    assert "P1 draws Plain" in out.getvalue() and "P1 shuffles" in out.getvalue()


# ------------------------------------------------------------------ 12. private prompts
def test_a_private_prompt_shows_the_others_only_who_decides(tmp_path):
    rules = load(_toy(tmp_path, observation='{private_prompts: ["a card to place"]}'))
    game = _empty(rules)
    for name in ("Plain", "Big"):
        _put(game, name, "hand", 1)
    game.state.globals["active"] = game.players[0]
    game.perform("main_phase")
    assert game.decision()[0] == 1 and game.pending.prompt == "a card to place"
    own, other = game.observation(1)["decision"], game.observation(2)["decision"]
    assert own["prompt"] == "a card to place" and own["site"] is not None and len(own["options"]) == 2
    assert other == {"player": 1, "prompt": None, "site": None}
    game.apply(0)  # the next decision, "a row", is not private
    assert game.observation(2)["decision"]["prompt"] == "a row"
    assert game.observation(2)["decision"]["site"] == game.observation(1)["decision"]["site"] is not None


def test_cardrules_play_hides_a_private_decision_from_a_human(tmp_path):
    for private in ([], ["a row"]):
        rules = load(_toy(_fresh(tmp_path, f"p{len(private)}"), observation=f"{{private_prompts: {private}}}"))
        game = _empty(rules)
        for name in ("Plain", "Big"):
            _put(game, name, "hand", 1)
        game.state.globals["active"] = game.players[0]
        game.perform("main_phase")
        game.apply(0)
        assert game.pending.prompt == "a row"
        printer = Printer(game, [2], quiet=True, out=io.StringIO())
        printer.before_decision(1, game.decision()[1][0])
        assert printer.decision_text == ("P1 chooses (hidden)" if private else None)


def test_a_private_may_stays_private_in_copies_and_saved_games(tmp_path):
    rules = load(_toy(tmp_path, observation='{private_prompts: ["knock", "a card to place"]}'))
    game = _empty(rules)
    game.perform("knock", p=game.players[0])
    assert game.pending.prompt == "knock" and rules.site_of(game.pending) is None  # (a `may` has no site)
    hidden = {"player": 1, "prompt": None, "site": None}
    for copy in (game, game.clone(), load_game_json(json.loads(json.dumps(game.to_json())), rules),
                 game.determinize(2, random.Random(1))):
        assert copy.observation(2)["decision"] == hidden
        assert copy.observation(1)["decision"]["prompt"] == "knock"
    game.apply("yes")
    assert game.read(game.state.GAME, "counter") == 1


# ------------------------------------------------------------------ load errors
def test_a_private_prompt_no_decision_asks_is_a_located_error(tmp_path):
    with pytest.raises(CardrulesError) as err:
        load(_toy(tmp_path, observation='{private_prompts: ["a card to plase"]}'))
    text = str(err.value)
    assert "private prompt 'a card to plase' is the prompt of no choose or may" in text
    assert "did you mean 'a card to place'" in text and "toy.yaml:" in text


def test_an_event_seen_by_an_argument_it_is_not_given_is_a_located_error(tmp_path):
    events = '  told: {text: "x", visibility: "player:whom"}\n'
    rules = EXTRA_RULES + "\nprocedure tell_nobody(p) {\n  emit told(player: p)\n}\n"
    with pytest.raises(CardrulesError) as err:
        load(_toy(tmp_path, events=EVENTS + events, rules=rules))
    text = str(err.value)
    assert "event 'told' is seen only by the player in its argument 'whom'" in text and "toy.rules:" in text


@pytest.mark.parametrize("entry", ['{text: "x", visibility: everyone}', '{text: "x", visibility: "player:"}',
                                   "{seen: -1}"])
def test_a_wrong_visibility_or_count_is_refused_by_the_schema(tmp_path, entry):
    if entry.startswith("{seen"):
        path = _toy(tmp_path, observation=entry)
    else:
        path = _toy(tmp_path, events=EVENTS + f"  told: {entry}\n")
    with pytest.raises(CardrulesError):
        load(path)


# ------------------------------------------------------------------ every shipped game
def _private_variant(tmp_path: Path, name: str) -> Path:
    """A variant of a shipped game in which every prompt is private and every event whose every
    emit names a `player` is seen by that player alone."""
    base = load(name).ruleset
    prompts = sorted({node.label for node in base.code_nodes()
                      if isinstance(node, (ast.Choose, ast.May)) and node.label is not None})
    emits = [node for node in base.code_nodes() if isinstance(node, ast.Emit)]
    owned = sorted(event for event in emitted_events(base)
                   if any(node.event == event for node in emits)
                   and all(any(a.name == "player" for a in node.args) for node in emits if node.event == event))
    lines = [f"extends: {name}", f"name: {name}-private", "observation:",
             f"  private_prompts: {json.dumps(prompts)}", "events:"]
    lines += [f"  {event}: {{visibility: owner, text: {json.dumps(base.events.get(event) or event)}}}"
              for event in owned]
    path = tmp_path / f"{name}-private.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", SHIPPED)
def test_private_prompts_and_hidden_cards_in_random_games_of_every_shipped_game(tmp_path, name):
    rules = load(_private_variant(tmp_path, name))
    visibility = rules.ruleset.observing.event_visibility
    owned = {event for event, seen_by in visibility.items() if seen_by == "player:player"}
    assert rules.private_sites and owned
    prompted = {(n.span.file, n.span.line, n.span.column) for n in rules.ruleset.code_nodes()
                if isinstance(n, (ast.Choose, ast.May)) and n.label is not None}
    others_decided = 0
    owned_seen = 0

    def extra(game) -> None:
        nonlocal others_decided, owned_seen
        pending = game.pending
        if pending is not None and pending.span is not None and \
                (pending.span.file, pending.span.line, pending.span.column) in prompted:
            for viewer in (1, 2):
                decision = game.observation(viewer)["decision"]
                if viewer != pending.seat:
                    assert decision == {"player": pending.seat, "prompt": None, "site": None}
                    others_decided += 1
                else:
                    assert decision["prompt"] == pending.prompt
        owned_seen += sum(e["event"] in owned for e in game.observation(1)["seen"])

    for seed in range(3):
        playout(rules, seed=seed, agent_seed=seed, extra=extra, max_decisions=5000)
    assert others_decided > 0 and owned_seen > 0
    assert private_decisions in GENERIC and witnessed_events in GENERIC  # (checked at every decision)


# ------------------------------------------------------------------ an enumeration not given yet
MARK_TYPE = """  mark:
    token: true
    label: "{name} ({kind})"
    attributes:
      kind: {type: text, values: [east, west]}
"""


def test_an_enumerated_card_attribute_not_given_is_none_everywhere(tmp_path):
    """A card attribute with `values:` and no default starts as none (a token need not print it),
    as globals and player attributes do, not as "", a value outside its own enumeration: rule
    code reads none, the observation null, the card's label and text() 'nothing', and the
    terminal leaves it out; once written, it is the value everywhere."""
    path = _toy(tmp_path, rules=EXTRA_RULES + "procedure probe(c) {\n  if c.kind == none { game.counter = 7 }\n}\n")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("card_types:\n", "card_types:\n" + MARK_TYPE, 1), encoding="utf-8")
    with open(tmp_path / "toy.cards", "a", encoding="utf-8") as out:
        out.write('card "Mark" : mark { }\n')
    rules = load(path)
    assert rules.card_defs["Mark"].initial == {"kind": None}
    game = _empty(rules)
    card = _put(game, "Mark", "pool", 0)
    game.perform("probe", c=card)
    assert (game.read(card, "kind"), game.state.globals["counter"]) == (None, 7)
    view = game.observation(1)["zones"]["shared"]["pool"][0]
    assert json.dumps(view) == json.dumps({"id": card.id, "name": "Mark", "type": "mark", "kind": None})
    assert game.state.label(card) == "Mark (nothing)"
    assert card_text(view, rules) == "Mark"
    game.state.write(card, "kind", "west")
    view = game.observation(2)["zones"]["shared"]["pool"][0]
    assert (view["kind"], game.state.label(card), card_text(view, rules)) == ("west", "Mark (west)", "Mark (kind west)")
