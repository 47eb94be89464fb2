"""Harvest written by hand in plain Python: the speed baseline for the interpreter.

`python benchmarks/handwritten_harvest.py [--seconds 3] [--runs 5] [--seed 1]` prints the median
random games/s (one core, pinned to CPU 0 where the OS allows), the mean decisions and turns per
game and the results. `games_per_second(seconds)` is the same measure for benchmarks/run.py.

It plays docs/games/harvest.md (D-1.1 .. D-5.8) with the default options (2 players, turn limit
100 rounds; others may be given to `Game`), and asks the decisions that document's "Decisions"
section lists, at the same moments and with the same options in the same order, so that it does
the same work as the interpreted Harvest:

- action (D-2.1): each distinct action card name in hand, in order of first appearance, then
  "stop"; asked while the player has an action and an action card in hand;
- buy (D-2.2): each distinct name in the supply costing at most the coins left, in supply order,
  then "stop"; asked while the player has a buy (with nothing affordable, only "stop" is left:
  as in the engine, one option is no decision, and the buy phase ends);
- gain (Workshop, D-5.6): each distinct name in the supply costing 4 or less (one option is taken
  without a decision, as the engine's `choose` does);
- trash a Copper? (Lender, D-5.7): yes, no; only when a Copper is in hand.

Cards are their kinds (indexes into CARDS, in the supply's order: the base cards of D-1.2 as
listed, then the kingdom of D-5). The supply is a count per kind; a pile's cards are alike, so
"in supply order of first appearance" is the order of the kinds with cards left. D-1.2 does not
give the Silver and Gold piles: 40 and 30, as in the classic base set. A deck is drawn from its
front (the top); the discard pile's top is its end. Decks are shuffled with `random.Random(seed)`;
the interpreted version need not shuffle with the same calls: the two play different games of the
same rules, compared over many games.

`turn` counts the turns taken by all players together (the game's length), `round` the rounds;
`step`, `actions`, `buys` and `coins` are the current turn's (D-2).

The decision points are one generator: `decision()` returns the (seat, options) it yielded and
`apply(index)` sends the index back in.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import harness  # noqa: E402

PLAYERS = 2
TURN_LIMIT = 100
HAND_SIZE = 5
WORKSHOP_LIMIT = 4
LENDER_COINS = 3
STOP = "stop"
YES_NO = ["yes", "no"]

TREASURE, VICTORY, CURSE_TYPE, ACTION = range(4)
# The card set in supply order: name, type, cost, worth (coins), victory points, pile (None: by
# the number of players, D-1.3).
CARDS = (
    ("Copper", TREASURE, 0, 1, 0, None),
    ("Silver", TREASURE, 3, 2, 0, 40),
    ("Gold", TREASURE, 6, 3, 0, 30),
    ("Estate", VICTORY, 2, 0, 1, None),
    ("Duchy", VICTORY, 5, 0, 3, None),
    ("Province", VICTORY, 8, 0, 6, None),
    ("Curse", CURSE_TYPE, 0, 0, -1, None),
    ("Hamlet", ACTION, 3, 0, 0, 10),
    ("Forge", ACTION, 4, 0, 0, 10),
    ("Bazaar", ACTION, 5, 0, 0, 10),
    ("Fair", ACTION, 5, 0, 0, 10),
    ("Study", ACTION, 5, 0, 0, 10),
    ("Workshop", ACTION, 3, 0, 0, 10),
    ("Lender", ACTION, 4, 0, 0, 10),
    ("Hex", ACTION, 5, 0, 0, 10),
)
(COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE, HAMLET, FORGE, BAZAAR, FAIR, STUDY, WORKSHOP,
 LENDER, HEX) = range(len(CARDS))
NAMES = [card[0] for card in CARDS]
TYPES = [card[1] for card in CARDS]
COSTS = [card[2] for card in CARDS]
WORTH = [card[3] for card in CARDS]
POINTS = [card[4] for card in CARDS]
STARTING_DECK = [COPPER] * 7 + [ESTATE] * 3   # D-1.4


def pile_sizes(players: int) -> list[int]:
    """D-1.2, D-1.3: the number of cards of each kind in the supply at the start."""
    sizes = []
    for kind, (_name, kind_type, _cost, _worth, _points, pile) in enumerate(CARDS):
        if kind == COPPER:
            pile = 60 - 7 * players
        elif kind == CURSE:
            pile = 10 * (players - 1)
        elif kind_type == VICTORY:
            pile = 8 if players == 2 else 12
        sizes.append(pile)
    return sizes


class Player:
    __slots__ = ("seat", "deck", "hand", "play", "discard", "turns")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.deck = list(STARTING_DECK)   # the front is the top
        self.hand = []
        self.play = []
        self.discard = []                 # the end is the top
        self.turns = 0

    def cards(self) -> list[int]:
        return self.deck + self.hand + self.play + self.discard

    def points(self) -> int:
        """D-3.2: the victory points of all the player's cards."""
        return sum(POINTS[k] for k in self.cards())

    def __repr__(self) -> str:
        return f"P{self.seat}"


