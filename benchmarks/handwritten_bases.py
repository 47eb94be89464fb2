"""Bases written by hand in plain Python: the speed baseline for the interpreter.

`python benchmarks/handwritten_bases.py [--seconds 3] [--runs 5] [--seed 1]` prints the median
random games/s (one core, pinned to CPU 0 where the OS allows), the mean decisions and turns per
game and the results. `games_per_second(seconds)` is the same measure for benchmarks/run.py.

It plays RULES.md game B (B-1.1 .. B-8.1) with the default options of rulesets/bases/bases.yaml
(format conflict, turn limit 200) and its default decks (conflict-red-blue for player 1,
conflict-green-white for player 2; other deck files of the same format may be given), and takes
the same decisions as rulesets/bases/bases.rules with the cards of cards/bases (every card of the
set is written here), at the same moments, with the same options in the same order:

- mulligan (B-2.2): every subset of the 6 hand cards, by size, then in hand order (64 options,
  offered as tuples of hand positions);
- restore (B-4.2): a tapped ally whose restore cost can be paid, or "untap no more";
- action (B-4.3): a hand card that can be paid, an activated ability that can be used (its `if`
  holds, it can be paid, no ability of that ally waits on the stack), or "end the action phase";
  after each, a priority window opened by the opponent;
- priority (B-5.1, B-5.4): a maneuver in hand that can be paid, a usable ability, or "pass"; two
  passes in a row resolve the top of the stack, after which the opponent of the new top item's
  controller is asked first (the window's first player again, once the stack is empty); it
  closes when both pass with the stack empty;
- targets (B-5.3) when a card or ability goes on the stack (Verdant Tide: when it resolves);
- offensive (B-6): for each untapped ally a targetable base or "do not attack"; then a window;
  for each untapped ally of the defender an attacker still in play or "do not block"; a window;
  for each blocked attacker with 2 or more blockers, every order of its blockers;
- influence (B-7): for each untapped ally that did not attack a base or "do not influence"; a
  window; for each untapped ally of the defender an influenced base or "do not block"; a window;
- end (B-4.5): a hand card to discard while the hand holds more than 5.

Other readings of the rules file kept here: a turn starts with the turn-limit check (the draw
comes when turn 201 would start) and Smoldering Watchfire, then the draw phase; permanents apply
while in play (Mirefog Veil tests the offense without static effects, boosts included, as the
engine reads an attribute whose static targets it is working out); boosts last to the end of the
turn; a taken base stays in its owner's territory.

As in the engine, a choice with fewer than 2 options is no decision (none: nothing is chosen;
one: that one). Options come in the rules file's order (zones in their order: hand in the order
cards came in, allies in the order they entered play, the stack from the bottom), the decks are
shuffled and the mulligan and the starting player drawn with `random.Random(seed)` in the same
calls: with the same seed and the same agent it plays the very same game as
`load("bases").new_game(seed=...)`, decision for decision. Checked when it was written on 3000
seeds with the default decks (seat and option count at every decision, winner, reason, turns;
the options' labels, in order, on 400 of them), on 120 seeds of every pair of the shipped decks
in both formats and with turn limits 1 to 20: no difference. Two paths were never reached by those
games and follow the engine's code unchecked: Mind Lure on an ally its caster already controls
(it moves to the end of their allies) and more than 7 blockers on one attacker (an error, as in
the engine, which offers at most 7! orders).

The decision points are one generator: `decision()` returns the (seat, options) it yielded and
`apply(index)` sends the index back in.
"""

from __future__ import annotations

import random
import sys
from itertools import combinations, permutations
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import harness  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DECK_DIR = ROOT / "rulesets" / "bases" / "decks"
DECK_FILES = ("conflict-red-blue.yaml", "conflict-green-white.yaml")  # player 1, player 2
FORMATS = {"conflict": (40, 5), "skirmish": (30, 3)}  # B-1.1, B-1.2: main deck minimum, bases
HAND_SIZE = 6
KEEP = 5
MAX_RESOURCES = 10
TURN_LIMIT = 200

# card types and zones
ALLY, MANEUVER, PERMANENT, BASE, ITEM = range(5)
DECK, HAND, DISCARD, TERRITORY, PLAY, STACK, GONE = range(7)
# an activated ability's `if`
ALWAYS, IF_UNTAPPED, IF_TAPPED = range(3)
# what a card or ability targets when it goes on the stack (B-5.3)
(NO_TARGET, ANY_ALLY, OWN_ALLY, OWN_TAPPED, OTHER_OWN_TAPPED, ENEMY_ALLY, ENEMY_UNTAPPED,
 ENEMY_TAPPED, ENEMY_SURROUNDING, ON_STACK, MANEUVER_ON_STACK, ALLY_OR_PERMANENT_ON_STACK) = range(12)
# activated abilities
(SLING, WAR_CRY, STUDY, FREEZE, GATHER, MEND, BRACE, RALLY, RAMPAGE, STAND_FAST, DIVINE,
 ROUSE) = range(12)
