"""A game's summary record, the unit of every balance figure (docs/balance.md "Records").

`RecordWatcher` follows a game as it is played (the engine's `GameWatcher`, and the function that
answers its decisions, wrapped by `deciding`): when the first turn begins it notes each player's
cards (their deck); when a player is first asked a decision it notes what is in their hand zone
(their opening hand: what the shuffle dealt them, before any choice of theirs, a mulligan
included); then it counts the cards that come into a player's hand (drawn), with the turn each
card was first drawn, and, where the ruleset names no event for it, the cards that go from a hand
to a public zone (played); at each turn's start it asks the ruleset's score who leads. `game_record` adds what the log says (the played, picked and offered
events the ruleset's `statistics:` names) and the result. All of it comes from the ruleset's zones
and events: nothing here knows a game.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..engine.game import Game
from ..lang.values import CardRef, PlayerRef


class RecordWatcher:
    def __init__(self, rules, deck_names: list[str] | None = None) -> None:
        self.stats = rules.statistics
        players = rules.player_count
        self.deck_names = deck_names
        self.started = False
        self.turns = 0
        self.first_player: int | None = None
        self.deck = [Counter() for _ in range(players)]
        self.opening = [Counter() for _ in range(players)]
        self.opened = [False] * players  # the player's opening hand was taken (at their first decision)
        self.drawn = [Counter() for _ in range(players)]
        self.first_drawn: list[dict[str, int]] = [{} for _ in range(players)]  # card -> turn first drawn
        self.played = [Counter() for _ in range(players)]
        self.leader: int | None = None
        self.lead_changes: int | None = 0 if self.stats.score is not None else None

    def turn_began(self, game) -> None:
        self.turns += 1
        if not self.started:
            self.started = True
            self._first_turn(game)
        if self.lead_changes is not None:
            self._lead(game)

    def shuffled(self, game, key) -> None:
        pass

    def deciding(self, decide):
        """`decide` (the function that answers a game's decisions), noting each player's opening
        hand when they are first asked."""
        opened = self.opened

        def watched(game):
            seat = game.pending.seat
            if 0 < seat <= len(opened) and not opened[seat - 1]:
                self.take_opening(game, seat)
            return decide(game)

        return watched

    def take_opening(self, game: Game, seat: int) -> None:
        """The cards in the player's hand zone now are their opening hand."""
        self.opened[seat - 1] = True
        hand = self.stats.hand
        if hand is None:
            return
        for card in game.cards.values():
            place = game.where(card)
            if place is not None and place[0][0] == hand and place[0][1] == seat:
                self.opening[seat - 1][card.defn.name] += 1

    def _first_turn(self, game) -> None:
        active = game.globals.get("active")
        self.first_player = active.seat if isinstance(active, PlayerRef) else None
        for _key, cards in game.zones.items():
            for card in cards:
                owner = game.read(card, "owner")
                if isinstance(owner, PlayerRef):
                    self.deck[owner.seat - 1][card.defn.name] += 1

    def _lead(self, game) -> None:
        scores = [game.rules.score_of(Game(game), p.seat) for p in game.players]
        best = max(scores)
        leaders = [seat for seat, s in enumerate(scores, start=1) if s == best]
        if len(leaders) != 1:
            return
        if self.leader is not None and leaders[0] != self.leader:
            self.lead_changes += 1
        self.leader = leaders[0]

    def moved(self, game, card: CardRef, old, new) -> None:
        hand = self.stats.hand
        if new[0] == hand and old[0] != hand and new[1]:
            if self.opened[new[1] - 1]:
                name = card.defn.name
                self.drawn[new[1] - 1][name] += 1
                self.first_drawn[new[1] - 1].setdefault(name, self.turns)
            return
        if not self.started:
            return
        if (old[0] == hand and not self.stats.played_events and new[0] in self.stats.public_zones
              and old[1]):
            self.played[old[1] - 1][card.defn.name] += 1


def game_record(rules, game, watcher: RecordWatcher, seed: int, agents: tuple[str, ...]) -> dict[str, Any]:
    """The record of a finished game (played with logging on and `watcher` following it)."""
    stats = rules.statistics
    players = rules.player_count
    played = watcher.played
    picked = [Counter() for _ in range(players)]
    offers: list[dict] = []
    open_offers: dict[int, dict] = {}
    played_events = set(stats.played_events)
    for entry in game.log_since(0, values=True):
        if entry["type"] != "event":
            continue
        name, args = entry["event"], entry["args"]
        if name in played_events:
            seat = _seat_of(game, args, "card")
            if seat:
                played[seat - 1][args["card"].defn.name] += 1
        if name == stats.picked_event:
            seat = _seat_of(game, args, "card")
            card = args.get("card")
            if seat and isinstance(card, CardRef):
                picked[seat - 1][card.defn.name] += 1
                offer = open_offers.pop(card.id, None)
                if offer is not None:
                    offer["picks"].append(card.defn.name)
        if name == stats.offered_event:
            cards = [c for c in args.get("cards") or () if isinstance(c, CardRef)]
            offer = {"cards": [c.defn.name for c in cards], "picks": []}
            offers.append(offer)
            open_offers.update((c.id, offer) for c in cards)
    for seat in range(1, players + 1):  # (a player never asked a decision: their hand at the end)
        if not watcher.opened[seat - 1]:
            watcher.take_opening(game, seat)
    result = game.result
    names = watcher.deck_names
    record = _base_record(rules, seed, agents)
    record.update(winner=result.winner, draw=result.draw, unfinished=result.unfinished, reason=result.reason,
                  timeout=result.reason in stats.timeouts, first_player=watcher.first_player,
                  turns=result.turns, decisions=game.decision_count, lead_changes=watcher.lead_changes,
                  **shared_result(rules, result))
    record["players"] = [
        {"seat": seat, "agent": agents[seat - 1], "won": seat in result.winners,
         "deck_name": names[seat - 1] if names else None,
         "deck": _sorted(watcher.deck[seat - 1]), "opening": _sorted(watcher.opening[seat - 1]),
         "drawn": _sorted(watcher.drawn[seat - 1]), "first_drawn": dict(sorted(watcher.first_drawn[seat - 1].items())),
         "played": _sorted(played[seat - 1]),
         "picked": _sorted(picked[seat - 1]), "counters": rules.counters_of(game, seat)}
        for seat in range(1, players + 1)]
    record["offers"] = offers
    return record


def result_record(rules, game, seed: int, agents: tuple[str, ...]) -> dict[str, Any]:
    """The short record of a finished game: its result, without per-card figures."""
    result = game.result
    record = _base_record(rules, seed, agents)
    record.update(winner=result.winner, draw=result.draw, unfinished=result.unfinished, reason=result.reason,
                  timeout=result.reason in rules.statistics.timeouts, turns=result.turns, decisions=game.decision_count,
                  **shared_result(rules, result))
    return record


def shared_result(rules, result) -> dict[str, Any]:
    """The keys of a record that say a result of teams, shared or scored (issue 32): `winners`
    (the seats that won, sorted: several for a team or a shared win; [] for a draw or a shared
    loss), `scores` (per seat, as numbers, in a ruleset with `score:`, else None), `teams` (the
    partnerships, lists of seats, else None) and `team_names` (theirs, else None)."""
    return {"winners": list(result.winners),
            "scores": [float(s) for s in result.scores] if result.scores is not None else None,
            "teams": [list(t) for t in result.teams] if result.teams is not None else None,
            "team_names": [t.name for t in rules.team_refs] if result.teams is not None else None}


def aborted_record(rules, seed: int, agents: tuple[str, ...], reason: str, rule: str | None,
                   turns: int | None) -> dict[str, Any]:
    """The record of a game that could not finish: a runaway rule, a rule error, an agent's error.
    (A game stopped at its cap of decisions is no error: its record says `unfinished`.)"""
    record = _base_record(rules, seed, agents)
    record.update(winner=None, draw=False, aborted=True, reason=reason, rule=rule, turns=turns, decisions=None)
    return record


def _base_record(rules, seed: int, agents: tuple[str, ...]) -> dict[str, Any]:
    return {"seed": seed, "ruleset": rules.name, "title": rules.title, "options": dict(rules.options),
            "agents": list(agents), "winner": None, "winners": [], "scores": None,
            "teams": [list(t.seats) for t in rules.team_refs] if rules.teams is not None else None,
            "team_names": [t.name for t in rules.team_refs] if rules.teams is not None else None,
            "draw": False, "aborted": False, "unfinished": False, "reason": "", "rule": None,
            "timeout": False, "first_player": None, "turns": None, "decisions": None, "lead_changes": None,
            "decks": None, "players": [], "offers": []}


def _seat_of(game, args: dict, card_arg: str) -> int | None:
    """Who an event is about: its `player` argument, else the owner of its card."""
    player = args.get("player")
    if isinstance(player, PlayerRef):
        return player.seat
    card = args.get(card_arg)
    if isinstance(card, CardRef) and card.id in game.cards:
        owner = game.read(card, "owner")
        if isinstance(owner, PlayerRef):
            return owner.seat
    return None


def _sorted(counts: Counter) -> dict[str, int]:
    return dict(sorted(counts.items()))