class Game(harness.GeneratorDriven):
    __slots__ = ("rng", "players", "supply", "trash", "turn", "round", "turn_limit", "step", "actions",
                 "buys", "coins", "over", "winner", "reason", "pending", "_flow")

    def __init__(self, seed: int, players: int = PLAYERS, turn_limit: int = TURN_LIMIT) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"Harvest is for 2 to 4 players, not {players}")
        self.rng = random.Random(seed)
        self.players = tuple(Player(seat) for seat in range(1, players + 1))
        self.supply = pile_sizes(players)
        self.trash = []
        self.turn = 0                  # turns taken, all players together
        self.round = 0
        self.turn_limit = turn_limit   # rounds (D-3.3)
        self.over = False
        self.winner = None             # seat, or None for a draw
        self.reason = None
        self.step = "set-up"           # the current player's: action, gain, trash, buy, clean-up
        self.actions = self.buys = self.coins = 0
        self.start()

    def card_count(self) -> int:
        """The cards of the game over the supply, every player's zones and the trash."""
        return sum(self.supply) + sum(len(p.cards()) for p in self.players) + len(self.trash)

    # ------------------------------------------------------------------ the game
    def _play(self):
        players = self.players
        supply = self.supply
        for p in players:                                   # D-1.4
            self.rng.shuffle(p.deck)
            self._draw(p, HAND_SIZE)
        while True:
            self.round += 1
            for p in players:
                self.turn += 1
                p.turns += 1
                yield from self._turn(p)
                # D-3.1, D-3.3
                if not supply[PROVINCE]:
                    self._end("the Province pile is empty")
                elif supply.count(0) >= 3:
                    self._end("three supply piles are empty")
                elif self.round >= self.turn_limit and p is players[-1]:
                    self._end("turn limit reached")
                if self.over:
                    return

    def _turn(self, p: Player):
        supply = self.supply
        seat = p.seat
        hand = p.hand
        play = p.play
        self.actions = self.buys = 1
        self.coins = 0
        # D-2.1 action phase
        self.step = "action"
        while self.actions:
            kinds = []
            for k in hand:
                if TYPES[k] == ACTION and k not in kinds:
                    kinds.append(k)
            if not kinds:
                break
            options = [NAMES[k] for k in kinds]
            options.append(STOP)
            i = yield seat, options
            if i == len(kinds):
                break
            kind = kinds[i]
            hand.remove(kind)
            play.append(kind)
            self.actions -= 1
            yield from self._effect(p, kind)
            self.step = "action"
        # D-2.2 buy phase: the treasures, then the buys
        self.step = "buy"
        kept = []
        for k in hand:
            if TYPES[k] == TREASURE:
                self.coins += WORTH[k]
                play.append(k)
            else:
                kept.append(k)
        hand[:] = kept
        while self.buys:
            coins = self.coins
            kinds = [k for k, n in enumerate(supply) if n and COSTS[k] <= coins]
            if not kinds:
                break
            options = [NAMES[k] for k in kinds]
            options.append(STOP)
            i = yield seat, options
            if i == len(kinds):
                break
            kind = kinds[i]
            self._gain(p, kind)
            self.coins -= COSTS[kind]
            self.buys -= 1
        # D-2.3 clean-up
        self.step = "clean-up"
        p.discard += hand
        p.discard += play
        hand.clear()
        play.clear()
        self._draw(p, HAND_SIZE)
        self.actions = self.buys = self.coins = 0

    def _effect(self, p: Player, kind: int):
        """D-5: what an action card does when played."""
        if kind == HAMLET:
            self._draw(p, 1)
            self.actions += 2
        elif kind == FORGE:
            self._draw(p, 3)
        elif kind == BAZAAR:
            self._draw(p, 1)
            self.actions += 1
            self.buys += 1
            self.coins += 1
        elif kind == FAIR:
            self.actions += 2
            self.buys += 1
            self.coins += 2
        elif kind == STUDY:
            self._draw(p, 2)
            self.actions += 1
        elif kind == WORKSHOP:
            supply = self.supply
            kinds = [k for k, n in enumerate(supply) if n and COSTS[k] <= WORKSHOP_LIMIT]
            if len(kinds) > 1:
                self.step = "gain"
                self._gain(p, kinds[(yield p.seat, [NAMES[k] for k in kinds])])
            elif kinds:
                self._gain(p, kinds[0])
        elif kind == LENDER:
            if COPPER in p.hand:
                self.step = "trash"
                if (yield p.seat, YES_NO) == 0:
                    p.hand.remove(COPPER)
                    self.trash.append(COPPER)
                    self.coins += LENDER_COINS
        elif kind == HEX:
            self._draw(p, 2)
            players = self.players
            n = len(players)
            for j in range(1, n):                           # from the next player, in seat order
                if self.supply[CURSE]:
                    self._gain(players[(p.seat - 1 + j) % n], CURSE)

    def _draw(self, p: Player, n: int) -> None:             # D-2.4
        deck = p.deck
        for _ in range(n):
            if not deck:
                if not p.discard:
                    return
                deck += p.discard
                p.discard.clear()
                self.rng.shuffle(deck)
            p.hand.append(deck.pop(0))

    def _gain(self, p: Player, kind: int) -> None:          # D-2.5
        self.supply[kind] -= 1
        p.discard.append(kind)

    def _end(self, reason: str) -> None:                    # D-3.2
        self.over = True
        self.reason = reason
        points = [p.points() for p in self.players]
        best = max(points)
        tied = [p for p, n in zip(self.players, points) if n == best]
        fewest = min(p.turns for p in tied)
        tied = [p for p in tied if p.turns == fewest]
        self.winner = tied[0].seat if len(tied) == 1 else None


# ---------------------------------------------------------------------- measuring
def measure(seconds: float, seed: int = 1) -> dict:
    """Random games for `seconds`: games/s and the totals behind the means."""
    return harness.measure(Game, seconds, seed, "turn")


def games_per_second(seconds: float, seed: int = 1) -> float:
    return measure(seconds, seed)["games_per_s"]


def main(argv: list[str] | None = None) -> int:
    return harness.main("harvest", Game, __doc__.splitlines()[0], "turn", argv)


if __name__ == "__main__":
    sys.exit(main())
