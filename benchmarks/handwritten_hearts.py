"""Hearts written by hand in plain Python: the speed baseline for the interpreter.

`python benchmarks/handwritten_hearts.py [--seconds 3] [--runs 5] [--seed 1]` prints the median
random games/s (one core, pinned to CPU 0 where the OS allows), the mean decisions and deals per
game and the results. `games_per_second(seconds)` is the same measure for benchmarks/run.py.

It plays docs/games/hearts.md (H-1.1 .. H-4.3) for four players with the default options (passing
`rotate`, moon `others`, target 100; others may be given to `Game`), and asks the decisions that
document's "Decisions" section lists, at the same moments and with the same options in the same
order, so that it does the same work as the interpreted Hearts:

- pass (H-2.2): in seat order, each player chooses three times one card of their hand (every card,
  in hand order); on deal 1 to the left, 2 to the right, 3 across, 4 none, then again;
- play (H-3.2): every legal card of the hand, in hand order; one legal card is played without
  asking, as the interpreter's `choose` does (`forced` counts those: every deal plays 52 cards,
  and asks 12 passes more when it passes).

Cards are numbers, suit * 13 + rank - 2 (clubs, diamonds, spades, hearts; ranks 2..14), so the
hearts are 39..51 and a higher number of the same suit is the higher card. A hand is in the order
its cards came in: dealt one at a time from the top (the front) of the shuffled stock round the
table from player 1, received cards after them. At the start of each deal every card is gathered
into the stock (from the taken piles, in seat order) and shuffled with `random.Random(seed)`.
The interpreted version need not shuffle with the same calls: the two play different games of the
same rules, compared over many games.

The decision points are one generator: `decision()` returns the (seat, options) it yielded and
`apply(index)` sends the index back in. Dealing, the order of play and a trick's winner are
benchmarks/tricks.py's, shared by the hand-written Hearts, Spades and Expedition.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import harness  # noqa: E402
from tricks import from_seat, gather, shuffle_and_deal, suited_name, trick_winner  # noqa: E402

PLAYERS = 4
HAND_SIZE = 13
PASS_COUNT = 3
TARGET = 100
SUITS = "CDSH"
CLUBS, DIAMONDS, SPADES, HEARTS = range(4)
TWO_OF_CLUBS = CLUBS * 13                  # 0
QUEEN_OF_SPADES = SPADES * 13 + 12 - 2     # 36
FIRST_HEART = HEARTS * 13                  # 39
MOON = 26                                  # all 13 hearts and the queen of spades
# H-2.1: seats on from the passer, for deals 1, 2, 3, 4 of each cycle (0: nobody passes)
PASS_SHIFT = (1, PLAYERS - 1, 2, 0)


def card_name(card: int) -> str:
    """'2C' .. 'AH' (ranks 11..14 as J, Q, K, A)."""
    return suited_name(card, SUITS)


class Player:
    __slots__ = ("seat", "hand", "passing", "taken", "score")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hand = []             # in the order the cards came in
        self.passing = []          # the cards set aside to pass (H-2.2)
        self.taken = []            # the cards of the tricks won this deal (H-3.6)
        self.score = 0

    def __repr__(self) -> str:
        return f"P{self.seat}"


class Game(harness.GeneratorDriven):
    __slots__ = ("rng", "players", "stock", "trick", "deal", "forced", "ask_always", "tricks", "step", "passing", "moon",
                 "target", "over", "winner", "pending", "_flow")

    def __init__(self, seed: int, passing: str = "rotate", moon: str = "others", target: int = TARGET,
                 ask_always: bool = False) -> None:
        if passing not in ("rotate", "none") or moon not in ("others", "off"):
            raise ValueError(f"passing must be rotate or none, moon others or off: {passing!r}, {moon!r}")
        self.rng = random.Random(seed)
        self.players = tuple(Player(seat) for seat in range(1, PLAYERS + 1))
        self.stock = list(range(52))   # H-1.1: the card set, clubs first
        self.trick = []
        self.deal = 0                  # deals started
        self.forced = 0                # cards played without a decision (one legal card)
        self.ask_always = ask_always   # (tests: ask even with one legal card)
        self.tricks = 0                # tricks played in the game
        self.step = "pass"             # the deal's step: "pass" or "play"
        self.passing = passing
        self.moon = moon
        self.target = target
        self.over = False
        self.winner = None             # seat, or None for a draw
        self.start()

    def cards(self) -> list[int]:
        """Every card, wherever it is (H-1.1: the 52, once each)."""
        out = self.stock + self.trick
        for p in self.players:
            out += p.hand + p.passing + p.taken
        return out

    # ------------------------------------------------------------------ the game
    def _play(self):
        rng = self.rng
        players = self.players
        stock = self.stock
        trick = self.trick
        while True:
            self.deal += 1
            # H-1.2: gather, shuffle, deal one at a time from player 1
            gather(stock, players)
            shuffle_and_deal(rng, stock, players)
            # H-2: pass, each player in seat order choosing one card three times
            shift = PASS_SHIFT[(self.deal - 1) % 4] if self.passing == "rotate" else 0
            if shift:
                self.step = "pass"
                for p in players:
                    hand = p.hand
                    for _ in range(PASS_COUNT):
                        p.passing.append(hand.pop((yield p.seat, list(hand))))
                for p in players:
                    players[(p.seat - 1 + shift) % PLAYERS].hand += p.passing
                    p.passing.clear()
            # H-3: 13 tricks, the holder of the 2 of clubs leading the first
            self.step = "play"
            leader = next(p for p in players if TWO_OF_CLUBS in p.hand)
            broken = False
            for t in range(HAND_SIZE):
                first = t == 0
                order = from_seat(players, leader.seat)
                led = -1
                for p in order:
                    hand = p.hand
                    if led < 0:                                         # H-3.1, H-3.4
                        if first:
                            legal = [TWO_OF_CLUBS]
                        elif broken:
                            legal = list(hand)
                        else:
                            legal = [c for c in hand if c < FIRST_HEART] or list(hand)
                    else:                                               # H-3.3, H-3.5
                        legal = [c for c in hand if c // 13 == led]
                        if not legal:
                            if first:
                                legal = ([c for c in hand if c < FIRST_HEART and c != QUEEN_OF_SPADES]
                                         or list(hand))
                            else:
                                legal = list(hand)
                    if len(legal) > 1 or self.ask_always:
                        card = legal[(yield p.seat, legal)]
                    else:
                        card = legal[0]
                        self.forced += 1
                    hand.remove(card)
                    trick.append(card)
                    if led < 0:
                        led = card // 13
                # H-3.6: the highest card of the suit led wins
                leader = trick_winner(order, trick, led, 13)
                if not broken and any(c >= FIRST_HEART for c in trick):
                    broken = True
                leader.taken += trick
                trick.clear()
                self.tricks += 1
            if self._scored():
                return

    def _scored(self) -> bool:
        """H-4: the deal's points added (H-4.1, H-4.2); True when that ends the game (H-4.3)."""
        players = self.players
        points = [sum(1 for c in p.taken if c >= FIRST_HEART) + 13 * (QUEEN_OF_SPADES in p.taken)
                  for p in players]
        if MOON in points and self.moon == "others":
            points = [0 if n == MOON else MOON for n in points]
        for p, n in zip(players, points):
            p.score += n
        if max(p.score for p in players) < self.target:
            return False
        low = min(p.score for p in players)
        best = [p for p in players if p.score == low]
        self.winner = best[0].seat if len(best) == 1 else None
        self.over = True
        return True


# ---------------------------------------------------------------------- measuring
def measure(seconds: float, seed: int = 1) -> dict:
    """Random games for `seconds`: games/s and the totals behind the means."""
    return harness.measure(Game, seconds, seed, "deal")


def games_per_second(seconds: float, seed: int = 1) -> float:
    return measure(seconds, seed)["games_per_s"]


def main(argv: list[str] | None = None) -> int:
    return harness.main("hearts", Game, __doc__.splitlines()[0], "deal", argv)


if __name__ == "__main__":
    sys.exit(main())