# maneuvers
(SPARK_LASH, KINDLE_FURY, SIEGE_VOLLEY, CINDERSTORM, HUSH, UNRAVEL, GLIMPSE_AHEAD, EBB_TIDE,
 MIND_LURE, ROOTSURGE, SECOND_BLOOM, WILD_SURGE, THORNSNAP, RALLY_CALL, SANCTUARY_PRAYER,
 JUDGEMENT_RAY, QUELL, ELDERS_COUNSEL, ARCFLASH_INSIGHT, VERDANT_TIDE) = range(20)
# permanents
(WARFIRE_BRAZIER, SMOLDERING_WATCHFIRE, MIREFOG_VEIL, HEARTWOOD_GROVE, DAWNWELL_SHRINE,
 BASTION_HYMN, CONCLAVE_SPIRE) = range(7)

# cards/bases/allies.cards: cost, colours, offense, life, influence, restore, ability
# (name, effect, cost, `if`, target)
ALLIES = {
    "Cinderscale Raider": (1, ("red",), 2, 1, 0, 1, None),
    "Ashpath Skirmisher": (2, ("red",), 2, 2, 1, 1, None),
    "Ember Slinger": (2, ("red",), 1, 2, 0, 1, ("sling an ember", SLING, 1, IF_UNTAPPED, ENEMY_ALLY)),
    "Furnace Brute": (4, ("red",), 4, 3, 1, 1, None),
    "Pyre Warlord": (5, ("red",), 4, 4, 2, 1, ("war cry", WAR_CRY, 2, ALWAYS, NO_TARGET)),
    "Magma Colossus": (6, ("red",), 6, 5, 1, 2, None),
    "Tidewatch Scholar": (2, ("blue",), 1, 2, 1, 1, ("study", STUDY, 2, IF_UNTAPPED, NO_TARGET)),
    "Mistveil Adept": (3, ("blue",), 1, 3, 2, 1, ("freeze", FREEZE, 2, ALWAYS, ENEMY_UNTAPPED)),
    "Reef Sentinel": (3, ("blue",), 2, 4, 1, 1, None),
    "Current Diviner": (4, ("blue",), 2, 3, 3, 1, None),
    "Deepwake Leviathan": (6, ("blue",), 5, 6, 2, 2, None),
    "Mossback Grazer": (1, ("green",), 1, 3, 0, 1, None),
    "Seedcaller Druid": (2, ("green",), 1, 2, 1, 1, ("gather", GATHER, 0, IF_UNTAPPED, NO_TARGET)),
    "Grove Tender": (3, ("green",), 2, 3, 1, 1, ("mend", MEND, 1, ALWAYS, OWN_ALLY)),
    "Thornhide Boar": (3, ("green",), 3, 4, 0, 1, None),
    "Wildroot Stalker": (4, ("green",), 4, 4, 1, 1, None),
    "Elderbark Titan": (6, ("green",), 5, 8, 1, 2, None),
    "Lantern Acolyte": (1, ("white",), 1, 1, 2, 1, None),
    "Gatewarden": (2, ("white",), 1, 4, 1, 1, None),
    "Aegis Keeper": (3, ("white",), 2, 4, 1, 1, ("brace", BRACE, 1, ALWAYS, NO_TARGET)),
    "Dawn Herald": (3, ("white",), 2, 2, 2, 1, ("rally", RALLY, 3, ALWAYS, OWN_TAPPED)),
    "Oathsworn Envoy": (4, ("white",), 2, 3, 4, 1, None),
    "Radiant Arbiter": (5, ("white",), 3, 5, 4, 2, None),
    "Bramblefire Behemoth": (5, ("red", "green"), 5, 6, 1, 1, ("rampage", RAMPAGE, 2, ALWAYS, NO_TARGET)),
    "Vanguard Marshal": (4, ("red", "white"), 3, 3, 2, 1, ("stand fast", STAND_FAST, 2, IF_TAPPED, NO_TARGET)),
    "Tidegrove Oracle": (3, ("blue", "green"), 1, 3, 1, 1, ("divine", DIVINE, 1, IF_UNTAPPED, NO_TARGET)),
    "Grovehall Warden": (4, ("green", "white"), 3, 5, 3, 1, ("rouse", ROUSE, 3, ALWAYS, OTHER_OWN_TAPPED)),
}
# cards/bases/maneuvers.cards: cost, colours, effect, target
MANEUVERS = {
    "Spark Lash": (1, ("red",), SPARK_LASH, ANY_ALLY),
    "Kindle Fury": (1, ("red",), KINDLE_FURY, OWN_ALLY),
    "Siege Volley": (3, ("red",), SIEGE_VOLLEY, ENEMY_SURROUNDING),
    "Cinderstorm": (5, ("red",), CINDERSTORM, NO_TARGET),
    "Hush": (2, ("blue",), HUSH, ON_STACK),
    "Unravel": (1, ("blue",), UNRAVEL, MANEUVER_ON_STACK),
    "Glimpse Ahead": (2, ("blue",), GLIMPSE_AHEAD, NO_TARGET),
    "Ebb Tide": (1, ("blue",), EBB_TIDE, ENEMY_UNTAPPED),
    "Mind Lure": (6, ("blue",), MIND_LURE, ENEMY_ALLY),
    "Rootsurge": (1, ("green",), ROOTSURGE, NO_TARGET),
    "Second Bloom": (1, ("green",), SECOND_BLOOM, OWN_TAPPED),
    "Wild Surge": (2, ("green",), WILD_SURGE, OWN_ALLY),
    "Thornsnap": (3, ("green",), THORNSNAP, ENEMY_ALLY),
    "Rally Call": (1, ("white",), RALLY_CALL, OWN_TAPPED),
    "Sanctuary Prayer": (2, ("white",), SANCTUARY_PRAYER, OWN_ALLY),
    "Judgement Ray": (3, ("white",), JUDGEMENT_RAY, ENEMY_TAPPED),
    "Quell": (3, ("white",), QUELL, ALLY_OR_PERMANENT_ON_STACK),
    "Elders' Counsel": (4, ("white",), ELDERS_COUNSEL, NO_TARGET),
    "Arcflash Insight": (3, ("red", "blue"), ARCFLASH_INSIGHT, ENEMY_ALLY),
    "Verdant Tide": (4, ("blue", "green"), VERDANT_TIDE, NO_TARGET),
}
# cards/bases/permanents.cards: cost, colours, effect
PERMANENTS = {
    "Warfire Brazier": (3, ("red",), WARFIRE_BRAZIER),          # your allies +1 offense
    "Smoldering Watchfire": (4, ("red",), SMOLDERING_WATCHFIRE),  # your turn starts: 1 to enemy allies
    "Mirefog Veil": (4, ("blue",), MIREFOG_VEIL),              # enemy allies with offense > 1: -1
    "Heartwood Grove": (3, ("green",), HEARTWOOD_GROVE),        # your allies +2 life
    "Dawnwell Shrine": (2, ("white",), DAWNWELL_SHRINE),        # your allies restore for 0
    "Bastion Hymn": (3, ("white",), BASTION_HYMN),              # your bases +1 resistance
    "Conclave Spire": (4, ("blue", "white"), CONCLAVE_SPIRE),   # your allies +1 influence
}
# cards/bases/bases.cards: colour, resistance, centre?
BASES = {
    "Emberforge Citadel": ("red", 8, True),
    "Cinder Watchtower": ("red", 4, False),
    "Scorched Outpost": ("red", 3, False),
    "Ashfall Barracks": ("red", 5, False),
    "Tideglass Spire": ("blue", 9, True),
    "Saltmarsh Lighthouse": ("blue", 4, False),
    "Drowned Archive": ("blue", 5, False),
    "Fogbank Harbour": ("blue", 3, False),
    "Elderroot Sanctum": ("green", 10, True),
    "Mossgate Camp": ("green", 5, False),
    "Briarwall Hollow": ("green", 6, False),
    "Fernshade Glade": ("green", 4, False),
    "Sunspire Basilica": ("white", 9, True),
    "Dawnward Chapel": ("white", 5, False),
    "Pilgrim's Rest": ("white", 4, False),
    "Lightkeeper Bastion": ("white", 6, False),
}
MAX_COPIES = 3  # main-deck cards (bases: 1)


