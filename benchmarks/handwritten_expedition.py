"""Expedition written by hand in plain Python: the speed baseline for the interpreter.

`python benchmarks/handwritten_expedition.py [--seconds 3] [--runs 5] [--seed 1]` prints the
median random games/s (one core, pinned to CPU 0 where the OS allows), the mean decisions and
tricks per game and the results (a shared result: every game counts under "draws", the seat of no
single winner; `shared_wins` counts the crew's wins). `games_per_second(seconds)` is the same
measure for benchmarks/run.py.

It plays docs/games/expedition.md (E-1.1 .. E-5.3) with the options of
rulesets/expedition/expedition.yaml (4 players and mission 2 by default; `players` 3 to 5 and
`mission` 1 to 10 may be given to `Game`), and asks the decisions that document's "Decisions"
section lists, at the same moments and with the same options in the same order:

- take a task (E-2.2): the tasks of the offer, in offer order, from the captain round the table;
  the last task left is taken unasked;
- signal (E-3.1, E-3.2): before each trick, from its leader round the table, each player who has
  not signalled yet: every card of the hand with a true claim, in hand order, then "no signal"
  (`PASS`); a player with no such card is not asked;
- play (E-4.1, E-4.2): every legal card of the hand, in hand order; one legal card is played
  without asking, as the interpreter's `choose` does (`forced` counts those).

Cards are numbers in the order of cards/expedition/deck.cards: a coloured card is suit * 9 +
rank - 1 (red, yellow, green, blue: 0..35), the flares F1..F4 are 36..39 and the task of card k
is 40 + k. The stock starts in that order (the made deck, F1 taken out with three players) and the
task pile in its own; the stock is shuffled with `random.Random(seed)` and dealt one card at a time
from P1, then the pile is shuffled (the game's only two random draws). A hand keeps the order its
cards came in. So with the same seed and the same agent it plays the very same game as
`load("expedition").new_game(seed=...)`, decision for decision: same seats, same options, same
result (tests/test_handwritten_expedition.py checks it). Benchmarks compare the same games.
Dealing, the order of play and a trick's winner are benchmarks/tricks.py's, shared by the
hand-written Hearts, Spades and Expedition.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import harness  # noqa: E402
from tricks import from_seat, shuffle_and_deal, trick_winner  # noqa: E402

PLAYERS = 4
MISSION = 2
SUITS = "RYGB"
SUIT_NAMES = ("red", "yellow", "green", "blue")
FLARES = 4                     # the suit index of the flares (card // 9 == 4 for 36..39)
F1, F4 = 36, 39
TASKS = 40                     # task of card k: TASKS + k
PASS = -1                      # "no signal"
ONLY, HIGHEST, LOWEST = "only", "highest", "lowest"


def card_name(card: int) -> str:
    """'R1' .. 'B9', 'F1' .. 'F4', and the tasks 'Win red 1' .. 'Win blue 9'."""
    if card >= TASKS:
        k = card - TASKS
        return f"Win {SUIT_NAMES[k // 9]} {k % 9 + 1}"
    if card >= F1:
        return f"F{card - F1 + 1}"
    return f"{SUITS[card // 9]}{card % 9 + 1}"


def claim_of(hand: list[int], card: int) -> str | None:
    """E-3.2: what a signal of `card` may say, or None."""
    suit = card // 9
    if suit == FLARES:
        return None
    same = [c for c in hand if c // 9 == suit]
    if len(same) == 1:
        return ONLY
    if card == max(same):
        return HIGHEST
    if card == min(same):
        return LOWEST
    return None


class Player:
    __slots__ = ("seat", "hand", "won", "tasks", "done", "claim", "signal")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hand = []             # in the order the cards came in
        self.won = []              # the cards of the tricks won (E-4.3)
        self.tasks = []            # open tasks, as the cards to win (E-2.2)
        self.done = []             # tasks met (E-2.3)
        self.claim = None          # E-3.2: None until the player signals
        self.signal = None

    def __repr__(self) -> str:
        return f"P{self.seat}"


class Game(harness.GeneratorDriven):
    __slots__ = ("rng", "players", "mission", "stock", "box", "pile", "offer", "table", "captain", "completed",
                 "forced", "trick", "step", "over", "winner", "winners", "losers", "reason", "pending", "_flow")

    def __init__(self, seed: int, players: int = PLAYERS, mission: int = MISSION) -> None:
        self.rng = random.Random(seed)
        self.players = tuple(Player(seat) for seat in range(1, players + 1))
        self.mission = mission
        self.stock = list(range(TASKS))            # E-1.2: the playing cards, in the card set's order
        self.box = []
        self.pile = list(range(TASKS, TASKS + 36))  # E-1.2: the task cards
        self.offer = []
        self.table = []            # the cards of the trick being played (E-4.1)
        self.captain = None
        self.completed = 0         # E-5.3: the crew's score
        self.forced = 0            # decisions not asked (one option)
        self.trick = 0             # tricks played
        self.step = "task"         # "task", "signal" or "play"
        self.over = False
        self.winner = None         # never one seat: the crew wins or loses together
        self.winners = ()
        self.losers = ()
        self.reason = ""
        self.start()

    def cards(self) -> list[int]:
        """Every card, wherever it is (E-1.2: the 76, once each)."""
        out = self.stock + self.box + self.pile + self.offer + self.table
        for p in self.players:
            out += p.hand + p.won + [TASKS + t for t in p.tasks + p.done]
        return out

    def _end(self, won: bool) -> None:
        seats = tuple(p.seat for p in self.players)
        self.winners, self.losers = (seats, ()) if won else ((), seats)
        self.reason = "every task is met" if won else "a task failed"
        self.over = True

    # ------------------------------------------------------------------ the game
    def _play(self):
        rng = self.rng
        players = self.players
        n = len(players)
        stock = self.stock
        # E-1.3: F1 out of a game of three; shuffle; one card at a time from P1
        if n == 3:
            stock.remove(F1)
            self.box.append(F1)
        shuffle_and_deal(rng, stock, players)
        captain = next(p for p in players if F4 in p.hand)        # E-1.4
        self.captain = captain
        # E-2.1, E-2.2: the mission's tasks, taken from the captain round the table
        rng.shuffle(self.pile)
        offer = self.offer
        offer += self.pile[:self.mission]
        del self.pile[:self.mission]
        k = captain.seat - 1
        while offer:
            p = players[k % n]
            if len(offer) > 1:
                task = offer[(yield p.seat, list(offer))]
            else:
                task = offer[0]
                self.forced += 1
            offer.remove(task)
            p.tasks.append(task - TASKS)
            k += 1
        leader = captain
        trick = self.table
        while True:
            # E-3.1: signals, from the leader round the table
            seats = from_seat(players, leader.seat)
            self.step = "signal"
            for p in seats:
                if p.claim is None:
                    hand = p.hand
                    options = [c for c in hand if claim_of(hand, c) is not None]
                    if not options:
                        self.forced += 1
                        continue
                    options.append(PASS)
                    card = options[(yield p.seat, options)]
                    if card != PASS:
                        p.claim = claim_of(hand, card)
                        p.signal = card
            # E-4.1, E-4.2: the trick
            self.step = "play"
            led = -1
            for p in seats:
                hand = p.hand
                legal = list(hand) if led < 0 else ([c for c in hand if c // 9 == led] or list(hand))
                if len(legal) > 1:
                    card = legal[(yield p.seat, legal)]
                else:
                    card = legal[0]
                    self.forced += 1
                hand.remove(card)
                trick.append(card)
                if led < 0:
                    led = card // 9
            # E-4.3: the highest flare, else the highest of the suit led
            winner = trick_winner(seats, trick, led, 9, F1)
            taken = list(trick)
            trick.clear()
            winner.won += taken
            leader = winner
            self.trick += 1
            # E-2.3, E-2.4, E-5.1, E-5.2
            if any(t in taken for p in players if p is not winner for t in p.tasks):
                self._end(False)
                return
            met = [t for t in winner.tasks if t in taken]
            for t in met:
                winner.tasks.remove(t)
                winner.done.append(t)
                self.completed += 1
            if not any(p.tasks for p in players):
                self._end(True)
                return


# ---------------------------------------------------------------------- measuring
def measure(seconds: float, seed: int = 1) -> dict:
    """Random games for `seconds`: games/s and the totals behind the means."""
    return harness.measure(Game, seconds, seed, "trick")


def games_per_second(seconds: float, seed: int = 1) -> float:
    return measure(seconds, seed)["games_per_s"]


def main(argv: list[str] | None = None) -> int:
    return harness.main("expedition", Game, __doc__.splitlines()[0], "trick", argv)


if __name__ == "__main__":
    sys.exit(main())
