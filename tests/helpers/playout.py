"""Random playouts with invariants checked at every decision, shared by the property tests.

Generic invariants hold for every ruleset (each card in exactly one zone, declared attribute
limits respected, hidden zones and owner-only attributes absent from other players'
observations, no card in a hidden zone shown unless revealed since it came there, no other
player's private prompt shown, no event shown to a player who did not witness it, observations,
options and log entries plain JSON); each game adds its own through `extra`.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable

from interpreter.engine.game import Game
from interpreter.engine.state import GameState
from interpreter.lang.values import OWNER, SHOWN, CardRef, ZoneKey
from interpreter.rules.observing import HIDDEN, witness_argument

LONG = os.environ.get("CARDRULES_LONG") == "1"


def examples(long_run: int, share: int = 10) -> int:
    """How many random games a property test plays: `long_run` with CARDRULES_LONG=1 (the long
    run, README), a `share`-th of it (at least 5) in the default suite, which CI runs."""
    return long_run if LONG else max(5, long_run // share)


def zone_consistency(game: Game) -> None:
    seen: dict[int, tuple] = {}
    for key, cards in game.state.zones.items():
        for card in cards:
            assert card.id not in seen, f"card {card!r} is in {seen[card.id]} and {key}"
            seen[card.id] = key
            assert game.state.card_zone[card.id] == key, f"card {card!r} thinks it is in {game.state.card_zone[card.id]}, not {key}"
    rows = {cid for cid, row in enumerate(game.state.attrs) if row}
    assert set(seen) == set(game.state.card_zone) == rows == set(game.state.cards)
    assert len(game.state.attrs) == game.state.next_id, "a card's row is not at its id"


def attribute_limits(game: Game) -> None:
    """Every number within its declared min and max (`none` is stored as it is: docs/rulesets.md)."""
    for card in game.state.cards.values():
        for name, (lo, hi) in card.defn.clamps.items():
            value = game.read(card, name)
            if value is None:
                continue
            assert lo is None or value >= lo, f"{card!r}.{name} = {value} < {lo}"
            assert hi is None or value <= hi, f"{card!r}.{name} = {value} > {hi}"
    for player in game.players:
        for name, (lo, hi) in game.rules.player_clamps.items():
            value = game.read(player, name)
            if value is None:
                continue
            assert lo is None or value >= lo
            assert hi is None or value <= hi, f"P{player.seat}.{name} = {value} > {hi}"


def _card_ids_in(value) -> set[int]:
    out: set[int] = set()
    if isinstance(value, dict):
        if isinstance(value.get("card"), int) and "name" in value:
            out.add(value["card"])
        if isinstance(value.get("id"), int) and "name" in value:
            out.add(value["id"])
        for v in value.values():
            out |= _card_ids_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= _card_ids_in(v)
    return out


def observations(game: Game) -> list[dict]:
    """Every player's observation of the game as it is now (worked out once per state: the
    checks below share them)."""
    key = (id(game.state), id(game.pending), game.state.steps, game.state.log_length, game.is_over)
    cached = _OBSERVATIONS.get(0)
    if cached is None or cached[0] != key:
        cached = _OBSERVATIONS[0] = (key, [game.observation(v) for v in range(1, len(game.players) + 1)])
    return cached[1]


def forget_observations() -> None:
    """Have `observations` work them out anew (a test that changes the state behind its back)."""
    _OBSERVATIONS.clear()


_OBSERVATIONS: dict[int, tuple] = {}  # (the last game's: one at a time is checked)


class Arrivals:
    """Follows a game (`Game.watcher`) to tell whether a card was revealed since it came into
    its zone: each card's moves are counted, and the count when it was first found revealed
    (`hidden_information`) is kept while it stays revealed. And who saw a card go into the zone
    it is in (in a zone they see, or found revealed there, just before it moved), until that zone
    is shuffled: they may be shown it there (the engine's `known`), worked out here on its own."""

    def __init__(self) -> None:
        self.moves: dict[int, int] = {}
        self.revealed_at: dict[int, int] = {}
        self.saw_go: dict[int, tuple[ZoneKey, frozenset[int]]] = {}
        self.shown_to: dict[int, int] = {}  # the seats a card was revealed to (`reveal ... to`), kept by `watch`

    def watch(self, game: Game) -> None:
        """Note the cards now revealed to some players (`hidden_information` calls it after each
        decision: who was shown a card that then moves, as far as those checks can tell)."""
        self.shown_to = {cid: d[SHOWN] for cid, d in enumerate(game.state.attrs) if d and d[SHOWN]}

    def turn_began(self, game: GameState) -> None:
        pass

    def moved(self, game: GameState, card: CardRef, old: ZoneKey, new: ZoneKey) -> None:
        before = self.moves.get(card.id, 0)
        self.moves[card.id] = before + 1
        visibility = game.rules.zones[old[0]].visibility
        shown = visibility == "public" or self.revealed_at.get(card.id) == before
        seats = range(1, len(game.players) + 1)
        shown_to = self.shown_to.get(card.id, 0)
        self.saw_go[card.id] = (new, frozenset(s for s in seats
                                               if shown or _sees_zone(visibility, old[1], s) or shown_to >> s & 1))

    def shuffled(self, game: GameState, key: ZoneKey) -> None:  # (watchers are given the engine's state)
        for card in game.zones[key]:
            self.saw_go.pop(card.id, None)

    def saw_it_go(self, game: Game, card: CardRef, viewer: int) -> bool:
        """Whether `viewer` saw the card go into the zone it is in, and it was not shuffled since."""
        zone, seats = self.saw_go.get(card.id, (None, ()))
        return zone == game.state.card_zone.get(card.id) and viewer in seats

    def revealed_here(self, game: Game) -> set[int]:
        """The revealed cards that were revealed since they came into their zone (as far as the
        checks after each decision can tell)."""
        for cid in [c for c in self.revealed_at if c not in game.state.revealed]:
            del self.revealed_at[cid]
        for cid in game.state.revealed:
            self.revealed_at.setdefault(cid, self.moves.get(cid, 0))
        return {cid for cid, at in self.revealed_at.items() if at == self.moves.get(cid, 0)}


def _sees_zone(visibility: str, owner: int, viewer: int) -> bool:
    """Whether `viewer` sees the cards of a zone of this visibility owned by `owner` (0: shared)."""
    return (visibility == "public" or (visibility == "owner" and owner == viewer)
            or (visibility == "others" and owner != viewer))


def hidden_information(game: Game) -> None:
    """No observation names a card that stands in a zone its viewer may not see, unless it was
    revealed (to every player or to the viewer) since it came there or the viewer saw it go there
    (when the game is followed by `Arrivals`; else: unless it is revealed), nor shows another
    player's owner-only attributes; the options of the viewer's decision name no card hidden from
    them by its id (a card they cannot see is offered by its place)."""
    rules = game.rules
    watcher = game.state.watcher
    followed = isinstance(watcher, Arrivals)
    revealed = watcher.revealed_here(game) if followed else game.state.revealed
    if followed:
        watcher.watch(game)
    for viewer, obs in enumerate(observations(game), start=1):
        shown = _card_ids_in(obs)
        for key, cards in game.state.zones.items():
            spec = rules.zones[key[0]]
            if _sees_zone(spec.visibility, key[1], viewer):
                continue
            for card in cards:
                shown_to = game.state.attrs[card.id][SHOWN] >> viewer & 1
                if card.id not in revealed and not shown_to and not (followed and watcher.saw_it_go(game, card, viewer)):
                    assert card.id not in shown, f"P{viewer} sees {card!r} in hidden zone {key}"
        for p in obs["players"]:
            for name, spec in rules.ruleset.player_attributes.items():
                if spec.visibility == "hidden" or (spec.visibility == "owner" and p["seat"] != viewer):
                    assert name not in p, f"P{viewer} sees P{p['seat']}.{name}"
        decision = obs["decision"]
        if decision is not None and decision["player"] != viewer:
            assert "options" not in decision
        elif decision is not None and "options" in decision:
            offered = {token for o in decision["options"] for token in str(o["id"]).split("+")}
            unseen = {f"c{c.id}" for c in game.state.cards.values() if not game.visible(c, viewer)}
            assert not offered & unseen, f"P{viewer}'s options name cards hidden from them: {offered & unseen}"


def private_decisions(game: Game) -> None:
    """Another player's decision with a private prompt shows only who decides."""
    pending = game.pending
    if pending is None or not game.rules.is_private(pending):
        return
    for viewer, obs in enumerate(observations(game), start=1):
        if viewer != pending.seat:
            assert obs["decision"] == {"player": pending.seat, "prompt": None, "site": None}, \
                f"P{viewer} sees P{pending.seat}'s private decision: {obs['decision']}"


def witnessed_events(game: Game) -> None:
    """Each event a player's observation lists is one they witnessed: not hidden, and if seen by
    the player in an argument, that player."""
    visibility = game.rules.ruleset.observing.event_visibility
    for viewer, obs in enumerate(observations(game), start=1):
        assert len(obs["seen"]) <= game.rules.seen_count
        for event in obs["seen"]:
            seen_by = visibility.get(event["event"])
            assert seen_by != HIDDEN, f"P{viewer} sees hidden event {event}"
            argument = witness_argument(seen_by) if seen_by else None
            if argument:
                assert event["args"].get(argument) == f"P{viewer}", f"P{viewer} sees {event}, not theirs"


def _plain(value) -> bool:
    """Only what JSON holds: dicts with text keys, lists, text, numbers (finite), booleans, null."""
    if value is None or isinstance(value, (bool, str)):
        return True
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def plain_json(game: Game) -> None:
    """Every observation, the pending decision's options and every new log entry are plain JSON."""
    for viewer, obs in enumerate(observations(game), start=1):
        assert _plain(obs), f"P{viewer}'s observation is not plain JSON: {obs!r}"
    if game.pending is not None:
        for option in game.decision()[1]:
            assert type(option.id) is str and type(option.label) is str and type(option.index) is int
    if game.state.logging:
        start = _JSON_CHECKED.get(id(game.state), 0)
        for entry in game.log_since(start):
            assert _plain(entry), f"log entry is not plain JSON: {entry!r}"
        _JSON_CHECKED.clear()  # (one game at a time is checked)
        _JSON_CHECKED[id(game.state)] = game.state.log_length


_JSON_CHECKED: dict[int, int] = {}  # how far the log of the game being checked was found plain


GENERIC = (zone_consistency, attribute_limits, hidden_information, private_decisions, witnessed_events, plain_json)


def playout(rules, seed: int, agent_seed: int, extra: Callable[[Game], None] | None = None,
            max_decisions: int = 20_000) -> tuple[Game, list[int]]:
    """Play one random game, checking every invariant after set-up and after every decision."""
    rng = random.Random(agent_seed)
    game = rules.new_game(seed=seed, watcher=Arrivals())
    choices: list[int] = []
    for check in GENERIC:
        check(game)
    if extra:
        extra(game)
    while not game.is_over:
        assert len(choices) < max_decisions, "the game did not end"
        _seat, options = game.decision()
        index = rng.randrange(len(options))
        choices.append(index)
        game.apply(index)
        for check in GENERIC:
            check(game)
        if extra:
            extra(game)
    return game, choices


def replay_log(rules, seed: int, choices: list[int]) -> list[dict]:
    game = rules.new_game(seed=seed)
    for index in choices:
        game.apply(index)
    return game.log


def played_out_log(rules, seed: int, choices: list[int], fast: bool = False) -> list[dict]:
    """The log of the game of these decisions played by `Game.play_out`, which does not stop
    the rules at each decision (see `replay_log`, which does); `fast`: by `Rules.play_out`."""
    answers = iter(choices)
    if fast:  # (from the start: `Rules.play_out`, the set-up and turns in their rollout form too)
        game = rules.play_out(lambda _game: next(answers), seed=seed, log=True)
        assert game.state.answered == len(choices)
        return game.log
    game = rules.new_game(seed=seed)
    assert game.play_out(lambda _game: next(answers)) == len(choices)
    return game.log


def random_position(rules, seed: int, decisions: int, log: bool = True) -> Game:
    """A new game (seed `seed`) after up to `decisions` random decisions (the generator seeded
    with `seed` too): a position for a test to start from."""
    game = rules.new_game(seed=seed, log=log)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(rng.randrange(len(game.decision()[1])))
    return game


def cards_of(game: Game, seat: int) -> list[CardRef]:
    """The non-token cards a player owns (cards nobody owns yet, such as an undrafted pile, excluded)."""
    out = []
    for c in game.state.cards.values():
        owner = game.state.attrs[c.id][OWNER]
        if not c.defn.token and owner is not None and owner.seat == seat:
            out.append(c)
    return out


def same_json(a: Game, b: Game) -> bool:
    return json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


def played_decisions(game: Game, agent) -> list[tuple[int, int, int]]:
    """Play `game` to its end, `agent(number of options)` giving each index: each decision's
    (seat, number of options, index), for comparing with a hand-written version's."""
    decisions = []
    while not game.is_over:
        seat, options = game.decision()
        index = agent(len(options))
        decisions.append((seat, len(options), index))
        game.apply(index)
    return decisions