def load_deck(file_name: str | Path, format: str = "conflict") -> tuple[list[str], list[str]]:
    """A deck file's (main deck, bases) as card names in list order, copies together; a deck
    breaking B-1.1 / B-1.2 is rejected with an error naming the card (B-1.1)."""
    path = Path(file_name) if Path(file_name).is_absolute() else DECK_DIR / file_name
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    min_size, base_count = FORMATS[format]
    if data.get("format", format) != format:
        raise ValueError(f"{path.name}: a {data['format']} deck, not {format}")
    main: list[str] = []
    for name, copies in data["cards"].items():
        if name not in ALLIES and name not in MANEUVERS and name not in PERMANENTS:
            raise ValueError(f"{path.name}: unknown card {name!r}")
        if copies > MAX_COPIES:
            raise ValueError(f"{path.name}: {copies} copies of {name!r}, at most {MAX_COPIES}")
        main += [name] * copies
    bases: list[str] = []
    for name, copies in data["bases"].items():
        if name not in BASES:
            raise ValueError(f"{path.name}: {name!r} is not a base")
        if copies > 1:
            raise ValueError(f"{path.name}: {copies} copies of {name!r}, at most 1")
        bases += [name] * copies
    if len(main) < min_size:
        raise ValueError(f"{path.name}: {len(main)} cards, at least {min_size}")
    if len(bases) != base_count or sum(BASES[b][2] for b in bases) != 1:
        raise ValueError(f"{path.name}: {base_count} bases with one Centre needed")
    colours = {BASES[b][0] for b in bases}
    for name in dict.fromkeys(main):
        table = ALLIES if name in ALLIES else MANEUVERS if name in MANEUVERS else PERMANENTS
        missing = [c for c in table[name][1] if c not in colours]
        if missing:
            raise ValueError(f"{path.name}: {name!r} needs colour {', '.join(missing)}, which no base has")
    return main, bases


