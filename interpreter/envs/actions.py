"""A fixed action space for a ruleset (docs/envs.md "Actions"): the same action id means the
same kind of move in every state, as reinforcement learning needs.

An id is (decision site, what is chosen): the site is the `choose` of the rule code or a card that
asks (`Rules.decision_sites`, in a stable order, plus one for a decision from nowhere else); what
is chosen is a card by name, by whose it is (the decider's, the next player's, ..., nobody's) and
by its ordinal among the options of that name and owner (the first Stab of my hand, the second);
a player by seat relative to the decider; an activated ability by its card's name, its index, the
card's owner and ordinal; or a plain value (a text or number of the rule code, a card name, true,
false, none); and STOP. A site has ids only for what it can offer, worked out from its rule code
(site_offers.py: a `choose` among cards has no ids for players or values, one from ["upper",
"lower"] has two), and STOP only if it is a choice of several parts or may offer anything; a site
the analysis cannot read, and the one for a decision from nowhere else, have every id. The ids of
site k follow those of site k-1 (`offsets`). The ordinals of a card name run to the copies one
default deck holds plus those the zones made from the card set hold (unless the code creates cards
by a name it works out), else 32 for a name the code creates, else 8.

A multi-part choice (a list: two cards, up to three cards, an order) is made element by element,
each element one action, in the order the list holds them (so each combination is reached in one
way only); STOP ends it where the elements taken so far make a whole option. `DecisionActions`
turns a decision into legal ids and takes them one at a time.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

from ..compile.sites import literal_values
from ..errors import CardrulesError
from ..lang import ast
from ..lang.values import AbilityRef, CardRef, Labelled, PlayerRef, value_id
from .site_offers import ANY, describe_offers, site_offers

STOP = "stop"
DEFAULT_COPIES = 8  # ordinals for a card name no default deck holds (a draft's pool)
TOKEN_COPIES = 32  # ... and for one the rule code creates by name (tokens: any number may be made)


class ActionSpaceError(CardrulesError):
    """An option the fixed action space cannot name, or an action that is not legal now."""

    phase = "action"


@dataclass(frozen=True)
class Slot:
    """What an action id means, within its site."""

    kind: str  # card, ability, player, value, stop
    name: Any = None  # card name, (card name, ability index), a plain value
    relation: int = 0  # whose: 0 the decider, k the k-th next player, players = nobody
    ordinal: int = 0


class ActionCatalogue:
    """Every action id of a ruleset, fixed at load from its decision sites and card set."""

    def __init__(self, rules, copies: dict[str, int] | None = None) -> None:
        self.rules = rules
        self.players = rules.player_count
        self.relations = self.players + 1  # each seat relative to the decider, and nobody
        self.sites = rules.decision_sites
        self.site_count = len(self.sites) + 1  # (the last: a decision no `choose` of the rules asked)
        names = sorted(rules.card_defs)
        bound = _deck_copies(rules)
        made = _made_copies(rules)
        named = set(literal_values(rules.ruleset, ()))
        for name in names:
            if name in bound:
                bound[name] += made.get(name, 0)
            else:
                bound[name] = TOKEN_COPIES if name in named else made.get(name, DEFAULT_COPIES)
        bound.update(copies or {})
        self.copies = {name: max(1, bound[name]) for name in names}
        self.literals = literal_values(rules.ruleset, names)
        full = self._slots_for(rules, names, ANY)
        self.block = len(full)  # the ids a site that may offer anything has
        self.offers = [*site_offers(rules.ruleset, self.sites), ANY]
        self.site_slots: list[list[Slot]] = []
        self._index: list[dict[tuple, int]] = []
        self.offsets: list[int] = []
        size = 0
        for site, offers in enumerate(self.offers):
            several = site < len(self.sites) and self.sites[site].kind != "one"
            slots = full if offers is ANY else self._slots_for(rules, names, offers, stop=several)
            self.site_slots.append(slots)
            self._index.append({(x.kind, x.name, x.relation, x.ordinal): i for i, x in enumerate(slots)})
            self.offsets.append(size)
            size += len(slots)
        self.size = size

    def _slots_for(self, rules, names: list[str], offers, stop: bool = True) -> list[Slot]:
        """The ids of a site that can offer `offers` (site_offers.py; ANY: everything): cards by
        name, owner and ordinal, abilities, players, the plain values it can offer, and STOP
        (`stop`: a site of several parts, or one that may offer lists)."""
        slots: list[Slot] = []
        if offers is ANY or "card" in offers:
            for name in names:
                for relation in range(self.relations):
                    slots.extend(Slot("card", name, relation, o) for o in range(self.copies[name]))
        if offers is ANY or "ability" in offers:
            for name in names:
                for ability in range(len(rules.card_defs[name].activated)):
                    for relation in range(self.relations):
                        slots.extend(Slot("ability", (name, ability), relation, o) for o in range(self.copies[name]))
        if offers is ANY or "player" in offers:
            slots.extend(Slot("player", None, relation) for relation in range(self.players))
        for value in self.literals:
            key = _plain_key(value)
            if offers is ANY or ("value", key) in offers or ("any", key[0]) in offers:
                slots.append(Slot("value", key))
        if stop:
            slots.append(Slot(STOP))
        return slots

    def site_index(self, pending) -> int:
        site = self.rules.site_of(pending)
        return site.index if site is not None else self.site_count - 1

    def action_id(self, site: int, kind: str, name: Any = None, relation: int = 0, ordinal: int = 0) -> int | None:
        slot = self._index[site].get((kind, name, relation, ordinal))
        return None if slot is None else self.offsets[site] + slot

    def site_of_action(self, action: int) -> int:
        """The site of an action id."""
        return bisect.bisect_right(self.offsets, action) - 1

    def slot_of_action(self, action: int) -> Slot:
        """What an action id takes, within its site."""
        site = self.site_of_action(action)
        return self.site_slots[site][action - self.offsets[site]]

    def describe(self, action: int) -> str:
        """What an action id means, in words: 'site 3 (a card to place): card Stab, mine, #2'."""
        if not 0 <= action < self.size:
            return f"no action {action} (the space has {self.size})"
        site = self.site_of_action(action)
        s = self.slot_of_action(action)
        where = (f"site {site} ({self.sites[site].label or 'choose'} at {self.sites[site].span})"
                 if site < len(self.sites) else f"site {site} (any other decision)")
        whose = ["mine"] + [f"next player +{k}" for k in range(1, self.players)] + ["nobody's"]
        if s.kind == "card":
            return f"{where}: card {s.name}, {whose[s.relation]}, #{s.ordinal + 1}"
        if s.kind == "ability":
            return f"{where}: ability {s.name[1] + 1} of {s.name[0]}, {whose[s.relation]}, #{s.ordinal + 1}"
        if s.kind == "player":
            return f"{where}: player {'me' if s.relation == 0 else f'+{s.relation}'}"
        if s.kind == "value":
            return f"{where}: {s.name[1]!r}"
        return f"{where}: stop (the choice is complete)"


def _deck_copies(rules) -> dict[str, int]:
    """The most copies of each card one default deck holds (in any of its parts)."""
    out: dict[str, int] = {}
    try:
        decks = rules.default_decks()
    except CardrulesError:
        decks = []
    for deck in decks:
        for part in (deck.cards, *(cards for _s, cards in deck.sections)):
            counts: dict[str, int] = {}
            for name in part:
                counts[name] = counts.get(name, 0) + 1
            for name, n in counts.items():
                out[name] = max(out.get(name, 0), n)
    return out


def _made_copies(rules) -> dict[str, int]:
    """The copies of each card the zones made from the card set hold (`decks: {made}`): its
    `copies` number, or the value of the card's attribute it names; none where the rule code
    creates a card by a name it works out (then any card may have more copies)."""
    out: dict[str, int] = {}
    decks = rules.ruleset.decks
    if any(isinstance(n, ast.Create) and not isinstance(n.card_name, ast.StrLit) for n in rules.ruleset.code_nodes()):
        return out  # (the code creates cards by a name it works out: any card may have more copies)
    for made in (decks.made if decks is not None else ()):
        for name, defn in rules.card_defs.items():
            if defn.token or (made.types is not None and defn.type not in made.types):
                continue
            n = made.copies if isinstance(made.copies, int) else defn.initial.get(made.copies)
            if isinstance(n, int) and not isinstance(n, bool):
                out[name] = out.get(name, 0) + n
    return out


def _plain_key(value: Any) -> tuple:
    return (type(value).__name__, value)


def _elements(value: Any) -> tuple[list, bool]:
    """An option's value as the elements it is chosen by, and whether it is a list."""
    if type(value) is Labelled:
        value = value.value
    if isinstance(value, list):
        return [v.value if type(v) is Labelled else v for v in value], True
    return [value], False


