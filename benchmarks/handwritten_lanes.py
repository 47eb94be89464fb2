"""Lanes written by hand in plain Python: the speed baseline for the interpreter.

`python benchmarks/handwritten_lanes.py [--seconds 3] [--runs 5] [--seed 1]` prints the median
random games/s (one core, pinned to CPU 0 where the OS allows), the mean decisions and turns per
game and the results. `games_per_second(seconds)` is the same measure for benchmarks/run.py.

It plays RULES.md game L (L-1.1 .. L-8.1) with the default options of rulesets/lanes/lanes.yaml
(draft `picks`, protection `per_turn`, incantation_timing `summon`, turn_limit 200) and the cards
of cards/lanes, and takes the same decisions as rulesets/lanes/lanes.rules and keywords.rules, at
the same moments and with the same options in the same order, so that the two are compared on the
same work:

- the draft (L-2.2): the 51 card names in card_names() order are shuffled, a random leader, 4
  rounds of 4 cards picked A-B-B-A from the row in its order (the last pick of a round has one
  option: no decision); each player's 8 picks are shuffled into the hand, the keep in slot 1;
- summon (L-4.2): the affordable cards of the window (the 4 leftmost non-keep cards of the hand),
  in hand order, then "done"; a creature or building then chooses the lane, upper or lower;
- incantation targets, chosen as the effect runs, among the cards in play in the order P1 upper,
  P1 lower, P2 upper, P2 lower (filtered to the enemy's or one's own cards, or creatures): a
  decision only with 2 or more options (none with 0: the effect does nothing; none with 1: that
  one); Forked Lightning offers every pair of enemy cards (a decision with 3 or more of them);
- the assault, keep damage and the end of turn take no decision.

Options come in the rules files' order, the draft pile and the two hands are shuffled with
`random.Random(seed)` in the same calls (the game draws no other random number): with the same
seed and the same agent it plays the very same game as `load("lanes").new_game(seed=...)`,
decision for decision: same seats, same options (counted, and labelled as the interpreter labels
them), same winner, same number of turns. When it was written that held on every game tried: 10,000
seeds with the random agent, 2,000 more comparing every option's label, 3,000 with agents biased
towards the first or the last option (turn-limit draws included); tests/test_handwritten_lanes.py
checks it on 170 seeds. So benchmarks compare the same games.

The decision points are one generator: `decision()` returns the (seat, options) it yielded and
`apply(index)` sends the index back in.
"""

from __future__ import annotations

import random
import sys
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import harness  # noqa: E402

HAND_WINDOW = 4       # L-4.2
FIRST_TURN_MANA = 6   # L-4.1
TURN_LIMIT = 200      # L-8.1
DRAFT_ROUNDS = 4      # L-2.2
ROUND_CARDS = 4

# Keywords (L-7), one bit each; ARMED is the card set's "unless a keyword says so" (L-1.3).
(AERIAL, AIM, AQUATIC, BERSERK, CATALYST, FOCUS, PERFORATION, RAGE, SPLASH, SPRINT, DEMOLISHER,
 ARMED, INDESTRUCTIBLE, PROTECTION) = (1 << i for i in range(14))
AURA_GRANTED = AIM | RAGE | PROTECTION  # what the card set's auras give (L-7.4)

CREATURE, BUILDING, INCANTATION, KEEP = range(4)