DECKS = [load_deck(name) for name in DECK_FILES]
# mulligan options by hand size: subsets of positions, by size, then in order (B-2.2)
SUBSETS = {n: [c for k in range(min(n, HAND_SIZE) + 1) for c in combinations(range(n), k)]
           for n in range(HAND_SIZE + 1)}


class Label:
    """A word offered beside cards ("pass", "do not attack")."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


UNTAP_DONE = Label("untap no more")
ACTION_DONE = Label("end the action phase")
PASS = Label("pass")
NO_ATTACK = Label("do not attack")
NO_BLOCK = Label("do not block")
NO_INFLUENCE = Label("do not influence")


class Ability:
    """An ally's activated ability (one per ally at most in this card set)."""

    __slots__ = ("card", "name", "effect", "cost", "condition", "target")

    def __init__(self, card: Card, spec: tuple) -> None:
        self.card = card
        self.name, self.effect, self.cost, self.condition, self.target = spec


class Item:
    """An activated ability waiting on the stack (B-5.1)."""

    __slots__ = ("source", "ability", "controller", "kind", "zone")

    def __init__(self, ability: Ability, controller: Player) -> None:
        self.source = ability.card
        self.ability = ability
        self.controller = controller
        self.kind = ITEM
        self.zone = STACK


class Card:
    __slots__ = ("name", "kind", "cost", "colours", "offense", "life", "influence", "restore", "ability",
                 "effect", "target", "resistance", "centre", "owner", "controller", "zone", "damage",
                 "boost", "tapped", "attacking", "blocked", "blocking", "influencing", "guarding",
                 "attacked", "targets", "stacked")

    def __init__(self, name: str, owner: Player, zone: int) -> None:
        self.name = name
        self.owner = self.controller = owner
        self.zone = zone
        self.cost = self.offense = self.life = self.influence = self.restore = self.resistance = 0
        self.colours = ()
        self.ability = None
        self.effect = self.target = NO_TARGET
        self.centre = False
        self.damage = 0
        self.boost = 0             # offense until the end of the turn (Kindle Fury, war cry, ...)
        self.tapped = self.blocked = self.attacked = False
        self.attacking = self.blocking = self.influencing = self.guarding = None
        self.targets = []
        self.stacked = 0           # items of its ability on the stack
        if name in ALLIES:
            self.kind = ALLY
            (self.cost, self.colours, self.offense, self.life, self.influence, self.restore,
             ability) = ALLIES[name]
            if ability is not None:
                self.ability = Ability(self, ability)
        elif name in MANEUVERS:
            self.kind = MANEUVER
            self.cost, self.colours, self.effect, self.target = MANEUVERS[name]
        elif name in PERMANENTS:
            self.kind = PERMANENT
            self.cost, self.colours, self.effect = PERMANENTS[name]
        else:
            self.kind = BASE
            colour, self.resistance, self.centre = BASES[name]
            self.colours = (colour,)

    def __repr__(self) -> str:
        return self.name


class Player:
    __slots__ = ("seat", "resources", "max_resources", "deck", "hand", "discard", "territory", "allies",
                 "permanents", "opponent", "brazier", "watchfire", "veil", "grove", "shrine", "hymn",
                 "spire")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.resources = 0
        self.max_resources = 0
        self.deck = []
        self.hand = []
        self.discard = []
        self.territory = []        # their bases, taken or not (B-2.1, B-7.3)
        self.allies = []           # allies in their play zone, in the order they came in
        self.permanents = []
        self.opponent = None
        # permanents of theirs in play, by kind (their static and triggered abilities)
        self.brazier = self.watchfire = self.veil = self.grove = self.shrine = self.hymn = self.spire = 0

    def __repr__(self) -> str:
        return f"P{self.seat}"


