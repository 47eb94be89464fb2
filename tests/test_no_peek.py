"""Search never peeks (issue 30): a determinization, and what every searching agent (mcts, greedy,
turn) computes on it, are the same for two true games that differ only in cards hidden from the
decider.

For every shipped ruleset and a small test ruleset with one shared face-down deck and three hands
(tests/data/sharedhands), at random decisions: a twin of the true game is built in which two
cards hidden from the decider, that the decider cannot tell apart, were dealt the other way round
(tests/helpers/twins.py), and the determinized copies (as plain data) and each agent's last search
(mcts's root statistics, greedy's and turn's value per option) must be identical. A control that
copies the true game instead sees the swap, with each agent. Then two statistical checks of the
leaks issue 30 measured: Hearts' opponents' hands are drawn anew as a fair deal would (not kept
in their hand), and Bases' cards put back by a mulligan are not kept at their deck places. And
the rules keep no card they are done with: a procedure's names end when it returns; `kept` is 0
at decisions. (What a player saw go into a hidden zone they keep: tests/test_known_places.py.)

CARDRULES_LONG=1 checks more positions.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
from pathlib import Path

import pytest
from twins import cards_in, peeking_view, positions, state

from interpreter import load
from interpreter.agents import make_agent, view_of
from interpreter.lang.values import KNOWN
from interpreter.paths import shipped_games

LONG = bool(os.environ.get("CARDRULES_LONG"))
DATA = Path(__file__).resolve().parent / "data"
# the shipped games; a shared face-down deck dealt to three hands; a player's own hidden pile to
# draw from within the turn (where greedy and turn would see a peek)
GAMES = (*shipped_games(), "sharedhands", "lookahead")
POSITIONS = 12 if LONG else 3  # per game


def test_every_shipped_game_is_checked():
    assert set(GAMES) >= {"initiative", "lanes", "bases", "hearts", "harvest", "spades", "expedition",
                         "sharedhands"}


def _rules(name: str):
    return load(DATA / name / f"{name}.yaml" if name in ("sharedhands", "lookahead") else name)


def _check_copies(game, twin, viewer: int, copy) -> None:
    """The copies of the game and its twin for the same generators are the same game."""
    for k in (1, 2):
        a, b = copy(game, viewer, random.Random(k)), copy(twin, viewer, random.Random(k))
        assert state(a) == state(b), "the copies differ: the determinization depends on hidden cards"


def _determinized(game, viewer, rng):
    return game.determinize(viewer, rng)


def _true_copy(game, viewer, rng):  # the control: a "determinization" that copies the true game
    return game.clone(random.Random(rng.random()))


# Every searching agent, small and seeded. Each records its last search (`last_search`): mcts its
# root statistics, greedy and turn each option's value.
AGENTS = ("mcts:iterations=30", "greedy:samples=2", "turn:samples=2,nodes=60")


def _search(spec: str, view) -> dict:
    """What an agent knows after searching from a view: its choice and its whole `last_search`
    but the wall-clock seconds."""
    agent = make_agent(spec, seed="30/no-peek")
    choice = agent.act(view)
    facts = dataclasses.asdict(agent.last_search)
    facts.pop("seconds", None)
    return {"choice": getattr(choice, "id", choice), **facts}


@pytest.mark.parametrize("name", GAMES)
def test_determinization_and_search_do_not_depend_on_hidden_cards(name):
    for game, twin, viewer, _pair in positions(_rules(name), POSITIONS, seed=30):
        _check_copies(game, twin, viewer, _determinized)
        for spec in AGENTS:
            assert _search(spec, view_of(game)) == _search(spec, view_of(twin)), spec
        assert game.determinize(viewer, random.Random(0)).state.kept == 0


# Which agents' peeking searches tell some twin apart, by game. mcts's random play-outs reach the
# hidden cards; greedy and turn look no further than the decider's turn, and in the shipped games a
# swap of two random hidden cards rarely shows within it (none of 20 twins in Bases, Lanes, Hearts,
# Harvest): the lookahead ruleset, whose decider may draw its hidden pile's top card, shows theirs.
# In sharedhands 30 play-outs barely depend on one swapped pair (the copies' check sees it there).
SEES_A_PEEK = {"sharedhands": (), "lookahead": AGENTS[1:]}


@pytest.mark.parametrize("name", GAMES)
def test_the_check_sees_a_copy_of_the_true_game(name):
    """The control: with the true game copied instead, the same check fails (the twin is truly
    another game), and a search over such copies tells the twin apart at some position."""
    expected = set(SEES_A_PEEK.get(name, AGENTS[:1]))
    told_apart: set[str] = set()
    for game, twin, viewer, _pair in positions(_rules(name), 12, seed=30):
        with pytest.raises(AssertionError, match="the copies differ"):
            _check_copies(game, twin, viewer, _true_copy)
        told_apart |= {spec for spec in expected - told_apart
                       if _search(spec, peeking_view(game)) != _search(spec, peeking_view(twin))}
        if told_apart == expected:
            return
    assert not expected, f"{name}: a peeking {expected - told_apart} never told a twin apart"


# ---------------------------------------------------------------- procedures' names end
@pytest.mark.parametrize("name", GAMES)
def test_the_main_program_keeps_no_finished_procedures_names(name):
    """A procedure written into its caller (a small one, see lang/resumable.py) leaves no name
    behind when it returns, nor does a statement's answer or a loop's list: the main program's
    frame, which lives for the whole game, holds no card hidden from a player at any decision.
    (Bases' mulligan left the cards put back there for the whole game: determinization kept their
    card types at their deck places.)"""
    rules = _rules(name)
    rng = random.Random(3)
    for seed in range(3 if LONG else 1):
        game = rules.new_game(seed=seed, log=False)
        while not game.is_over:
            held: set[int] = set()
            cards_in(game.state.frames[0].locals, held)
            hidden = [game.state.cards[cid] for cid in sorted(held) if cid in game.state.card_zone and not all(
                game.visible(game.state.cards[cid], seat) for seat in range(1, rules.player_count + 1))]
            assert not hidden, f"the main program's frame holds hidden cards: {game.state.frames[0].locals}"
            game.apply(rng.randrange(len(game.decision()[1])))


# ---------------------------------------------------------------- what is kept
@pytest.mark.parametrize("name", GAMES)
def test_no_hidden_card_is_kept_at_random_decisions(name):
    """`kept`: the hidden cards determinization had to keep as they are or of their type (a card
    that runs an ability now, or one the rules refer to among cards of several types). No shipped
    game keeps any at its decisions; the procedures' names end when the procedures return (a
    finished mulligan's list of cards put back, left in the main program's frame, kept 100%
    of them at their deck places). For the player who decides: in another player's copies, the
    options of the decision pending are cards of the decider's hand, kept of their type."""
    rules = _rules(name)
    rng = random.Random(7)
    checked = 0
    for seed in range(30):
        if seed >= (6 if LONG else 2) and checked > 10:  # (short games: more of them)
            break
        game = rules.new_game(seed=seed, log=False)
        while not game.is_over:
            if rng.random() < 0.2:
                assert game.determinize(game.decision()[0], random.Random(checked)).state.kept == 0
                checked += 1
            game.apply(rng.randrange(len(game.decision()[1])))
    assert checked > 10