# The card set, in card_names() order (cards/lanes/*.cards, files by name): name, type, cost,
# attack, health, keywords, the keyword its aura gives (0: no aura). The index is the card's kind.
CARDS = (
    ("Forward Trench", BUILDING, 1, 0, 3, FOCUS, 0),
    ("Palisade", BUILDING, 2, 0, 4, PROTECTION, 0),
    ("Signal Tower", BUILDING, 2, 0, 4, 0, AIM),
    ("Mana Spring", BUILDING, 3, 0, 3, CATALYST, 0),
    ("War Drum Hall", BUILDING, 4, 0, 4, 0, RAGE),
    ("Ley Obelisk", BUILDING, 4, 0, 4, CATALYST | INDESTRUCTIBLE, 0),
    ("Sanctum Bell", BUILDING, 4, 0, 5, INDESTRUCTIBLE, PROTECTION),
    ("Ballista Post", BUILDING, 5, 2, 5, ARMED | AIM | PERFORATION, 0),
    ("Cannon Bastion", BUILDING, 6, 3, 6, ARMED | SPLASH, 0),
    ("Cinder Whelp", CREATURE, 1, 1, 1, RAGE, 0),
    ("Reed Skimmer", CREATURE, 1, 1, 2, AQUATIC, 0),
    ("Moth Scout", CREATURE, 1, 1, 1, AERIAL, 0),
    ("Dune Courier", CREATURE, 2, 2, 1, SPRINT, 0),
    ("Thornback Pup", CREATURE, 2, 2, 2, BERSERK, 0),
    ("Brass Sentry", CREATURE, 2, 1, 3, PROTECTION, 0),
    ("Quarry Mule", CREATURE, 2, 2, 2, DEMOLISHER, 0),
    ("Reed Archer", CREATURE, 2, 2, 1, AIM, 0),
    ("Vanguard Hound", CREATURE, 2, 2, 2, FOCUS, 0),
    ("Moss Acolyte", CREATURE, 3, 1, 3, CATALYST, 0),
    ("Harbor Pike", CREATURE, 3, 2, 2, AQUATIC | SPRINT, 0),
    ("Gale Kestrel", CREATURE, 3, 2, 2, AERIAL | AIM, 0),
    ("Quill Pikeman", CREATURE, 3, 2, 3, PERFORATION, 0),
    ("Ember Brute", CREATURE, 3, 3, 3, BERSERK | RAGE, 0),
    ("Shellback Tortoise", CREATURE, 4, 2, 5, AQUATIC | PROTECTION, 0),
    ("Storm Lancer", CREATURE, 4, 3, 3, PERFORATION | AIM, 0),
    ("Banner Captain", CREATURE, 4, 2, 4, FOCUS, RAGE),
    ("Ashen Wyvern", CREATURE, 4, 3, 3, AERIAL | SPLASH, 0),
    ("Tunnel Sapper", CREATURE, 4, 3, 3, DEMOLISHER | SPRINT, 0),
    ("Choir Warden", CREATURE, 5, 3, 5, 0, PROTECTION),
    ("Tidecaller Serpent", CREATURE, 5, 3, 4, AQUATIC | SPLASH, 0),
    ("Runebound Golem", CREATURE, 5, 3, 6, INDESTRUCTIBLE, 0),
    ("Crag Titan", CREATURE, 6, 4, 6, BERSERK | INDESTRUCTIBLE, 0),
    ("Thunder Roc", CREATURE, 6, 4, 4, AERIAL | RAGE, 0),
    ("Grove Matriarch", CREATURE, 6, 3, 6, CATALYST, AIM),
    ("Siegebreaker Behemoth", CREATURE, 7, 5, 7, DEMOLISHER | PERFORATION, 0),
    ("Abyssal Leviathan", CREATURE, 7, 4, 6, AQUATIC | SPLASH | FOCUS, 0),
    ("Fire Dart", INCANTATION, 1, 0, 0, 0, 0),
    ("Searing Lance", INCANTATION, 3, 0, 0, 0, 0),
    ("Forked Lightning", INCANTATION, 5, 0, 0, 0, 0),
    ("Rockslide", INCANTATION, 7, 0, 0, 0, 0),
    ("Hearth Song", INCANTATION, 2, 0, 0, 0, 0),
    ("Mason's Hymn", INCANTATION, 4, 0, 0, 0, 0),
    ("Battle Cry", INCANTATION, 1, 0, 0, 0, 0),
    ("Hawk's Eye", INCANTATION, 2, 0, 0, 0, 0),
    ("Frenzy Rite", INCANTATION, 4, 0, 0, 0, 0),
    ("Crosswind", INCANTATION, 2, 0, 0, 0, 0),
    ("Undertow", INCANTATION, 3, 0, 0, 0, 0),
    ("Banishing Gust", INCANTATION, 3, 0, 0, 0, 0),
    ("Sound the Retreat", INCANTATION, 2, 0, 0, 0, 0),
    ("Iron Tonic", INCANTATION, 2, 0, 0, 0, 0),
    ("Warhorn Charge", INCANTATION, 5, 0, 0, 0, 0),
)
NAMES = [card[0] for card in CARDS]
KIND = {name: kind for kind, name in enumerate(NAMES)}
(FIRE_DART, SEARING_LANCE, FORKED_LIGHTNING, ROCKSLIDE, HEARTH_SONG, MASONS_HYMN, BATTLE_CRY,
 HAWKS_EYE, FRENZY_RITE, CROSSWIND, UNDERTOW, BANISHING_GUST, SOUND_THE_RETREAT, IRON_TONIC,
 WARHORN_CHARGE) = range(KIND["Fire Dart"], len(CARDS))