class Game(harness.GeneratorDriven):
    __slots__ = ("rng", "players", "stack", "turn", "turn_limit", "starter", "active", "boosted", "over",
                 "winner", "reason")

    def __init__(self, seed: int, decks: list | None = None, turn_limit: int = TURN_LIMIT) -> None:
        self.rng = random.Random(seed)
        p1, p2 = self.players = (Player(1), Player(2))
        p1.opponent, p2.opponent = p2, p1
        for p, (main, bases) in zip(self.players, decks or DECKS):
            p.deck = [Card(name, p, DECK) for name in main]
            p.territory = [Card(name, p, TERRITORY) for name in bases]
        self.stack = []            # B-5: the last is the top
        self.turn = 0
        self.turn_limit = turn_limit
        self.starter = self.active = None
        self.boosted = []          # cards with a boost until the end of the turn
        self.over = False
        self.winner = None         # seat, or None for a draw
        self.reason = ""
        self.start()

    def cards_of(self, p: Player) -> int:
        """The cards the player owns, wherever they are (main deck and bases: B-1.1)."""
        n = len(p.deck) + len(p.hand) + len(p.discard) + len(p.territory)
        for q in self.players:
            n += sum(1 for c in q.allies if c.owner is p) + sum(1 for c in q.permanents if c.owner is p)
        return n + sum(1 for c in self.stack if c.kind != ITEM and c.owner is p)

    def label(self, value) -> str:
        """An option as the interpreter shows it (card labels with their current values)."""
        if value.__class__ is Card:
            if value.kind == ALLY:
                if value.zone == PLAY:
                    return f"{value.name} {offense(value)}/{life(value)}"
                return f"{value.name} {value.offense + value.boost}/{value.life}"
            if value.kind == BASE:
                role = "centre" if value.centre else "surrounding"
                return f"{value.name} ({role} base, resistance {resistance(value)}, damage {value.damage})"
            return value.name
        if value.__class__ is Ability:
            return f"{self.label(value.card)}: {value.name}"
        if value.__class__ is Item:
            return f"ability of {self.label(value.source)}"
        if value.__class__ is tuple:                         # a mulligan (hand positions) or an order
            if value and value[0].__class__ is int:
                hand = self.players[self.pending[0] - 1].hand
                value = [hand[i] for i in value]
            return " + ".join(self.label(v) for v in value) or "nothing"
        return repr(value)

    # ------------------------------------------------------------------ the game
    def _play(self):
        rng = self.rng
        players = self.players
        for p in players:                                    # B-2.2
            rng.shuffle(p.deck)
            self._draw(p, HAND_SIZE)
        for p in players:                                    # the mulligan
            hand = p.hand
            subsets = SUBSETS[len(hand)]                     # (positions in the hand)
            back = [hand[i] for i in subsets[(yield p.seat, subsets)]]
            rng.shuffle(back)
            for c in back:
                hand.remove(c)
                c.zone = DECK
                p.deck.append(c)
            self._draw(p, len(back))
        active = self.starter = players[rng.randrange(2)]    # B-2.3
        while True:
            self.turn += 1
            if self.turn > 1:
                active = active.opponent
            self.active = active
            if self.turn > self.turn_limit:                  # B-8.1
                self._end(None, "turn limit reached")
                return
            enemy = active.opponent
            for _ in range(active.watchfire):                # Smoldering Watchfire
                for a in list(enemy.allies):
                    self._deal(a, 1)
            # B-4.1 draw (not on the starter's first turn)
            if self.turn > 1 or active is not self.starter:
                hand = active.hand
                while len(hand) < HAND_SIZE:
                    if not self._draw_one(active):
                        return
            # B-4.2 restore: the maximum rises by 2; pay to untap
            active.max_resources = active.resources = min(MAX_RESOURCES, active.max_resources + 2)
            while True:
                resources = active.resources
                if active.shrine:
                    tapped = [a for a in active.allies if a.tapped]
                else:
                    tapped = [a for a in active.allies if a.tapped and a.restore <= resources]
                if not tapped:
                    break
                tapped.append(UNTAP_DONE)
                pick = tapped[(yield active.seat, tapped)]
                if pick is UNTAP_DONE:
                    break
                if not active.shrine:
                    active.resources = resources - pick.restore
                pick.tapped = False
            # B-4.3 action: each card or ability goes on the stack, the opponent may respond first
            while True:
                resources = active.resources
                options = [c for c in active.hand if c.cost <= resources]
                self._usable(active, options)
                if not options:
                    break
                options.append(ACTION_DONE)
                pick = options[(yield active.seat, options)]
                if pick is ACTION_DONE:
                    break
                yield from self._put_on_stack(active, pick)
                yield from self._priority(enemy)
                if self.over:
                    return
            # B-4.4 combat
            yield from self._offensive(active, enemy)
            if self.over:
                return
            yield from self._influence(active, enemy)
            if self.over:
                return
            # B-4.5 end: discard down to 5; allies' life restored; boosts end
            hand = active.hand
            while len(hand) > KEEP:
                c = hand[(yield active.seat, list(hand))]
                hand.remove(c)
                c.zone = DISCARD
                active.discard.append(c)
            for a in active.allies:
                a.damage = 0
            for a in enemy.allies:
                a.damage = 0
            if self.boosted:
                for c in self.boosted:
                    c.boost = 0
                self.boosted.clear()

    # ------------------------------------------------------------------ the stack (B-5)
    def _usable(self, p: Player, options: list) -> None:
        """Add the abilities p may use now: its `if` holds, p can pay, none of the ally's waits."""
        resources = p.resources
        for a in p.allies:
            ability = a.ability
            if ability is not None and ability.cost <= resources and not a.stacked:
                condition = ability.condition
                if condition == ALWAYS or (condition == IF_UNTAPPED) != a.tapped:
                    options.append(ability)

    def _priority(self, first: Player):
        """B-5.1: players respond in turn, `first` first; two passes resolve the top item, then
        the opponent of the new top item's controller goes first; the window closes when both
        pass with the stack empty."""
        stack = self.stack
        p = first
        passes = 0
        while True:
            if passes >= 2:
                if not stack:
                    return
                yield from self._resolve_top()
                if self.over:
                    return
                passes = 0
                p = stack[-1].controller.opponent if stack else first
            resources = p.resources
            options = [c for c in p.hand if c.kind == MANEUVER and c.cost <= resources]
            self._usable(p, options)
            if options:
                options.append(PASS)
                pick = options[(yield p.seat, options)]
                if pick is PASS:
                    passes += 1
                else:
                    yield from self._put_on_stack(p, pick)
                    passes = 0
            else:
                passes += 1
            p = p.opponent

    def _put_on_stack(self, p: Player, x):
        """Pay, put on the stack, choose the targets now (B-5.3)."""
        p.resources -= x.cost
        if x.__class__ is Ability:
            card = x.card
            self.stack.append(Item(x, p))
            card.stacked += 1
        else:
            card = x
            p.hand.remove(x)
            x.zone = STACK
            self.stack.append(x)
            x.targets = []
        kind = x.target
        if kind:
            options = self._candidates(kind, card, card.controller)
            if len(options) > 1:
                card.targets = [options[(yield card.controller.seat, options)]]
            else:
                card.targets = [options[0] if options else None]

    def _candidates(self, kind: int, card: Card, you: Player) -> list:
        enemy = you.opponent
        if kind == ENEMY_ALLY:
            return list(enemy.allies)
        if kind == OWN_ALLY:
            return list(you.allies)
        if kind == ANY_ALLY:
            return you.allies + enemy.allies
        if kind == ENEMY_UNTAPPED:
            return [a for a in enemy.allies if not a.tapped]
        if kind == OWN_TAPPED:
            return [a for a in you.allies if a.tapped]
        if kind == ENEMY_TAPPED:
            return [a for a in enemy.allies if a.tapped]
        if kind == OTHER_OWN_TAPPED:
            return [a for a in you.allies if a is not card and a.tapped]
        if kind == ENEMY_SURROUNDING:
            return [b for b in enemy.territory if b.controller is enemy and not b.centre]
        if kind == ON_STACK:
            return [c for c in self.stack if c is not card]
        if kind == MANEUVER_ON_STACK:
            return [c for c in self.stack if c is not card and c.kind == MANEUVER]
        return [c for c in self.stack if c is not card and (c.kind == ALLY or c.kind == PERMANENT)]

    def _resolve_top(self):
        """Last in, first out: an ability's effect if its ally is still in play, a maneuver's
        effect then the discard, an ally or permanent into play."""
        stack = self.stack
        top = stack[-1]
        kind = top.kind
        if kind == ITEM:
            stack.pop()
            top.zone = GONE
            source = top.source
            source.stacked -= 1
            if source.zone == PLAY:
                self._use(top.ability.effect, source, source.controller)
        elif kind == MANEUVER:
            if top.effect == VERDANT_TIDE:                   # its ally is chosen as it resolves
                you = top.controller
                if not self._draw(you, 2):
                    return
                options = [a for a in you.allies if a.tapped]
                if len(options) > 1:
                    options[(yield you.seat, options)].tapped = False
                elif options:
                    options[0].tapped = False
            else:
                self._effect(top)
                if self.over:
                    return
            stack.pop()
            top.zone = DISCARD
            top.owner.discard.append(top)
        else:
            stack.pop()
            top.zone = PLAY
            p = top.controller
            if kind == ALLY:
                p.allies.append(top)
            else:
                p.permanents.append(top)
                effect = top.effect
                if effect == WARFIRE_BRAZIER:
                    p.brazier += 1
                elif effect == SMOLDERING_WATCHFIRE:
                    p.watchfire += 1
                elif effect == MIREFOG_VEIL:
                    p.veil += 1
                elif effect == HEARTWOOD_GROVE:
                    p.grove += 1
                elif effect == DAWNWELL_SHRINE:
                    p.shrine += 1
                elif effect == BASTION_HYMN:
                    p.hymn += 1
                else:
                    p.spire += 1

    def _cancel(self, x, by: Card) -> None:
        """A cancelled card goes to its owner's discard pile; an ability is gone (B-5.3)."""
        if x is None or x.zone != STACK or x is by:
            return
        self.stack.remove(x)
        if x.kind == ITEM:
            x.zone = GONE
            x.source.stacked -= 1
        else:
            x.zone = DISCARD
            x.owner.discard.append(x)

    def _use(self, effect: int, card: Card, you: Player) -> None:
        """An activated ability's effect, as it resolves."""
        if effect == SLING:
            if not card.tapped:
                card.tapped = True
                for t in live(card.targets):
                    self._deal(t, 1)
        elif effect == STUDY or effect == DIVINE:
            if not card.tapped:
                card.tapped = True
                self._draw(you, 1)
        elif effect == GATHER:
            if not card.tapped:
                card.tapped = True
                you.resources = min(MAX_RESOURCES, you.resources + 2)
        elif effect == FREEZE:
            for t in live(card.targets):
                t.tapped = True
        elif effect == RALLY or effect == ROUSE:
            for t in live(card.targets):
                t.tapped = False
        elif effect == MEND:
            for t in live(card.targets):
                t.damage = max(0, t.damage - 2)
                break
        elif effect == BRACE:
            card.damage = max(0, card.damage - 2)
        elif effect == WAR_CRY:
            for a in you.allies:
                self._boost(a, 1)
        elif effect == RAMPAGE:
            self._boost(card, 2)
        else:                                                # STAND_FAST
            card.tapped = False

    def _effect(self, card: Card) -> None:
        """A maneuver's effect, on the targets still there (all but Verdant Tide)."""
        effect = card.effect
        you = card.controller
        if effect == SPARK_LASH:
            for t in live(card.targets):
                self._deal(t, 2)
        elif effect == HUSH or effect == UNRAVEL or effect == QUELL:
            for t in card.targets:
                if t is not None and t.zone == STACK:
                    self._cancel(t, card)
        elif effect == THORNSNAP or effect == JUDGEMENT_RAY:
            for t in live(card.targets):
                self._deal(t, 4)
        elif effect == KINDLE_FURY:
            for t in live(card.targets):
                self._boost(t, 3)
        elif effect == WILD_SURGE:
            for t in live(card.targets):
                self._boost(t, 2)
                t.damage = max(0, t.damage - 2)
        elif effect == SECOND_BLOOM or effect == RALLY_CALL:
            for t in live(card.targets):
                t.tapped = False
        elif effect == SANCTUARY_PRAYER:
            for t in live(card.targets):
                t.damage = max(0, t.damage - 3)
                t.tapped = False
        elif effect == GLIMPSE_AHEAD:
            self._draw(you, 2)
        elif effect == ROOTSURGE:
            you.resources = min(MAX_RESOURCES, you.resources + 3)
        elif effect == SIEGE_VOLLEY:
            for t in live(card.targets):                      # (a Surrounding: the game goes on)
                self._deal(t, 3)
        elif effect == ARCFLASH_INSIGHT:
            targets = live(card.targets)
            if targets:                                      # with its target gone it does nothing
                for t in targets:
                    self._deal(t, 2)
                self._draw(you, 1)
        elif effect == EBB_TIDE:
            for t in live(card.targets):
                t.tapped = True
        elif effect == CINDERSTORM:
            for a in list(you.opponent.allies):
                self._deal(a, 2)
        elif effect == ELDERS_COUNSEL:
            if self._draw(you, 1):
                for a in you.allies:
                    a.tapped = False
        elif effect == MIND_LURE:
            for t in live(card.targets):
                t.controller.allies.remove(t)                # (also from and to the same zone)
                t.controller = you
                you.allies.append(t)

    # ------------------------------------------------------------------ effects
    def _deal(self, target: Card, amount: int) -> None:
        if target is None or amount <= 0:
            return
        target.damage += amount
        if target.kind == BASE:
            if resistance(target) - target.damage <= 0:      # B-6.3
                owner = target.owner
                owner.territory.remove(target)
                target.zone = DISCARD
                owner.discard.append(target)
                if target.centre:                            # B-8.1
                    self._end(owner.opponent.seat, "Centre destroyed")
        elif target.damage >= life(target):
            target.controller.allies.remove(target)
            target.zone = DISCARD
            target.owner.discard.append(target)

    def _boost(self, card: Card, amount: int) -> None:
        card.boost += amount
        self.boosted.append(card)

    def _draw_one(self, p: Player) -> bool:
        """B-4.1: the top card to the hand; from an empty deck the player loses (False)."""
        if not p.deck:
            self._end(p.opponent.seat, "drew from an empty deck")
            return False
        c = p.deck.pop(0)
        c.zone = HAND
        p.hand.append(c)
        return True

    def _draw(self, p: Player, n: int) -> bool:
        for _ in range(n):
            if not self._draw_one(p):
                return False
        return True

    def _end(self, winner: int | None, reason: str) -> None:
        self.over = True
        self.winner = winner
        self.reason = reason

    # ------------------------------------------------------------------ combat (B-6, B-7)
    def _targetable(self, p: Player, d: Player) -> list:
        """B-6.1: the defender's Surroundings, or their Centre once none defends it, then the
        attacker's bases the defender has taken."""
        own = [b for b in d.territory if b.controller is d]
        if any(not b.centre for b in own):
            own = [b for b in own if not b.centre]
        return own + [b for b in p.territory if b.controller is d]

    def _offensive(self, p: Player, d: Player):
        targets = self._targetable(p, d)                     # fixed when the offensive starts
        options = targets + [NO_ATTACK]
        attackers = []
        for a in list(p.allies):
            a.attacking = None
            a.blocked = False
            a.attacked = False
            if not a.tapped and targets:
                t = options[(yield p.seat, options)]
                if t is not NO_ATTACK:
                    a.tapped = True
                    a.attacking = t
                    a.attacked = True
                    attackers.append(a)
        if not attackers:                                    # B-6.4: no windows without attackers
            return
        yield from self._priority(d)                         # B-5.4
        if self.over:
            return
        open_ = [a for a in attackers if a.zone == PLAY and a.controller is p]
        if open_:
            options = open_ + [NO_BLOCK]
        for b in list(d.allies):                             # B-6.2
            b.blocking = None
            if not b.tapped and open_:
                x = options[(yield d.seat, options)]
                if x is not NO_BLOCK:
                    b.tapped = True
                    b.blocking = x
                    x.blocked = True
        yield from self._priority(d)                         # even if no blocker
        if self.over:
            return
        for a in attackers:                                  # B-6.3, B-6.4
            if a.zone == PLAY and a.controller is p and a.attacking is not None:
                if not a.blocked:
                    t = a.attacking
                    if t.zone == TERRITORY:
                        self._deal(t, offense(a))
                        if self.over:
                            return
                    continue
                blockers = [b for b in d.allies if b.blocking is a]
                if len(blockers) > 1:
                    if len(blockers) > 7:
                        raise RuntimeError(f"cannot offer every order of {len(blockers)} blockers (7 at most)")
                    orders = list(permutations(blockers))
                    blockers = orders[(yield p.seat, orders)]
                for b in blockers:
                    if a.zone != PLAY or a.controller is not p:  # an attacker that dies stops
                        break
                    if b.zone == PLAY and b.controller is d:
                        to_blocker = offense(a)
                        to_attacker = offense(b)
                        self._deal(b, to_blocker)
                        self._deal(a, to_attacker)

    def _influence(self, p: Player, d: Player):
        targets = self._targetable(p, d)                     # computed again (B-6.1)
        options = targets + [NO_INFLUENCE]
        influencers = []
        for a in list(p.allies):
            a.influencing = None
            if not a.tapped and not a.attacked and targets:
                t = options[(yield p.seat, options)]
                if t is not NO_INFLUENCE:
                    a.tapped = True
                    a.influencing = t
                    influencers.append(a)
        if not influencers:
            return
        yield from self._priority(d)
        if self.over:
            return
        influenced = list(dict.fromkeys(a.influencing for a in influencers))
        options = influenced + [NO_BLOCK]
        for b in list(d.allies):                             # B-7.2
            b.guarding = None
            if not b.tapped:
                t = options[(yield d.seat, options)]
                if t is not NO_BLOCK:
                    b.tapped = True
                    b.guarding = t
        yield from self._priority(d)
        if self.over:
            return
        for base in influenced:                              # B-7.3
            push = sum(influence(a) for a in influencers
                       if a.zone == PLAY and a.controller is p and a.influencing is base)
            hold = sum(influence(b) for b in d.allies if b.guarding is base)
            if base.zone == TERRITORY and push > resistance(base) - base.damage + hold:
                base.controller = p
                if base.centre:                              # B-8.1: the Centre's owner loses
                    owner = base.owner
                    if owner is not p:
                        self._end(p.seat, "Centre taken")
                        return


