"""What a flat back end of the compiler would run for Hearts' play-outs: `python
benchmarks/flat_bound.py [--seconds 1.5] [--rounds 5] [--seed 1]`.

Issue 31 asks random games at 0.5 of the hand-written versions' speed. benchmarks/
bookkeeping_bound.py showed that code of the hand-written shape keeping all of the engine's
bookkeeping is bounded by about 0.5. This is the other side: code written as a second back end
would write it from the rules' lowered form (rulesets/hearts/hearts.rules, function for function,
statement for statement, in their order), not as a person writes Hearts, over flat data and
without what nothing in a random play-out reads:

- cards are handles (objects with an id, as the engine's `CardRef`), their printed attributes read
  from columns (one list per attribute, by card id) made from the ruleset's own cards;
- zones are lists numbered at load (`hand(p)` is `zones[HAND[p]]`), each card's zone a column;
- the game's values and each player's attributes are slots of lists, players their seats;
- a decision is asked of a decider by count (`choose(seat, n)`), with the decisions' cap, and a
  choice with one option is taken without asking, as the engine does;
- the turn structure (rounds, phases, `until`) and the end conditions checked after
  `deal_scored` are written out where they apply; the step budget is counted per turn;
- nothing is kept of what each player saw, nor time stamps (Hearts' rules read none), as in a
  play-out by count.

It plays the hand-written version's games decision for decision (tests/test_flat_bound.py): the
same seed gives the same deals, the same options in the same order and the same result. It prints
its random games/s over the hand-written version's, the two alternating round by round (the order
swapped each round), in CPU time: the median of the rounds (docs/performance.md, "What a flat back
end would give").
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import handwritten_hearts as plain  # noqa: E402
import harness  # noqa: E402

PLAYERS = (1, 2, 3, 4)
STOCK, TRICK = 0, 1
HAND, PASSING, TAKEN = (None, 2, 3, 4, 5), (None, 6, 7, 8, 9), (None, 10, 11, 12, 13)
ZONES = 14
TURN, ACTIVE, LEADER, LED, BROKEN, DEAL, TRICKS, PHASE = range(8)  # the game's values
STEP_BUDGET = 100_000
MAX_DECISIONS = 100_000


class Card:
    """A card's handle, as the engine's `CardRef` is one: its id indexes the columns."""

    __slots__ = ("id",)

    def __init__(self, card_id: int) -> None:
        self.id = card_id


def _columns() -> tuple[list, list, list]:
    """The printed suit, rank and points of each card, by id, read from the ruleset's own cards
    (id = the hand-written version's number for the card of that name)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from interpreter import load

    game = load("hearts").new_game(seed=0, log=False)
    by_name = {card.defn.name: card for card in game.cards.values()}
    cards = [by_name[plain.card_name(number)] for number in range(52)]
    return tuple([game.read(card, name) for card in cards] for name in ("suit", "rank", "points"))


SUIT, RANK, POINTS = _columns()
CARDS = [Card(number) for number in range(52)]


class Capped(Exception):
    """A decision due past the cap of decisions: the game ends unfinished."""


class State:
    """A game's flat state."""

    __slots__ = ("zones", "where", "g", "score", "deal_points", "rng", "choose", "decisions", "steps_left",
                 "winner", "over", "options")

    def __init__(self, seed: int, choose: Callable[[int, int], int]) -> None:
        self.zones: list[list[Card]] = [[] for _ in range(ZONES)]
        self.zones[STOCK] = list(CARDS)
        self.where = [STOCK] * len(CARDS)
        self.g: list = [0, None, None, None, False, 0, 0, None]
        self.score = [0] * (len(PLAYERS) + 1)
        self.deal_points = [0] * (len(PLAYERS) + 1)
        self.rng = random.Random(seed)
        self.choose = choose
        self.decisions = 0
        self.steps_left = STEP_BUDGET
        self.winner = None
        self.over = False
        self.options = {"passing": "rotate", "moon": "others", "target": plain.TARGET}


def ask(s: State, values: list, seat: int):
    """`choose ... from values by seat`."""
    n = len(values)
    if n < 2:
        return values[0] if n else None
    d = s.decisions + 1
    if d > MAX_DECISIONS:
        raise Capped
    s.decisions = d
    i = s.choose(seat, n)
    if type(i) is not int or not 0 <= i < n:
        raise ValueError(f"{i!r} is not the index of one of {n} options")
    return values[i]


def move(s: State, card: Card, zone: int) -> None:
    zones, where = s.zones, s.where
    zones[where[card.id]].remove(card)
    zones[zone].append(card)
    where[card.id] = zone


def move_each(s: State, cards: list, zone: int) -> None:
    zones, where = s.zones, s.where
    dst = zones[zone]
    for card in cards:
        zones[where[card.id]].remove(card)
        dst.append(card)
        where[card.id] = zone


def fn_seat_after(s: State, p: int, k: int) -> int:
    return PLAYERS[(p - 1 + k) % len(PLAYERS)]


def fn_holds_two_of_clubs(s: State, p: int) -> bool:
    return bool([c for c in s.zones[HAND[p]] if SUIT[c.id] == "C" and RANK[c.id] == 2])


def fn_pass_shift(s: State) -> int:
    return [1, len(PLAYERS) - 1, 2, 0][(s.g[DEAL] - 1) % 4]


def p_deal_cards(s: State) -> None:
    zones = s.zones
    for p in PLAYERS:
        move_each(s, list(zones[TAKEN[p]]), STOCK)
    s.rng.shuffle(zones[STOCK])
    for _ in range(13):
        for p in PLAYERS:
            stock = zones[STOCK]
            if stock:
                move(s, stock[0], HAND[p])
    s.g[BROKEN] = False


def p_pass_three(s: State, shift: int) -> None:
    zones = s.zones
    for p in PLAYERS:
        for _ in range(3):
            card = ask(s, list(zones[HAND[p]]), p)
            if card is not None:
                move(s, card, PASSING[p])
    for p in PLAYERS:
        to = fn_seat_after(s, p, shift)
        move_each(s, list(zones[PASSING[p]]), HAND[to])


def p_pass_cards(s: State) -> None:
    if s.options["passing"] == "rotate" and fn_pass_shift(s) != 0:
        p_pass_three(s, fn_pass_shift(s))
    s.g[LEADER] = next(iter([p for p in PLAYERS if fn_holds_two_of_clubs(s, p)]), None)


def fn_legal(s: State, p: int) -> list:
    g = s.g
    cards = list(s.zones[HAND[p]])
    if g[TURN] == 1:
        if g[TRICKS] == 1:
            return [c for c in cards if SUIT[c.id] == "C" and RANK[c.id] == 2]
        not_hearts = [c for c in cards if SUIT[c.id] != "H"]
        return not_hearts if not g[BROKEN] and not_hearts else cards
    led = g[LED]
    follow = [c for c in cards if SUIT[c.id] == led]
    if follow:
        return follow
    safe = [c for c in cards if not POINTS[c.id] > 0]
    return safe if g[TRICKS] == 1 and safe else cards


def p_play_card(s: State, p: int) -> None:
    g = s.g
    card = ask(s, fn_legal(s, p), p)
    if g[TURN] == 1:
        g[LED] = SUIT[card.id]
    if SUIT[card.id] == "H":
        g[BROKEN] = True
    move(s, card, TRICK)


def p_take_trick(s: State) -> None:
    g = s.g
    trick = s.zones[TRICK]
    best = sorted([c for c in trick if SUIT[c.id] == g[LED]], key=lambda c: RANK[c.id], reverse=True)[0]
    winner = fn_seat_after(s, g[LEADER], trick.index(best))
    move_each(s, list(trick), TAKEN[winner])
    g[LEADER] = winner


def end_checks_deal_scored(s: State) -> bool:
    score = s.score
    if len([p for p in PLAYERS if score[p] >= s.options["target"]]) > 0:
        fewest = [p for p in PLAYERS if score[p] == min([score[q] for q in PLAYERS])]
        s.winner = fewest[0] if len(fewest) == 1 else None
        s.over = True
    return s.over


def p_score_deal(s: State) -> bool:
    points, zones, dp, score = POINTS, s.zones, s.deal_points, s.score
    shooter = None
    for p in PLAYERS:
        dp[p] = sum([points[c.id] for c in zones[TAKEN[p]]])
        if dp[p] == 26 and s.options["moon"] == "others":
            shooter = p
    if shooter is not None:
        for p in PLAYERS:
            dp[p] = 26
        dp[shooter] = 0
    for p in PLAYERS:
        score[p] += dp[p]
    return end_checks_deal_scored(s)


def begin_deal(s: State) -> None:
    g = s.g
    g[DEAL] += 1
    g[TRICKS] = g[TURN] = 0
    g[PHASE] = "deal"
    p_deal_cards(s)
    g[PHASE] = "pass"
    p_pass_cards(s)


def main(s: State) -> None:
    g = s.g
    begin_deal(s)
    g[TRICKS] += 1
    g[TURN] = 0
    g[ACTIVE] = g[LEADER]
    while True:
        turn = g[TURN] = g[TURN] + 1
        if turn > 1:
            g[ACTIVE] = PLAYERS[g[ACTIVE] % len(PLAYERS)]
        g[PHASE] = "play"
        p_play_card(s, g[ACTIVE])
        if g[TURN] == len(PLAYERS):
            p_take_trick(s)
            if len(s.zones[HAND[g[LEADER]]]) == 0:
                if p_score_deal(s):
                    return
                begin_deal(s)
            g[TRICKS] += 1
            g[TURN] = 0
            g[ACTIVE] = g[LEADER]
        s.steps_left -= 1
        if s.steps_left < 0:
            raise RuntimeError("the step budget ran out")


def play_out(seed: int, choose: Callable[[int, int], int]) -> State:
    """A game of the seed played to its end, each decision asked of `choose(seat, n)`."""
    s = State(seed, choose)
    try:
        main(s)
    except Capped:
        pass
    return s


def games_per_second(seconds: float, seed: int = 1) -> float:
    rng = random.Random(seed)

    def choose(_seat: int, n: int) -> int:
        return rng.randrange(n)

    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play_out(seed + games, choose)
        games += 1
    return games / (time.process_time() - start)


def main_command(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(harness.pin_one_core())
    flat, hand = [], []
    for k in range(args.rounds):
        runs = [(flat, games_per_second), (hand, plain.games_per_second)]
        for out, run in runs if k % 2 == 0 else reversed(runs):
            out.append(run(args.seconds, args.seed))
    ratio = statistics.median(f / h for f, h in zip(flat, hand))
    print(f"flat back end (by hand): {statistics.median(flat):,.1f} games/s; hand-written: "
          f"{statistics.median(hand):,.1f} games/s; ratio {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main_command())
