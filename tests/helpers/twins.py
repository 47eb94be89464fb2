"""Twins of a true game for the no-peek tests (issue 30): a copy in which two cards hidden from
the decider, that the decider cannot tell apart, were dealt the other way round. Whatever a
player's agent computes must be the same for a game and its twin; a search that peeks
(`peeking_view`) must not be.

Used by tests/test_no_peek.py (determinization and every searching agent)."""

from __future__ import annotations

import json
import random

from interpreter.agents import DecisionView, view_of
from interpreter.engine.decisions import Pending
from interpreter.engine.game import Game
from interpreter.lang.values import CONTROLLER, DEALT, KNOWN, OWNER, SHOWN, STAMP, CardRef, Labelled


def state(game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def cards_in(value, out: set[int]) -> None:
    t = type(value)
    if t is CardRef:
        out.add(value.id)
    elif t is dict:
        for v in value.values():
            cards_in(v, out)
    elif t is list or t is tuple:
        for v in value:
            cards_in(v, out)
    elif t is Labelled:
        cards_in(value.value, out)


def _referenced(game) -> set[int]:
    """The cards the rules' state refers to (locals, attributes, picks), besides the zones."""
    out: set[int] = set()
    for f in game.state.frames:
        cards_in(f.locals, out)
        cards_in(f.event, out)
    for d in (*game.state.player_attrs, game.state.globals):
        cards_in(d, out)
    for row in game.state.attrs:
        cards_in([v for k, v in enumerate(row) if k not in (OWNER, CONTROLLER)], out)
    cards_in(game.state.temp_mods, out)
    return out


def _swapped_refs(value, swap: dict[int, CardRef]):
    t = type(value)
    if t is CardRef:
        return swap.get(value.id, value)
    if t is dict:
        return {k: _swapped_refs(v, swap) for k, v in value.items()}
    if t is list or t is tuple:
        return t(_swapped_refs(v, swap) for v in value)
    if t is Labelled:
        return Labelled(_swapped_refs(value.value, swap), value.label)
    return value


def _hidden_places(game, viewer: int) -> list[tuple]:
    return [(key, i, c) for key, cards in game.state.zones.items() for i, c in enumerate(cards)
            if not game.visible(c, viewer)]


def _known_zone(game, card: CardRef, viewer: int):
    """The zone `viewer` saw a hidden card go into (`KNOWN`), or None."""
    return game.state.card_zone[card.id] if game.state.attrs[card.id][KNOWN] & 1 << viewer else None


def _alike(game, a: CardRef, b: CardRef, viewer: int) -> bool:
    """Whether the viewer cannot tell which of two hidden cards is where: both seen going into one
    zone (cards passed to one hand), or neither seen going in and of one origin (a shared deck,
    one player's deck), and for a card of a shared zone, the same player took it in everyone's
    view, or neither went to a player in view (still in a shared zone, or dealt face down)."""
    known_a, known_b = _known_zone(game, a, viewer), _known_zone(game, b, viewer)
    if known_a is not None or known_b is not None:
        return known_a == known_b
    if a.origin != b.origin:
        return False
    if a.origin[1]:
        return True
    da, db = game.state.attrs[a.id], game.state.attrs[b.id]

    def in_view(d):
        return d[OWNER] if d[OWNER] is not None and not d[DEALT] else None
    return in_view(da) is in_view(db)


def make_twin(game, viewer: int, rng: random.Random):
    """A copy of the true game in which two cards hidden from `viewer`, alike to them and of
    different names, were dealt the other way round: each card's own state goes with it; what
    belongs to its place (the player it went to, its time stamp, who else saw it go there) and
    every reference the rules
    hold to the card at a place (a pick, a procedure's local) stay with the place. A card the
    rules refer to is swapped first, if there is one. None when no such pair exists."""
    places = _hidden_places(game, viewer)
    referenced = _referenced(game)
    firsts = [p for p in places if p[2].id in referenced] + rng.sample(places, len(places))
    for first in firsts:
        others = [p for p in places if _alike(game, first[2], p[2], viewer) and p[2].defn.name != first[2].defn.name]
        if not others:
            continue
        (ka, i, a), (kb, j, b) = first, rng.choice(others)
        twin = game.clone().state
        twin.zones[ka][i], twin.zones[kb][j] = b, a
        twin.card_zone[a.id], twin.card_zone[b.id] = kb, ka
        da, db = twin.own_row(a.id), twin.own_row(b.id)
        for k in (OWNER, CONTROLLER, STAMP, DEALT, KNOWN, SHOWN):  # (of the place)
            da[k], db[k] = db[k], da[k]
        swap = {a.id: b, b.id: a}
        for f in twin.frames:
            f.locals = _swapped_refs(f.locals, swap)
            f.event = _swapped_refs(f.event, swap)
        twin.player_attrs = [_swapped_refs(d, swap) for d in twin.player_attrs]
        twin.globals = _swapped_refs(twin.globals, swap)
        twin.attrs = [[v if k in (OWNER, CONTROLLER) else _swapped_refs(v, swap) for k, v in enumerate(row)]
                      for row in twin.attrs]
        twin.temp_mods = _swapped_refs(twin.temp_mods, swap)
        pending = twin.pending
        if pending is not None:  # (a choice among cards hidden from its chooser offers the places)
            twin.pending = Pending(pending.seat, pending.var, pending.prompt, _swapped_refs(pending._values, swap),
                                   twin, pending._unwrap, pending.span)
        twin.version += 1
        twin.layout += 1
        return Game(twin), (a, b)
    return None


def positions(rules, count: int, seed: int):
    """(game, twin, decider, swapped pair) at random decisions of random games of `rules`."""
    rng = random.Random(seed)
    found = 0
    for game_seed in range(seed, seed + 50):
        game = rules.new_game(seed=game_seed, log=False)
        while not game.is_over and found < count:
            if rng.random() < 0.25 and len(game.decision()[1]) > 1:
                viewer = game.decision()[0]
                made = make_twin(game, viewer, rng)
                if made is not None:
                    twin, pair = made
                    # the decider sees the very same game, and has the same options
                    assert game.observation(viewer) == twin.observation(viewer), pair
                    assert [(o.id, o.label) for o in game.decision()[1]] == [(o.id, o.label) for o in twin.decision()[1]]
                    found += 1
                    yield game, twin, viewer, pair
                    game.apply(rng.randrange(len(game.decision()[1])))
                    break  # (the next position in another game: more kinds of positions)
            game.apply(rng.randrange(len(game.decision()[1])))
        if found >= count:
            return
    raise AssertionError(f"{rules.name}: only {found} positions with two swappable hidden cards")


def peeking_view(game) -> DecisionView:
    """The decider's view of the game, except that its 'determinize' copies the true game: what
    a search that peeks would work on."""
    view = view_of(game)
    return DecisionView(view.seat, view.prompt, view.options, {}, game.rules,
                        lambda rng: game.clone(random.Random(rng.random())))