def _wilson(kept: int, total: int, z: float = 3.29) -> tuple[float, float]:
    """The Wilson interval of a proportion (z = 3.29: 99.9%)."""
    p = kept / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def test_hearts_opponents_hands_are_dealt_anew():
    """A card of another player's hand stays in that hand in a copy about as often as a fair new
    deal of the cards the player does not see keeps it there (about a third with three other
    hands; a card the player passed there stays): before issue 30, 66% (each card stayed among
    its first receiver's places)."""
    rules = load("hearts")
    rng = random.Random(30)
    kept = total = 0
    expected = 0.0
    positions = 0
    for seed in range(200):
        if positions >= (120 if LONG else 40):
            break
        game = rules.new_game(seed=seed, log=False)
        for _ in range(rng.randrange(1, 80)):
            if game.is_over:
                break
            game.apply(rng.randrange(len(game.decision()[1])))
        if game.is_over:
            continue
        viewer = game.decision()[0]
        known = {cid for cid, d in enumerate(game.state.attrs) if d and d[KNOWN] & 1 << viewer}  # (passed there)
        unknown = [c for cards in game.state.zones.values() for c in cards
                   if not game.visible(c, viewer) and c.id not in known]
        copy = game.determinize(viewer, random.Random(seed))
        for key, cards in game.state.zones.items():
            if key[0] == "hand" and key[1] != viewer:
                places = sum(c.id not in known for c in cards)
                for card in cards:
                    total += 1
                    kept += card in copy.state.zones[key]
                    # a fair deal of the unknown cards: the hand's share of their places
                    expected += 1 if card.id in known else places / len(unknown)
        positions += 1
    low, high = _wilson(kept, total)
    assert low <= expected / total <= high, (
        f"{kept} of {total} ({kept / total:.0%}) stayed in their hand; a fair deal: {expected / total:.0%}")


def test_bases_cards_put_back_by_a_mulligan_are_drawn_anew():
    """After the mulligans, the cards a player put back (at the bottom of their deck) are, in the
    other player's copies, as likely to keep their card type (ally, maneuver, ...) at their places
    as the deck's other cards are at theirs: before issue 30 the mulligan's list of them stayed in
    the main program's frame, and every copy kept their types there."""
    rules = load("bases")
    counts = {"back": [0, 0], "other": [0, 0]}
    for seed in range(12 if LONG else 6):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(2):  # the two mulligans: put back some cards
            options = game.decision()[1]
            game.apply(rng.randrange(len(options) // 2, len(options)))
        back = {e[2]["player"].seat: e[2]["count"] for e in game.state.log_entries
                if e[0] == "event" and e[1] == "mulligan"}
        viewer, other = 1, 2  # (P2 mulligans last: the list left behind was P2's)
        deck = game.state.zones[("deck", other, "")]
        n = back.get(other, 0)
        for k in range(20):
            copy = game.determinize(viewer, random.Random(k))
            for i, card in enumerate(deck):
                part = counts["back" if i >= len(deck) - n else "other"]
                part[0] += copy.state.zones[("deck", other, "")][i].defn.type == card.defn.type
                part[1] += 1
    (kept, total), (kept_o, total_o) = counts["back"], counts["other"]
    assert total >= 100
    low, high = _wilson(kept, total)
    assert low <= kept_o / total_o <= high, (
        f"put back: {kept} of {total} kept their type at their place; other places: {kept_o} of {total_o}")


def test_a_saved_game_keeps_where_its_cards_came_from():
    """A card's origin is saved with the game: the loaded game's copies are the true game's."""
    from interpreter import load_game_json

    rules = load("hearts")
    game = rules.new_game(seed=4, log=False)
    for _ in range(5):
        game.apply(0)
    loaded = load_game_json(game.to_json())
    assert [c.origin for c in loaded.state.cards.values()] == [c.origin for c in game.state.cards.values()] == [("stock", 0)] * 52
    viewer = game.decision()[0]
    assert state(loaded.determinize(viewer, random.Random(1))) == state(game.determinize(viewer, random.Random(1)))
