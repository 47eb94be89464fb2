"""Spades written by hand in plain Python: the speed baseline for the interpreter.

`python benchmarks/handwritten_spades.py [--seconds 3] [--runs 5] [--seed 1]` prints the median
random games/s (one core, pinned to CPU 0 where the OS allows), the mean decisions and deals per
game and the results. `games_per_second(seconds)` is the same measure for benchmarks/run.py.

It plays docs/games/spades.md (S-1.1 .. S-5.4) for four players in two partnerships (P1 and P3
against P2 and P4) with the options of rulesets/spades/spades.yaml (target 500, lose_at -200,
blind_nil off, no deal_limit by default; others may be given to `Game`), and asks the decisions
that document's "Decisions" section lists, at the same moments and with the same options in the
same order:

- blind nil (S-2.4, only with the option): before the cards are dealt, each player from the
  dealer's left is asked yes or no (no first, as `may` offers them);
- bid (S-2.1): each player from the dealer's left who did not bid blind nil chooses among 0 (nil)
  to 13, in that order;
- play (S-3.1 .. S-3.3): every legal card of the hand, in hand order; one legal card is played
  without asking, as the interpreter's `choose` does (`forced` counts those).

Cards are numbers, suit * 13 + rank - 2 (clubs, diamonds, hearts, spades; ranks 2..14): the order of
cards/spades/deck.cards, so the spades are 39..51 and a higher number of a suit is the higher card.
The stock starts in that order (the made deck); each deal gathers the taken piles into it in seat
order, shuffles it with `random.Random(seed)` (the game's only random draw) and deals it one card
at a time from the dealer's left; a hand keeps the order its cards came in, a taken pile the order
of its tricks' cards. So with the same seed and the same agent it plays the very same game as
`load("spades").new_game(seed=...)`, decision for decision: same seats, same options, same
winners and deals (tests/test_handwritten_spades.py checks it). Benchmarks compare the same games.

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
TARGET = 500
LOSE_AT = -200
SUITS = "CDHS"
SPADES = 3
FIRST_SPADE = SPADES * 13                  # 39
BIDS = tuple(range(14))                    # S-2.1: 0 is nil
NIL = 100                                  # S-4.4 (blind nil: twice)
BAG_LIMIT = 10                             # S-4.5
BAG_PENALTY = 100


def card_name(card: int) -> str:
    """'2C' .. 'AS' (ranks 11..14 as J, Q, K, A)."""
    return suited_name(card, SUITS)


class Player:
    __slots__ = ("seat", "hand", "taken", "bid", "blind", "tricks")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hand = []             # in the order the cards came in
        self.taken = []            # the cards of the tricks won this deal (S-3.4)
        self.bid = None            # S-2.1: None until the player bids; 0 is nil
        self.blind = False         # S-2.4
        self.tricks = 0

    def __repr__(self) -> str:
        return f"P{self.seat}"


class Team:
    __slots__ = ("number", "members", "points", "bags")

    def __init__(self, number: int, members: tuple) -> None:
        self.number = number
        self.members = members     # S-1.1: seats 1 and 3, seats 2 and 4
        self.points = 0
        self.bags = 0


class Game(harness.GeneratorDriven):
    __slots__ = ("rng", "players", "teams", "stock", "trick", "deal", "forced", "tricks", "target",
                 "lose_at", "blind_nil", "deal_limit", "step", "over", "winner", "winners", "pending", "_flow")

    def __init__(self, seed: int, target: int = TARGET, lose_at: int | None = LOSE_AT, blind_nil: bool = False,
                 deal_limit: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.players = tuple(Player(seat) for seat in range(1, PLAYERS + 1))
        p = self.players
        self.teams = (Team(1, (p[0], p[2])), Team(2, (p[1], p[3])))
        self.stock = list(range(52))   # S-1.2: the card set, clubs first, spades last
        self.trick = []
        self.deal = 0                  # deals started
        self.forced = 0                # cards played without a decision (one legal card)
        self.tricks = 0                # tricks played in the game
        self.step = "bid"              # the deal's step: "blind", "bid" or "play"
        self.target = target
        self.lose_at = lose_at
        self.blind_nil = blind_nil
        self.deal_limit = deal_limit
        self.over = False
        self.winner = None             # the first seat of the winning team, or None for a draw
        self.winners = ()              # the seats of the winning team
        self.start()

    def cards(self) -> list[int]:
        """Every card, wherever it is (S-1.2: the 52, once each)."""
        out = self.stock + self.trick
        for p in self.players:
            out += p.hand + p.taken
        return out

    # ------------------------------------------------------------------ the game
    def _play(self):
        rng = self.rng
        players = self.players
        stock = self.stock
        trick = self.trick
        while True:
            self.deal += 1
            # S-1.3: the dealer of deal 1 is P4, then the deal passes left
            dealer = (self.deal + 2) % PLAYERS             # (an index: P4 is 3)
            order = from_seat(players, dealer + 2)         # from the dealer's left
            gather(stock, players)
            for p in players:
                p.bid = None
                p.blind = False
                p.tricks = 0
            broken = False
            if self.blind_nil:                            # S-2.4: before the cards are dealt
                self.step = "blind"
                for p in order:
                    if (yield p.seat, [True, False]) == 0:
                        p.bid = 0
                        p.blind = True
            # S-1.4: shuffle, deal one at a time from the dealer's left
            shuffle_and_deal(rng, stock, order)
            # S-2.1: bids in the same order
            self.step = "bid"
            for p in order:
                if not p.blind:
                    p.bid = yield p.seat, list(BIDS)
            # S-3: 13 tricks, the player on the dealer's left leading the first
            leader = order[0]
            self.step = "play"
            for _ in range(HAND_SIZE):
                seats = from_seat(players, leader.seat)
                led = -1
                for p in seats:
                    hand = p.hand
                    if led < 0:                                         # S-3.3
                        legal = list(hand) if broken else [c for c in hand if c < FIRST_SPADE] or list(hand)
                    else:                                               # S-3.2
                        legal = [c for c in hand if c // 13 == led] or list(hand)
                    if len(legal) > 1:
                        card = legal[(yield p.seat, legal)]
                    else:
                        card = legal[0]
                        self.forced += 1
                    hand.remove(card)
                    trick.append(card)
                    if led < 0:
                        led = card // 13
                    if card >= FIRST_SPADE:
                        broken = True
                # S-3.4: the highest spade, else the highest card of the suit led
                leader = trick_winner(seats, trick, led, 13, FIRST_SPADE)
                leader.tricks += 1
                leader.taken += trick
                trick.clear()
                self.tricks += 1
            # S-4: the teams' scores
            for team in self.teams:
                bidders = [p for p in team.members if p.bid]
                contract = sum(p.bid for p in bidders)
                won = sum(p.tricks for p in bidders)
                if won >= contract:                                     # S-4.2
                    bags = won - contract
                    points = 10 * contract + bags
                else:                                                   # S-4.3
                    bags = 0
                    points = -10 * contract
                for p in team.members:                                  # S-4.4
                    if not p.bid:
                        value = 2 * NIL if p.blind else NIL
                        points += value if p.tricks == 0 else -value
                team.points += points
                team.bags += bags
                while team.bags >= BAG_LIMIT:                           # S-4.5
                    team.bags -= BAG_LIMIT
                    team.points -= BAG_PENALTY
            # S-5
            a, b = self.teams[0].points, self.teams[1].points
            ended = a >= self.target or b >= self.target
            if self.lose_at is not None and (a <= self.lose_at or b <= self.lose_at):
                ended = True
            if self.deal_limit is not None and self.deal >= self.deal_limit:
                if a == b:
                    self.over = True
                    return
                ended = True
            if ended and a != b:
                team = self.teams[0] if a > b else self.teams[1]
                self.winners = tuple(p.seat for p in team.members)
                self.winner = self.winners[0]
                self.over = True
                return


# ---------------------------------------------------------------------- measuring
def measure(seconds: float, seed: int = 1) -> dict:
    """Random games for `seconds`: games/s and the totals behind the means."""
    return harness.measure(Game, seconds, seed, "deal")


def games_per_second(seconds: float, seed: int = 1) -> float:
    return measure(seconds, seed)["games_per_s"]


def main(argv: list[str] | None = None) -> int:
    return harness.main("spades", Game, __doc__.splitlines()[0], "deal", argv)


if __name__ == "__main__":
    sys.exit(main())
