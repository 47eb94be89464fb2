"""What the interpreter's bookkeeping costs code of the hand-written shape: `python
benchmarks/bookkeeping_bound.py [--seconds 1.5] [--rounds 5] [--seed 1]`.

Issue 31 asks random games at 0.5 of the hand-written versions' speed. Code of their shape
generated from the rules (cards as integers, the game's values as locals, one generator: a second
back end of the compiler) would still keep what the engine keeps for everything else a game
offers: observations, determinization, the step-by-step API. This is benchmarks/
handwritten_hearts.py playing the very same games (the same seed gives the same decisions, with
the same options) while keeping that bookkeeping as cheaply as plain Python can, level by level:

- `moves`: each card moves as the rules move it, one call a card that keeps its zone (Hearts
  deals one card at a time, `move first(stock()) to hand(p)`; gathers and passes card by
  card), where the hand-written version slices and concatenates lists;
- `rows`: and each card has a row of what belongs to its place (its first owner and controller,
  whether it was dealt out of view, the seats that know where it is, looked up in a table by
  zone pair as `Rules.known_masks` is, and a time stamp from the game's clock);
- `events`: and the chain of witnessed events (`played` and `took`, each with its arguments),
  as observations list them;
- `decisions`: and each decision is an object (seat, prompt, values), as `Pending` is.

It prints each level's random games/s over the plain hand-written version's, the levels and
the plain version alternating round by round (the order swapped each round), in CPU time; the
median of the rounds. A second back end that kept all of it, with generated code as good as this,
would be bounded by the last line (docs/performance.md, "What random play at 0.5 would take").
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import handwritten_hearts as plain  # noqa: E402
import harness  # noqa: E402
from tricks import from_seat, trick_winner  # noqa: E402

LEVELS = ("moves", "rows", "events", "decisions")
STOCK, TRICK, HAND, PASSING, TAKEN = 0, 1, 10, 20, 30  # zone ids; a player's: + seat
OWNER, CONTROLLER, STAMP, DEALT, KNOWN = range(5)       # a card's row


def known_mask(old: int, new: int) -> int:
    """Who knows where a card is after it moved from zone `old` to `new`: the seat that held it in
    a hand or set it aside (zones only their holder sees), when it goes to another player's."""
    holder = old % 10 if old >= HAND and old < TAKEN else 0
    return 1 << holder if holder and new % 10 != holder and new >= HAND else 0


KNOWN_MASKS = tuple(tuple(known_mask(old, new) for new in range(40)) for old in range(40))


class Decision:
    """A decision as the interpreter offers one: its seat, prompt and values."""

    __slots__ = ("seat", "prompt", "values")

    def __init__(self, seat: int, prompt: str, values: list[int]) -> None:
        self.seat = seat
        self.prompt = prompt
        self.values = values

    def __len__(self) -> int:
        return len(self.values)