def _identity(value: Any) -> tuple:
    return (type(value).__name__, value_id(value))


class DecisionActions:
    """The decision a game waits for, as actions of the catalogue: the legal ids now, and taking
    one (an element of a multi-part choice, or STOP). `take` returns the index of the whole option
    once the elements taken make one, else None (the same player decides the next element)."""

    def __init__(self, catalogue: ActionCatalogue, game) -> None:
        self.catalogue = catalogue
        self.game = game
        self.seat, self.pending = game.decision()
        self.site = catalogue.site_index(self.pending)
        self.options: list[list] = []
        self.single = True  # no option is a list: one action each, taken at once
        for i in range(len(self.pending)):
            elements, is_list = _elements(self.pending.value_at(i))
            self.single = self.single and not is_list
            self.options.append(elements)
        self.prefix: list = []
        self._legal: dict[int, Any] | None = None
        self._first: dict[int, int] = {}  # (single) action id -> the first option it takes

    def legal(self) -> dict[int, Any]:
        """Each legal action id -> the element it takes (or STOP), in option order."""
        if self._legal is None:
            self._legal = self._work_out()
        return self._legal

    def _work_out(self) -> dict[int, Any]:
        if self.single:
            return self._work_out_single()
        depth = len(self.prefix)
        taken = [_identity(v) for v in self.prefix]
        nexts: dict[tuple, Any] = {}
        complete = False
        for elements in self.options:
            if len(elements) < depth or [_identity(v) for v in elements[:depth]] != taken:
                continue
            if len(elements) == depth:
                complete = True
            else:
                nexts.setdefault(_identity(elements[depth]), elements[depth])
        legal: dict[int, Any] = {}
        seen: dict[tuple, int] = {}
        for element in nexts.values():
            key = self._key(element)
            ordinal = seen.get(key, 0)
            seen[key] = ordinal + 1
            action = self.catalogue.action_id(self.site, *key, ordinal) if key[0] != "value" else \
                self.catalogue.action_id(self.site, "value", key[1])
            if action is None or (key[0] == "value" and ordinal):
                raise ActionSpaceError(self._overflow(element, key, ordinal))
            legal[action] = element
        if complete and (nexts or depth == 0):
            legal[self.catalogue.action_id(self.site, STOP)] = STOP
        return legal

    def _work_out_single(self) -> dict[int, Any]:
        """`_work_out` where every option is one element (most decisions): the same ids, without
        comparing prefixes."""
        legal: dict[int, Any] = {}
        seen: dict[tuple, int] = {}
        met: set = set()
        catalogue = self.catalogue
        for index, (element,) in enumerate(self.options):
            t = type(element)
            identity = ("c", element.id) if t is CardRef else ("p", element.seat) if t is PlayerRef else \
                _identity(element)
            if identity in met:
                continue
            met.add(identity)
            key = self._key(element)
            ordinal = seen.get(key, 0)
            seen[key] = ordinal + 1
            if key[0] != "value":
                action = catalogue.action_id(self.site, *key, ordinal)
            else:
                action = None if ordinal else catalogue.action_id(self.site, "value", key[1])
            if action is None:
                raise ActionSpaceError(self._overflow(element, key, ordinal))
            legal[action] = element
            self._first[action] = index
        return legal

    def _key(self, element: Any) -> tuple:
        catalogue = self.catalogue
        if type(element) is CardRef:
            return ("card", element.defn.name, self._relation(element))
        if type(element) is AbilityRef:
            return ("ability", (element.card.defn.name, element.index), self._relation(element.card))
        if type(element) is PlayerRef:
            return ("player", None, (element.seat - self.seat) % catalogue.players)
        return ("value", _plain_key(element), 0)

    def _relation(self, card: CardRef) -> int:
        owner = self.game.read(card, "owner")
        if not isinstance(owner, PlayerRef):
            return self.catalogue.players
        return (owner.seat - self.seat) % self.catalogue.players

    def _overflow(self, element: Any, key: tuple, ordinal: int) -> str:
        where = self.pending.span or "a decision"
        catalogue = self.catalogue
        full = catalogue._index[-1]  # (the last site's: every id a site may have)
        if (key[0], key[1], key[2] if key[0] != "value" else 0, 0 if key[0] == "value" else ordinal) in full:
            return (f"{where}: the option {element!r} is not among what the action space worked out this site "
                    f"(site {self.site}) can offer ({describe_offers(catalogue.offers[self.site])}): a bug of "
                    "interpreter/envs/site_offers.py, please report it")
        if key[0] == "value":
            return (f"{where}: the option {element!r} is not a value of the rule code, a card name, true, false "
                    "or none, so the fixed action space has no id for it")
        name = key[1] if key[0] == "card" else f"ability {key[1][1] + 1} of {key[1][0]}"
        return (f"{where}: this decision offers {ordinal + 1} or more {name} of one owner, but the action space "
                f"has {self.catalogue.copies.get(key[1] if key[0] == 'card' else key[1][0])} ordinals for it "
                "(raise it: copies={name: N})")

    def take(self, action: int) -> int | None:
        legal = self.legal()
        if action not in legal:
            raise ActionSpaceError(f"action {action} ({self.catalogue.describe(action)}) is not legal now; "
                                   f"legal: {sorted(legal)}")
        if self.single:
            self._legal = None
            return self._first[action]
        element = legal[action]
        if element is not STOP:
            self.prefix.append(element)
        self._legal = None
        taken = [_identity(v) for v in self.prefix]
        whole = [i for i, elements in enumerate(self.options) if [_identity(v) for v in elements] == taken]
        longer = any(len(e) > len(taken) and [_identity(v) for v in e[:len(taken)]] == taken for e in self.options)
        if whole and (element is STOP or not longer):
            return whole[0]
        return None