# ---------------------------------------------------------------------- values through permanents
def offense(a: Card) -> int:
    """Printed + boosts, Warfire Brazier +1, Mirefog Veil -1 if the offense without statics is
    above 1; at least 0 (an ally in play)."""
    p = a.controller
    value = a.offense + a.boost
    total = value + p.brazier
    if value > 1:
        total -= p.opponent.veil
    return total if total > 0 else 0


def life(a: Card) -> int:
    return a.life + 2 * a.controller.grove if a.zone == PLAY else a.life


def influence(a: Card) -> int:
    return a.influence + a.controller.spire


def resistance(b: Card) -> int:
    """Bastion Hymn: +1 to the bases its owner controls."""
    owner = b.owner
    return b.resistance + owner.hymn if b.controller is owner and b.zone == TERRITORY else b.resistance


def live(targets: list) -> list:
    """The targets still in play, in a territory or on the stack (B-5.3)."""
    return [t for t in targets if t is not None and (t.zone == PLAY or t.zone == TERRITORY or t.zone == STACK)]


# ---------------------------------------------------------------------- measuring
def measure(seconds: float, seed: int = 1) -> dict:
    """Random games for `seconds`: games/s and the totals behind the means."""
    return harness.measure(Game, seconds, seed, "turn")


def games_per_second(seconds: float, seed: int = 1) -> float:
    return measure(seconds, seed)["games_per_s"]


def main(argv: list[str] | None = None) -> int:
    return harness.main("bases", Game, __doc__.splitlines()[0], "turn", argv)


if __name__ == "__main__":
    sys.exit(main())
