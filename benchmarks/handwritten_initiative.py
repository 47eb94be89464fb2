"""Initiative written by hand in plain Python: the speed baseline for the interpreter.

`python benchmarks/handwritten_initiative.py [--seconds 3] [--runs 5] [--seed 1]` prints the median
random games/s (one core, pinned to CPU 0 where the OS allows), the mean decisions and rounds per
game and the results. `games_per_second(seconds)` is the same measure for benchmarks/run.py.

It plays RULES.md game I (I-1.1 .. I-6.12) with the decks of rulesets/initiative/decks (tempo for
player 1, swarm for player 2) and takes the same decisions as rulesets/initiative/initiative.rules
with cards/initiative/cards.cards, at the same moments and with the same number of options, so that
the two are compared on the same work:

- select (I-3.1): every pair of hand cards, then every hand card with each Time Leech of the
  player's in play (it always enchants a player);
- order (I-3.4): (top, bottom) for both orders; automatic when a Time Leech comes from play;
- targets, chosen as each zone resolves: a decision only with 2 or more options (none with 0: the
  effect does nothing; none with 1: that one); "may" (Sneak Attack bottom) is always a yes/no
  decision; Twist Fate bottom chooses the player, then one of the 12 card names;
- creature attacks (I-3.5): the target is the enemy player or one of the enemy creatures.

Options come in the rules file's order, decks are shuffled with `random.Random(seed)` in the same
calls and drawn from the top: with the same seed and the same agent it plays the very same game as
`load("initiative").new_game(seed=...)`, decision for decision (checked on thousands of games when
it was written), so benchmarks compare the same games.

The decision points are one generator: `decision()` returns the (seat, options) it yielded and
`apply(index)` sends the index back in.
"""

from __future__ import annotations

import random
import sys
from itertools import combinations
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import harness  # noqa: E402

DECK_DIR = Path(__file__).resolve().parents[1] / "rulesets" / "initiative" / "decks"
DECK_FILES = ("tempo.yaml", "swarm.yaml")  # player 1, player 2
DECK_SIZE = 40
HAND_SIZE = 5
MAX_HEALTH = 20
ROUND_LIMIT = 100

# The seed's table (I-1.2): name, initiative, max copies. The index is the card's kind.
CARDS = (
    ("Stab", 90, 10),
    ("Bandage", 80, 6),
    ("Summon Monster", 70, 4),
    ("Summoning Circle", 75, 4),
    ("Muster Army", 70, 4),
    ("Sneak Attack", 60, 2),
    ("Volley Of Arrows", 45, 4),
    ("Bless", 30, 4),
    ("Curse", 25, 4),
    ("Dispell", 40, 4),
    ("Twist Fate", 10, 2),
    ("Time Leech", 10, 4),
)
(STAB, BANDAGE, SUMMON_MONSTER, SUMMONING_CIRCLE, MUSTER_ARMY, SNEAK_ATTACK, VOLLEY, BLESS, CURSE,
 DISPELL, TWIST_FATE, TIME_LEECH) = range(len(CARDS))
NAMES = [name for name, _, _ in CARDS]
KIND = {name: kind for kind, name in enumerate(NAMES)}

# Where a card is, when it matters: played from hand this round, an enchantment in play, discarded.
HAND, REVEALED, ENCHANTMENT, DISCARD = range(4)
YES_NO = [True, False]