class Game(plain.Game):
    """The hand-written Hearts keeping the bookkeeping of `level` (see the module) and all below."""

    __slots__ = ("level", "rows", "where", "seen", "clock")

    def __init__(self, seed: int, level: str = "decisions", **options) -> None:
        if level not in LEVELS:
            raise ValueError(f"level is one of {', '.join(LEVELS)}: {level!r}")
        self.level = LEVELS.index(level)
        self.rows = [[None, None, 0, False, 0] for _ in range(52)]
        self.where = [STOCK] * 52
        self.seen = None
        self.clock = 0
        super().__init__(seed, **options)

    def _mover(self):
        """The function that moves a card from one list (zone) to another, keeping the rows from
        the `rows` level on."""
        where, rows = self.where, self.rows

        def move_card(card: int, src: list, dst: list, zone: int) -> None:
            src.remove(card)
            dst.append(card)
            where[card] = zone

        def move_kept(card: int, src: list, dst: list, zone: int) -> None:
            src.remove(card)
            dst.append(card)
            old = where[card]
            if old != zone:
                where[card] = zone
                row = rows[card]
                if row[OWNER] is None and zone >= HAND:
                    row[OWNER] = row[CONTROLLER] = zone % 10
                    row[DEALT] = True
                row[KNOWN] = KNOWN_MASKS[old][zone]
                self.clock = row[STAMP] = self.clock + 1

        return move_kept if self.level >= LEVELS.index("rows") else move_card

    def _play(self):
        rng, players, stock, trick = self.rng, self.players, self.stock, self.trick
        move = self._mover()
        events = self.level >= LEVELS.index("events")
        objects = self.level >= LEVELS.index("decisions")
        while True:
            self.deal += 1
            for p in players:  # H-1.2: gather, shuffle, deal one at a time from player 1
                for card in list(p.taken):
                    move(card, p.taken, stock, STOCK)
            rng.shuffle(stock)
            for _ in range(plain.HAND_SIZE):
                for p in players:
                    move(stock[0], stock, p.hand, HAND + p.seat)
            shift = plain.PASS_SHIFT[(self.deal - 1) % 4] if self.passing == "rotate" else 0
            if shift:  # H-2
                self.step = "pass"
                for p in players:
                    hand = p.hand
                    for _ in range(plain.PASS_COUNT):
                        options = list(hand)
                        index = yield p.seat, (Decision(p.seat, "pass a card", options) if objects else options)
                        move(options[index], hand, p.passing, PASSING + p.seat)
                for p in players:
                    to = players[(p.seat - 1 + shift) % plain.PLAYERS]
                    for card in list(p.passing):
                        move(card, p.passing, to.hand, HAND + to.seat)
            self.step = "play"  # H-3
            leader = next(p for p in players if plain.TWO_OF_CLUBS in p.hand)
            broken = False
            for t in range(plain.HAND_SIZE):
                first = t == 0
                order = from_seat(players, leader.seat)
                led = -1
                for p in order:
                    hand = p.hand
                    if led < 0:
                        if first:
                            legal = [plain.TWO_OF_CLUBS]
                        elif broken:
                            legal = list(hand)
                        else:
                            legal = [c for c in hand if c < plain.FIRST_HEART] or list(hand)
                    else:
                        legal = [c for c in hand if c // 13 == led]
                        if not legal:
                            if first:
                                legal = ([c for c in hand if c < plain.FIRST_HEART and c != plain.QUEEN_OF_SPADES]
                                         or list(hand))
                            else:
                                legal = list(hand)
                    if len(legal) > 1 or self.ask_always:
                        card = legal[(yield p.seat, (Decision(p.seat, "play a card", legal) if objects else legal))]
                    else:
                        card = legal[0]
                        self.forced += 1
                    move(card, hand, trick, TRICK)
                    if events:
                        self.seen = ("played", {"player": p.seat, "card": card}, 0, self.seen)
                    if led < 0:
                        led = card // 13
                leader = trick_winner(order, trick, led, 13)  # H-3.6
                if not broken and any(c >= plain.FIRST_HEART for c in trick):
                    broken = True
                for card in list(trick):
                    move(card, trick, leader.taken, TAKEN + leader.seat)
                if events:
                    self.seen = ("took", {"player": leader.seat}, 0, self.seen)
                self.tricks += 1
            if self._scored():
                return


def level_game(level: str):
    """`Game` at one level, as a class `harness.measure` can make from a seed alone."""
    return lambda seed: Game(seed, level)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5, help="length of one timed run")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    pinned = harness.pin_one_core()
    makers = {"plain": plain.Game, **{level: level_game(level) for level in LEVELS}}
    rates: dict[str, list[float]] = {name: [] for name in makers}
    for r in range(args.rounds):
        for name in (list(makers) if r % 2 == 0 else list(makers)[::-1]):
            rates[name].append(harness.measure(makers[name], args.seconds, args.seed, "deal")["games_per_s"])
    base = statistics.median(rates["plain"])
    print(f"Hearts, random games/s, median of {args.rounds} rounds ({pinned}, python {sys.version.split()[0]}):")
    for name, values in rates.items():
        print(f"  {name:10s} {statistics.median(values):8.1f}  {statistics.median(values) / base:.3f} of plain")
    return 0


if __name__ == "__main__":
    sys.exit(main())