# Where a card is.
PILE, ROW, PICKS, HAND, CASTING, LANE = range(6)
UPPER, LOWER = 0, 1
ROWS = ["upper", "lower"]      # the lane decision's options (L-4.2)
DONE = "done"                  # "end the phase", after the playable cards


class Card:
    __slots__ = ("kind", "name", "type", "cost", "printed_attack", "health", "keywords", "aura", "owner",
                 "where", "row", "side", "damage", "entered", "protected", "bonus", "sprint_bonus",
                 "granted", "fort")

    def __init__(self, kind: int) -> None:
        self.kind = kind
        if kind < 0:                # the keep (L-1.2)
            self.name, self.type, self.cost, self.printed_attack, self.health = "Keep", KEEP, 0, 0, 1
            self.keywords = self.aura = 0
        else:
            (self.name, self.type, self.cost, self.printed_attack, self.health, self.keywords,
             self.aura) = CARDS[kind]
        self.owner = None
        self.where = PILE
        self.row = UPPER
        self.side = None            # the lane side (list) it is in, while in play
        self.damage = 0
        self.entered = 0            # the turn it entered play
        self.protected = False      # Protection used this turn (L-7.10)
        self.bonus = 0              # attack until end of turn (Iron Tonic, Frenzy Rite, Warhorn Charge)
        self.sprint_bonus = 0       # attack until the end of the assault (L-7.13)
        self.granted = 0            # keywords until end of turn (Battle Cry, Hawk's Eye, Frenzy Rite)
        self.fort = False           # the keep's face: bastion, then fort

    @property
    def attack(self) -> int:
        a = self.printed_attack + self.bonus + self.sprint_bonus
        return a if a > 0 else 0

    def __repr__(self) -> str:
        if self.type == KEEP:
            return "Keep (fort)" if self.fort else "Keep (bastion)"
        if self.type == INCANTATION:
            return self.name
        if self.type == BUILDING:
            return f"{self.name} (building, health {self.health})"
        return f"{self.name} {self.attack}/{self.health}"


def has(c: Card, keyword: int) -> bool:
    """Printed, granted until end of turn, or given by an aura of a neighbour on its side (L-7.4)."""
    if (c.keywords | c.granted) & keyword:
        return True
    side = c.side
    if side is not None and keyword & AURA_GRANTED:
        i = side.index(c)
        if i and side[i - 1].aura & keyword:
            return True
        if i + 1 < len(side) and side[i + 1].aura & keyword:
            return True
    return False


def can_hit(a: Card, d: Card) -> bool:       # L-7.1, L-7.2, L-7.14
    if d.keywords & AERIAL and not has(a, AIM):
        return False
    return not a.keywords & DEMOLISHER or d.type == BUILDING


class Player:
    __slots__ = ("seat", "hand", "keep", "lanes", "picks", "casting", "mana", "opponent")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.keep = Card(-1)
        self.keep.owner = self
        self.hand = []              # slots 1..n, left to right; the keep is in it (L-2.3)
        self.lanes = ([], [])       # upper, lower sides; position 1 first (L-1.1)
        self.picks = []             # during the draft
        self.casting = None         # an incantation while it resolves
        self.mana = 0
        self.opponent = None

    def __repr__(self) -> str:
        return f"P{self.seat}"