def load_deck(file_name: str) -> list[int]:
    """A deck file's cards as kinds; a deck breaking I-1.1 is rejected (I-2.1)."""
    with open(DECK_DIR / file_name, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    kinds = []
    for name, copies in data["cards"].items():
        if name not in KIND:
            raise ValueError(f"{file_name}: unknown card {name!r}")
        if copies > CARDS[KIND[name]][2]:
            raise ValueError(f"{file_name}: {copies} copies of {name!r}, at most {CARDS[KIND[name]][2]}")
        kinds += [KIND[name]] * copies
    if len(kinds) != DECK_SIZE:
        raise ValueError(f"{file_name}: {len(kinds)} cards, not {DECK_SIZE}")
    return kinds


DECKS = [load_deck(name) for name in DECK_FILES]


class Card:
    __slots__ = ("kind", "initiative", "owner", "zone", "top", "attached", "charge", "named",
                 "resolved", "cancelled")

    def __init__(self, kind: int, owner: Player) -> None:
        self.kind = kind
        self.initiative = CARDS[kind][1]
        self.owner = owner
        self.zone = HAND
        self.top = True            # the zone it was played with (what an enchantment in play does)
        self.attached = None       # the creature or player it enchants while in play
        self.charge = 0            # Time Leech counters
        self.named = -1            # Twist Fate bottom's named kind
        self.resolved = False
        self.cancelled = False

    def __repr__(self) -> str:
        return NAMES[self.kind]


class Creature:
    __slots__ = ("soldier", "owner", "printed_attack", "health", "damage", "bless", "curse_top",
                 "curse_bottom", "enchantments", "attacked")

    def __init__(self, soldier: bool, owner: Player, attack: int, health: int) -> None:
        self.soldier = soldier
        self.owner = owner
        self.printed_attack = attack
        self.health = health
        self.damage = 0
        self.bless = 0             # Bless tops on it (+3 attack each)
        self.curse_top = 0         # Curse tops (-1 attack each)
        self.curse_bottom = 0      # Curse bottoms (+1 per damage event each)
        self.enchantments = []
        self.attacked = False

    @property
    def attack(self) -> int:       # I-6.10: modifiers add up, then the limit
        a = self.printed_attack + 3 * self.bless - self.curse_top
        return a if a > 0 else 0

    def __repr__(self) -> str:
        return f"{'Soldier' if self.soldier else 'Monster'} {self.attack}/{self.health} of P{self.owner.seat}"


class Player:
    __slots__ = ("seat", "health", "deck", "hand", "discard", "field", "enchantments", "enchanted_by",
                 "played", "opponent")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.health = MAX_HEALTH
        self.deck = []
        self.hand = []
        self.discard = []
        self.field = []            # creatures, in entry order
        self.enchantments = []     # enchantments this player owns that are in play
        self.enchanted_by = []     # enchantments attached to this player
        self.played = ()           # the two cards revealed this round
        self.opponent = None

    def __repr__(self) -> str:
        return f"P{self.seat}"


class Game(harness.GeneratorDriven):
    __slots__ = ("rng", "players", "round", "round_limit", "over", "winner", "pending", "_flow")

    def __init__(self, seed: int, round_limit: int = ROUND_LIMIT) -> None:
        self.rng = random.Random(seed)
        p1, p2 = self.players = (Player(1), Player(2))
        p1.opponent, p2.opponent = p2, p1
        for p, deck in zip(self.players, DECKS):
            p.deck = [Card(kind, p) for kind in deck]
        self.round = 0
        self.round_limit = round_limit
        self.over = False
        self.winner = None         # seat, or None for a draw
        self.start()

    def cards_of(self, p: Player) -> int:
        """The player's cards over deck, hand, discard, the revealed cards and play (I-1.1: 40)."""
        revealed = sum(1 for c in p.played if c.zone == REVEALED)
        return len(p.deck) + len(p.hand) + len(p.discard) + len(p.enchantments) + revealed

    # ------------------------------------------------------------------ the game
    def _play(self):
        rng = self.rng
        p1, p2 = players = self.players
        for p in players:                                   # I-2.1
            rng.shuffle(p.deck)
            self._draw(p, HAND_SIZE)
        second_last = None
        while True:
            self.round += 1
            # I-3.1 select: hand pairs, then a hand card with a Time Leech of theirs in play
            for p in players:
                hand = p.hand
                picks = list(combinations(hand, 2))
                for e in p.enchantments:
                    if e.kind == TIME_LEECH:
                        picks += [(c, e) for c in hand]
                if len(picks) > 1:
                    p.played = picks[(yield p.seat, picks)]
                else:
                    p.played = picks[0] if picks else ()
            # I-3.2 reveal
            for p in players:
                for c in p.played:
                    c.resolved = c.cancelled = False
                    if c.zone == HAND:
                        p.hand.remove(c)
                        c.zone = REVEALED
            # I-3.3 order
            i1 = [self._initiative(p1, c) for c in p1.played]
            i2 = [self._initiative(p2, c) for c in p2.played]
            h1, h2 = max(i1, default=None), max(i2, default=None)
            if h1 != h2:
                first = p2 if h1 is None or (h2 is not None and h2 > h1) else p1
            else:
                l1, l2 = min(i1, default=None), min(i2, default=None)
                if l1 != l2:
                    first = p2 if l1 is None or (l2 is not None and l2 > l1) else p1
                elif second_last is not None:
                    first = second_last
                else:
                    first = players[rng.randrange(2)]
            second_last = first.opponent
            # I-3.4 actions; which cards came from play is fixed before any zone resolves (I-6.12)
            from_play = [c.zone == ENCHANTMENT for c in first.played + second_last.played]
            k = 0
            for p in (first, second_last):
                played = p.played
                if len(played) == 2:
                    a, b = played
                    if from_play[k]:
                        top, bottom = b, a
                    elif from_play[k + 1]:
                        top, bottom = a, b
                    else:
                        orders = [(a, b), (b, a)]
                        top, bottom = orders[(yield p.seat, orders)]
                    yield from self._resolve(p, top, True)
                    if self.over:
                        return
                    yield from self._resolve(p, bottom, False)
                    if self.over:
                        return
                else:
                    for c in played:
                        yield from self._resolve(p, c, True)
                        if self.over:
                            return
                k += len(played)
            # I-3.5 creature attacks, alternating, the first player first, in entry order
            for c in p1.field:
                c.attacked = False
            for c in p2.field:
                c.attacked = False
            current = first
            while True:
                attacker = None
                for c in current.field:
                    if not c.attacked:
                        attacker = c
                        break
                enemy = current.opponent
                if attacker is None:
                    if all(c.attacked for c in enemy.field):
                        break
                else:
                    attacker.attacked = True
                    targets = [enemy] + enemy.field
                    target = targets[(yield current.seat, targets)] if len(targets) > 1 else enemy
                    self._damage(target, attacker.attack)
                    if self._ended():
                        return
                current = enemy
            # I-3.6 cleanup
            for p in players:
                for c in p.played:
                    if c.zone == REVEALED:
                        c.zone = DISCARD
                        p.discard.append(c)
                p.played = ()
            if self.round >= self.round_limit:              # I-4.2
                self.over = True
                return
            for p in players:
                for e in p.enchantments:
                    if e.kind == TIME_LEECH:
                        e.charge += 1
            for p in players:
                self._draw(p, HAND_SIZE - len(p.hand))

    def _resolve(self, p: Player, card: Card, top: bool):
        """One zone of a card (I-3.4), targets chosen as it resolves; then the end check (I-4.1)."""
        if card.cancelled:
            return
        card.resolved = True
        if card.zone != ENCHANTMENT:
            card.top = top
        kind = card.kind
        seat = p.seat
        if kind == STAB:
            targets = self._any_target()
            self._damage(targets[(yield seat, targets)], 2 if top else 1)
        elif kind == BANDAGE:
            targets = self._any_target()
            self._heal(targets[(yield seat, targets)], 2 if top else 1)
        elif kind == SUMMON_MONSTER:
            p.field.append(Creature(False, p, 3, 3) if top else Creature(False, p, 1, 1))
        elif kind == SUMMONING_CIRCLE:                      # I-6.4: counted when it resolves
            field = p.field
            for _ in range(sum(1 for c in field if not c.soldier)):
                field.append(Creature(False, p, 1, 1))
        elif kind == MUSTER_ARMY:
            p.field.append(Creature(True, p, 2, 4) if top else Creature(True, p, 4, 2))
        elif kind == SNEAK_ATTACK:
            if top:
                targets = self._any_target()
                self._damage(targets[(yield seat, targets)], 1)
            elif any(c.kind == MUSTER_ARMY for c in p.played):   # I-6.5, even if discarded
                if YES_NO[(yield seat, YES_NO)]:
                    p.field.append(Creature(True, p, 3, 3))
        elif kind == VOLLEY:                                # I-6.6: N separate events of 1
            for _ in range(sum(1 for c in p.field if c.soldier)):
                targets = list(self.players) if top else self._creatures()
                if len(targets) > 1:
                    self._damage(targets[(yield seat, targets)], 1)
                elif targets:
                    self._damage(targets[0], 1)
        elif kind == BLESS:
            if top:
                creatures = self._creatures()
                if len(creatures) > 1:
                    self._enchant(card, creatures[(yield seat, creatures)])
                elif creatures:
                    self._enchant(card, creatures[0])
            else:
                targets = self._any_target()
                self._heal(targets[(yield seat, targets)], 1)
        elif kind == CURSE:                                 # I-6.8, both zones enchant a creature
            creatures = self._creatures()
            if len(creatures) > 1:
                self._enchant(card, creatures[(yield seat, creatures)])
            elif creatures:
                self._enchant(card, creatures[0])
        elif kind == DISPELL:                               # I-6.9
            if top:
                p1, p2 = self.players
                enchantments = p1.enchantments + p2.enchantments
                if len(enchantments) > 1:
                    self._remove(enchantments[(yield seat, enchantments)])
                elif enchantments:
                    self._remove(enchantments[0])
            else:
                p1, p2 = self.players
                waiting = [c for c in p1.played + p2.played if not c.resolved and not c.cancelled]
                if len(waiting) > 1:
                    self._cancel(waiting[(yield seat, waiting)])
                elif waiting:
                    self._cancel(waiting[0])
        elif kind == TWIST_FATE:                            # I-6.11
            players = list(self.players)
            target = players[(yield seat, players)]
            if not top:
                card.named = yield seat, NAMES
            self._enchant(card, target)
        elif kind == TIME_LEECH:                            # I-6.12
            if top:
                card.charge = 0
                players = list(self.players)
                self._enchant(card, players[(yield seat, players)])
            elif card.zone == ENCHANTMENT:
                self._damage(card.attached, card.charge)
                card.charge = 0
        self._ended()

    # ------------------------------------------------------------------ helpers
    def _initiative(self, p: Player, card: Card) -> int:
        """I-6.10, I-6.11: printed + Twist Fate modifiers on its player, then 0..100."""
        value = card.initiative
        if p.enchanted_by:
            for e in p.enchanted_by:
                if e.kind == TWIST_FATE:
                    if e.top:
                        value += 10
                    elif e.named == card.kind:
                        value -= 30
            value = 0 if value < 0 else 100 if value > 100 else value
        return value

    def _any_target(self) -> list:                          # I-6.1: any creature or player
        p1, p2 = self.players
        return [p1, p2] + p1.field + p2.field

    def _creatures(self) -> list:
        p1, p2 = self.players
        return p1.field + p2.field

    def _damage(self, target, amount: int) -> None:
        if amount <= 0:
            return
        if target.__class__ is Player:
            target.health -= amount
            return
        target.damage += amount + target.curse_bottom       # I-6.8: +1 per Curse bottom
        if target.damage >= target.health:                  # I-1.3: it dies and leaves play
            target.owner.field.remove(target)
            for e in target.enchantments:                   # I-5.1
                owner = e.owner
                owner.enchantments.remove(e)
                e.attached = None
                e.zone = DISCARD
                owner.discard.append(e)

    def _heal(self, target, amount: int) -> None:          # I-6.2
        if target.__class__ is Player:
            health = target.health + amount
            target.health = health if health < MAX_HEALTH else MAX_HEALTH
        else:
            damage = target.damage - amount
            target.damage = damage if damage > 0 else 0

    def _enchant(self, card: Card, target) -> None:        # I-5.1
        card.zone = ENCHANTMENT
        card.owner.enchantments.append(card)
        card.attached = target
        if target.__class__ is Player:
            target.enchanted_by.append(card)
        else:
            target.enchantments.append(card)
            if card.kind == BLESS:
                target.bless += 1
            elif card.top:
                target.curse_top += 1
            else:
                target.curse_bottom += 1

    def _remove(self, card: Card) -> None:
        """An enchantment leaves play for its owner's discard pile (I-6.9 top)."""
        owner = card.owner
        owner.enchantments.remove(card)
        target = card.attached
        card.attached = None
        if target.__class__ is Player:
            target.enchanted_by.remove(card)
        else:
            target.enchantments.remove(card)
            if card.kind == BLESS:
                target.bless -= 1
            elif card.top:
                target.curse_top -= 1
            else:
                target.curse_bottom -= 1
        card.zone = DISCARD
        owner.discard.append(card)

    def _cancel(self, card: Card) -> None:
        """Dispell bottom: a revealed card that has not resolved is discarded (I-6.9)."""
        card.cancelled = True
        if card.zone == ENCHANTMENT:                        # a Time Leech selected from play
            self._remove(card)
            return
        discard = card.owner.discard
        if card.zone == DISCARD:                            # removed by Dispell top already
            discard.remove(card)
        card.zone = DISCARD
        discard.append(card)

    def _draw(self, p: Player, n: int) -> None:            # I-3.6
        deck, hand = p.deck, p.hand
        for _ in range(n):
            if not deck:
                if not p.discard:
                    return
                deck += p.discard
                p.discard.clear()
                self.rng.shuffle(deck)
            card = deck.pop(0)                              # the top of the deck, as the rules file draws
            card.zone = HAND
            hand.append(card)

    def _ended(self) -> bool:                               # I-4.1, after every resolution
        p1, p2 = self.players
        out1, out2 = p1.health <= 0, p2.health <= 0
        if out1 or out2:
            self.over = True
            self.winner = None if out1 and out2 else 2 if out1 else 1
            return True
        return False


# ---------------------------------------------------------------------- measuring
def measure(seconds: float, seed: int = 1) -> dict:
    """Random games for `seconds`: games/s and the totals behind the means."""
    return harness.measure(Game, seconds, seed, "round")


def games_per_second(seconds: float, seed: int = 1) -> float:
    return measure(seconds, seed)["games_per_s"]


def main(argv: list[str] | None = None) -> int:
    return harness.main("initiative", Game, __doc__.splitlines()[0], "round", argv)


if __name__ == "__main__":
    sys.exit(main())