class Game(harness.GeneratorDriven):
    __slots__ = ("rng", "players", "pile", "turn", "turn_limit", "over", "winner", "pending", "touched",
                 "_flow")

    def __init__(self, seed: int, turn_limit: int = TURN_LIMIT) -> None:
        self.rng = random.Random(seed)
        p1, p2 = self.players = (Player(1), Player(2))
        p1.opponent, p2.opponent = p2, p1
        self.pile = []              # the kinds still in the draft pile
        self.turn = 0
        self.turn_limit = turn_limit
        self.over = False
        self.winner = None          # seat, or None for a draw
        self.touched = []           # cards with effects until end of turn
        self.start()

    def cards_of(self, p: Player) -> int:
        """The player's cards over picks, hand (keep included), the two lane sides and casting."""
        return (len(p.picks) + len(p.hand) + len(p.lanes[0]) + len(p.lanes[1])
                + (p.casting is not None))

    # ------------------------------------------------------------------ the game
    def _play(self):
        rng = self.rng
        players = self.players
        # L-2.1, L-2.2: the draft
        pile = self.pile = list(range(len(CARDS)))
        rng.shuffle(pile)
        leader = players[rng.randrange(2)]
        last = leader
        for _ in range(DRAFT_ROUNDS):
            row = [Card(kind) for kind in pile[:ROUND_CARDS]]
            del pile[:ROUND_CARDS]
            for c in row:
                c.where = ROW
            other = leader.opponent
            for p in (leader, other, other, leader):
                c = row.pop((yield p.seat, list(row)) if len(row) > 1 else 0)
                c.owner = p
                c.where = PICKS
                p.picks.append(c)
                last = p
            leader = other
        # L-2.3
        for p in players:
            rng.shuffle(p.picks)
            p.hand = [p.keep] + p.picks
            for c in p.picks:
                c.where = HAND
            p.keep.where = HAND
            p.picks = []
        active = last                                       # L-2.4
        touched = self.touched
        while True:
            self.turn = turn = self.turn + 1
            if turn > self.turn_limit:                      # L-8.1
                self.over = True
                return
            p = active
            hand = p.hand
            keep = p.keep
            lanes = p.lanes
            # L-4.1 mana
            mana = FIRST_TURN_MANA if turn == 1 else len(hand)
            for side in lanes:
                for c in side:
                    if c.keywords & CATALYST:
                        mana += 2
            # L-4.2 summon
            while True:
                k = hand.index(keep)
                window = hand[:HAND_WINDOW] if k >= HAND_WINDOW else hand[:k] + hand[k + 1:HAND_WINDOW + 1]
                ready = [c for c in window if c.cost <= mana]
                if not ready:
                    break
                ready.append(DONE)
                c = ready[(yield p.seat, ready)]
                if c is DONE:
                    break
                mana -= c.cost
                if c.type == INCANTATION:
                    hand.remove(c)
                    c.where = CASTING
                    p.casting = c
                    if self._check_keep(p):
                        return
                    yield from self._cast(p, c)
                    if self.over:
                        return
                    p.casting = None
                    c.where = HAND
                    hand.append(c)
                else:
                    row = yield p.seat, ROWS
                    hand.remove(c)
                    side = lanes[row]
                    if c.keywords & FOCUS:                  # L-7.7
                        side.insert(0, c)
                    else:
                        side.append(c)
                    c.where = LANE
                    c.row = row
                    c.side = side
                    c.entered = turn
                    if self._check_keep(p):
                        return
            p.mana = mana
            # L-4.3 assault: the order is fixed at the start; no decision
            order = lanes[UPPER][::-1] + lanes[LOWER][::-1]
            sprinters = []
            for a in order:
                if a.where != LANE:
                    continue
                if a.type == CREATURE:
                    if not (a.attack > 0 or a.keywords & SPRINT):
                        continue
                elif not (a.keywords & ARMED and a.attack > 0):
                    continue
                if a.entered == turn and not has(a, RAGE):  # L-7.11
                    continue
                if self._attack(a, p, turn, sprinters):
                    return
            for a in sprinters:                             # the end of the assault
                a.sprint_bonus = 0
            # L-4.4 end: damage and Protection (per turn) reset on the cards in play and in hands,
            # that is every drafted card; effects until end of turn end; mana is lost
            for q in players:
                for c in q.hand:
                    c.protected = False
                for side in q.lanes:
                    for c in side:
                        c.damage = 0
                        c.protected = False
            for c in touched:
                c.bonus = 0
                c.granted = 0
            touched.clear()
            p.mana = 0
            active = p.opponent

    # ------------------------------------------------------------------ attacks (L-5, L-7)
    def _attack(self, a: Card, me: Player, turn: int, sprinters: list) -> bool:
        """One card's attack in the assault; True when the game is over."""
        foe = me.opponent
        row = a.row
        mine = a.side
        keywords = a.keywords
        if keywords & SPRINT:                               # L-7.13
            passed = mine.index(a)
            if passed:
                del mine[passed]
                mine.insert(0, a)
                a.sprint_bonus += passed
                sprinters.append(a)
        fresh = a.entered == turn
        demolisher = keywords & DEMOLISHER
        side = foe.lanes[row]
        while True:
            if not side or (demolisher and not any(d.type == BUILDING for d in side)):
                if not fresh:                               # L-5.3, L-5.4
                    return self._hit_keep(foe, self._power(a))
                return False
            for d in side:                                  # L-5.1
                if can_hit(a, d):
                    break
            else:
                return False
            n = self._power(a)
            slot = side.index(d)
            behind = side[slot + 1] if slot + 1 < len(side) else None
            other = foe.lanes[1 - row]
            across = other[slot] if slot < len(other) else None
            self._damage(d, n, True, False)
            if behind is not None and keywords & PERFORATION:     # L-7.9
                self._damage(behind, n, False, False)
            if across is not None and keywords & SPLASH:          # L-7.12
                self._damage(across, n, False, False)
            if d.where == LANE or not has(a, BERSERK):            # L-7.5
                return False

    @staticmethod
    def _power(a: Card) -> int:                             # L-7.3: after Sprint's bonus
        n = a.attack
        if a.keywords & AQUATIC and a.side[0] is a:
            n += n
        return n

    def _damage(self, target: Card, amount: int, targeted: bool, incantation: bool) -> None:
        """L-5.2 with the replacements of Indestructible (L-7.8) and Protection (L-7.10)."""
        if target is None or amount <= 0:
            return
        if incantation and target.keywords & INDESTRUCTIBLE:
            return
        if targeted and not target.protected and has(target, PROTECTION):
            target.protected = True
            return
        target.damage += amount
        if target.damage >= target.health:
            self._return_to_hand(target)

    @staticmethod
    def _return_to_hand(c: Card) -> None:
        """L-3.5: at the rightmost slot of its owner's hand. The keep check that follows never
        finds the keep rightmost: it was not before, and a card now stands to its right."""
        c.damage = 0
        c.side.remove(c)
        c.side = None
        c.where = HAND
        c.owner.hand.append(c)

    # ------------------------------------------------------------------ the keep (L-3)
    def _hit_keep(self, p: Player, amount: int) -> bool:   # L-3.4
        hand = p.hand
        keep = p.keep
        k = hand.index(keep)
        last = len(hand) - 1
        if amount:
            del hand[k]
            k = k + amount if k + amount < last else last
            hand.insert(k, keep)
        return k == last and self._check_keep(p)

    def _check_keep(self, p: Player) -> bool:              # L-3.1 .. L-3.3; True: p has lost
        hand = p.hand
        keep = p.keep
        while hand[-1] is keep:
            if keep.fort:
                self.over = True
                self.winner = p.opponent.seat
                return True
            keep.fort = True
            hand.remove(keep)
            hand.insert(0, keep)
        return False

    @staticmethod
    def _mend_keep(p: Player, amount: int) -> None:
        hand = p.hand
        k = hand.index(p.keep)
        if k:
            del hand[k]
            hand.insert(k - amount if k > amount else 0, p.keep)

    # ------------------------------------------------------------------ incantations
    def _cast(self, p: Player, card: Card):
        """The effect of an incantation, targets chosen as it resolves (cards/lanes/incantations.cards)."""
        kind = card.kind
        seat = p.seat
        p1, p2 = self.players
        foe = p.opponent
        if kind == FIRE_DART:
            targets = p1.lanes[0] + p1.lanes[1] + p2.lanes[0] + p2.lanes[1]
            if len(targets) > 1:
                self._damage(targets[(yield seat, targets)], 2, True, True)
            elif targets:
                self._damage(targets[0], 2, True, True)
        elif kind == SEARING_LANCE:
            targets = foe.lanes[0] + foe.lanes[1]
            if len(targets) > 1:
                self._damage(targets[(yield seat, targets)], 4, True, True)
            elif targets:
                self._damage(targets[0], 4, True, True)
        elif kind == FORKED_LIGHTNING:
            targets = foe.lanes[0] + foe.lanes[1]
            if len(targets) > 2:
                pairs = list(combinations(targets, 2))
                targets = pairs[(yield seat, pairs)]
            for t in targets:
                self._damage(t, 3, True, True)
        elif kind == ROCKSLIDE:
            for t in foe.lanes[0] + foe.lanes[1]:
                self._damage(t, 3, True, True)
        elif kind == HEARTH_SONG:
            self._mend_keep(p, 2)
        elif kind == MASONS_HYMN:
            self._mend_keep(p, 3)
        elif kind == SOUND_THE_RETREAT:
            targets = p.lanes[0] + p.lanes[1]
            if len(targets) > 1:
                t = targets[(yield seat, targets)]
            else:
                t = targets[0] if targets else None
            if t is not None and not t.keywords & INDESTRUCTIBLE:
                self._return_to_hand(t)
            self._mend_keep(p, 2)
        elif kind == WARHORN_CHARGE:
            for t in p.lanes[0] + p.lanes[1]:
                if t.type == CREATURE and not t.keywords & INDESTRUCTIBLE:
                    t.bonus += 2
                    self.touched.append(t)
        else:
            # one target, in play: of the enemy's, of one's own (creatures), or any
            if kind == CROSSWIND:
                targets = p1.lanes[0] + p1.lanes[1] + p2.lanes[0] + p2.lanes[1]
            elif kind == UNDERTOW or kind == BANISHING_GUST:
                targets = foe.lanes[0] + foe.lanes[1]
            elif kind == HAWKS_EYE:
                targets = p.lanes[0] + p.lanes[1]
            else:                                           # Battle Cry, Frenzy Rite, Iron Tonic
                targets = [c for c in p.lanes[0] + p.lanes[1] if c.type == CREATURE]
            if len(targets) > 1:
                t = targets[(yield seat, targets)]
            elif targets:
                t = targets[0]
            else:
                return
            if t.keywords & INDESTRUCTIBLE:                 # L-7.8: no effect (no Protection used)
                return
            if kind == CROSSWIND or kind == UNDERTOW:
                side = t.owner.lanes[1 - t.row]
                t.side.remove(t)
                side.append(t)
                t.side = side
                t.row = 1 - t.row
                if kind == UNDERTOW:
                    self._damage(t, 1, True, True)
            elif kind == BANISHING_GUST:
                self._return_to_hand(t)
            elif kind == IRON_TONIC:
                t.bonus += 3
                self.touched.append(t)
            else:
                t.granted |= RAGE if kind == BATTLE_CRY else AIM if kind == HAWKS_EYE else BERSERK
                if kind == FRENZY_RITE:
                    t.bonus += 2
                self.touched.append(t)


# ---------------------------------------------------------------------- measuring
def measure(seconds: float, seed: int = 1) -> dict:
    """Random games for `seconds`: games/s and the totals behind the means."""
    return harness.measure(Game, seconds, seed, "turn")


def games_per_second(seconds: float, seed: int = 1) -> float:
    return measure(seconds, seed)["games_per_s"]


def main(argv: list[str] | None = None) -> int:
    return harness.main("lanes", Game, __doc__.splitlines()[0], "turn", argv)


if __name__ == "__main__":
    sys.exit(main())
