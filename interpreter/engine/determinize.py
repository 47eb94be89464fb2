"""Determinization: a copy of a game in which what one player may not see is drawn anew.

A searching agent may know only its own observation. `determinize(game, seat, rng)` gives it
a full game to search that agrees with everything `seat` sees, and with nothing else of the
true state:

- the cards `seat` may not see (not in a zone it sees, not revealed to it: its own cards in a zone
  of `visibility: others` are among them) are drawn anew among
  every hidden place they could be by what `seat` saw: each card among the places of the hidden
  cards of its kin (`kinship`). Kin is origin, the zone a card was made in (`CardRef.origin`):
  the cards of a shared face-down deck mix across every hand and pile they may have been dealt
  to (which player got a card is just what the others do not know), a player's own deck's cards
  mix among that player's hidden places only. A card of a shared zone that every player saw go
  to a player (taken from a public zone, or into one) is of that player's kin, as their own
  deck's cards; one that went to its first player out of view (`DEALT`, marked by the move) is
  of its origin's. So not the owner attribute alone: a card of a shared deck is owned by the
  first player it went to, face down or not. Every zone keeps its size; visible cards stay, and
  so does a hidden card that `seat` saw go into the zone it is in (`KNOWN`: a card `seat` passed
  from its hand to another's, put back at the bottom of its deck, saw returned from the table to a
  hand), until that zone is shuffled or the card moves out of `seat`'s view: such cards mix only
  among their own places in that zone (the order they went in is not remembered);
- what belongs to the place, not to the card (`_OF_THE_PLACE`: its owner and controller, the
  player the place's card was dealt to, its time stamp, whether it was dealt out of view) stays
  with the place;
- a reference to a hidden card elsewhere in the state (an attribute, a local of the running
  rules, a pending option, a temporary modifier) follows its place, unless `seat` saw the card go
  into its zone (`KNOWN`: the reference then follows the card, which `seat` knows, as what it
  does to the card is in what `seat` sees of it): it names the card now at that place, so a
  hidden pick of another player (an attribute holding cards of their hand) becomes a pick
  of the cards drawn anew there. Such a place is given a card of the same card type as the
  card it held, since what the running rules do next with it may depend on its type (the
  attributes it has): the types of referred hidden cards are the one thing kept (nothing,
  among hidden cards of one type). A procedure's names end when it returns (lang/resumable.py),
  so the rules hold no card they are done with;
- the random generator is a new one, seeded from `rng`: the true game's generator would tell
  the order of future shuffles and draws;
- the log is dropped (it names hidden cards) and the copy logs nothing; of the events players
  witnessed (`GameState.seen`), the copy keeps the latest ones `seat` witnessed, as many as an
  observation lists, and drops those others witnessed alone.

The hidden cards are put in order of their ids before they are shuffled, and ids do not tell
a hidden card's place: so two games that differ only in where their hidden cards are give the
very same copy for the same `rng` (tests/test_no_peek.py checks that against twins of true
games, and the `mcts` statistics with it).

Kept as they are, being part of the running rules rather than of the table: a hidden card that
runs an ability now (a frame's `self`), has an ability handle referred to, is attached to
another card, or has a replacement marked applied. The copy's `kept` counts the hidden cards
kept as they are or bound to their type (a referenced card among hidden cards of several types):
0 at the decisions of the shipped games, for the player deciding.
For a player who is not deciding, the decision pending stays as it was asked (its options were
worked out from the true state): determinize for the player who decides.

A search determinizes one decision hundreds of times: what does not depend on the draw (the
groups of hidden places, the references, the events witnessed) is worked out once per decision
and seat (`_Plan`, among the runtime's caches) and each copy only shuffles and deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

from ..lang.values import (
    ABSENT,
    ATTACHED,
    CONTROLLER,
    DEALT,
    KNOWN,
    OWNER,
    SHOWN,
    STAMP,
    AbilityRef,
    CardRef,
    Labelled,
    PlayerRef,
)
from .decisions import Pending
from .state_fields import reset_caches

if TYPE_CHECKING:
    from .state import GameState


def determinize(game: GameState, seat: int, rng: random.Random) -> GameState:
    """An independent copy of `game` with everything `seat` may not see drawn anew from `rng`
    (see the module's docstring). Its `kept`: how many cards hidden from `seat` it had to keep as
    they are, or of their card type, rather than draw among all the places they could be."""
    if game.pending is not None:
        game.pending.settle()  # (its lazy prompt and labels read the true state: read them first)
    new = game.clone(random.Random(rng.getrandbits(64)))
    new.own_rows()  # (the hidden cards' rows are written: most of them)
    plan = _plan_of(game, seat, new)
    new.log_entries = []
    new.logging = False
    new.seed = None
    new.seen = plan.seen
    kept = plan.kept
    referenced = plan.referenced
    mapping: dict[int, CardRef] = {}
    getrandbits = rng.getrandbits
    for group in plan.groups:
        cards = group.by_id.copy()
        _shuffle(cards, getrandbits)
        if not group.referenced:
            _deal(new, group, cards)
            continue
        dealt, bound = _dealt(group.olds, cards, referenced)
        kept += bound
        _deal(new, group, dealt)
        # (only references need following)
        mapping.update((old.id, card) for old, card in zip(group.olds, dealt) if card is not old and old.id in referenced)
    if mapping:
        _follow(new, mapping, plan.holders)
    new.kept = kept
    reset_caches(new)  # (the cards moved behind the runtime's back)
    return new


class _Group:
    """The hidden places of one kin (see `_hidden_places`), as every determinization at a
    decision deals them: the runs of places, the cards there (`olds`, in place order) and in the
    order of their ids (`by_id`, what is shuffled), what belongs to each place (`at_place`), and
    whether any of the cards is referred to elsewhere (`referenced`: the ids referred to by
    references that follow the place, see `_Plan`)."""

    __slots__ = ("runs", "olds", "by_id", "at_place", "one_zone", "referenced")

    def __init__(self, game: GameState, runs: list[tuple], referenced: set[int]) -> None:
        self.runs = runs
        self.olds = olds = [card for _key, _start, run in runs for card in run]
        self.by_id = sorted(olds, key=_ID)
        attrs = game.attrs
        self.at_place = [attrs[old.id][_PLACE] for old in olds]
        self.one_zone = len(runs) == 1 or all(key == runs[0][0] for key, _start, _run in runs)
        self.referenced = bool(referenced) and not referenced.isdisjoint(map(_ID, olds))


class _Plan:
    """What every determinization of a game for one seat at one decision shares, worked out
    from the true state once: the events the seat witnessed (`seen`), the groups of hidden
    places in the order they are shuffled, the cards referred to outside the zones
    (`referenced`) and the cards whose attributes refer to cards (`holders`), and how many
    hidden cards are kept as they are (`kept`). It holds while the game waits at the decision
    it was made at, as long as no rule code ran and no card moved (`_plan_of`)."""

    __slots__ = ("pending", "moment", "seen", "groups", "referenced", "holders", "kept")

    def __init__(self, game: GameState, seat: int, copy: GameState) -> None:
        self.pending = game.pending
        self.moment = _moment(game)
        self.seen = _witnessed_by(game.seen, seat, game.rules.seen_count)
        pinned, self.referenced, self.holders = _references(copy)
        places = _hidden_places(copy, seat, pinned)
        self.kept = sum(1 for cid in pinned if cid in copy.card_zone and not copy.visible(copy.cards[cid], seat))
        # (a reference to a card the player saw go into its zone, kin `known`, follows the card: the
        # player knows which card it names, and what it does to the card is in what they see of it)
        self.groups = [_Group(copy, places[kin], self.referenced if kin[0] != "known" else set())
                       for kin in sorted(places)]


def _moment(game: GameState) -> tuple[int, int, int]:
    """What changes whenever rule code runs (`steps`, even for `perform` at a decision), a card
    moves (`clock`) or continuous effects may read something new (`version`)."""
    return (game.steps, game.clock, game.version)


def _plan_of(game: GameState, seat: int, copy: GameState) -> _Plan:
    """The plan of determinizing `game` for `seat`, kept among the runtime's caches while the
    game waits at one decision (a search determinizes the same decision many times) and no
    rule code runs; a change made behind the runtime's back empties the caches (`reset_caches`),
    as for every cache. A new plan is worked out on `copy`, a clone of `game` not yet dealt: the
    same state, whose freshly copied rows the walk over every row reads faster."""
    plans = game._determinize_plans
    plan = plans.get(seat)
    if plan is None or plan.pending is not game.pending or game.pending is None or plan.moment != _moment(game):
        plan = plans[seat] = _Plan(game, seat, copy)
    return plan


def _deal(game: GameState, group: _Group, dealt: list[CardRef]) -> None:
    """Put `dealt` at the places of the group, run by run; each card takes what belongs to its
    place rather than to the card (see the module)."""
    attrs = game.attrs  # (every row owned: `own_rows` in `determinize`)
    for card, state in zip(dealt, group.at_place):
        attrs[card.id][_PLACE] = state
    zones, card_zone = game.zones, game.card_zone
    one_zone = group.one_zone
    i = 0
    for key, start, run in group.runs:
        part = dealt[i:i + len(run)]
        zones[key][start:start + len(run)] = part
        if not one_zone:  # (a group within one zone leaves every card in it)
            card_zone.update(zip(map(_ID, part), repeat(key)))
        i += len(run)


def _shuffle(cards: list[CardRef], getrandbits: Callable[[int], int]) -> None:
    """Shuffle `cards` in place, drawing just as `random.Random.shuffle` does (the same order for
    the same generator) without its call per card to `_randbelow`."""
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


_ID = attrgetter("id")

# A hidden card's attributes that tell its place's history rather than the card: its owner and
# controller (the player it was dealt to), its time stamp (when it got there), whether it was
# dealt out of view, which other players know the card at that place and which were shown it
# (`reveal ... to`).
_OF_THE_PLACE = (OWNER, CONTROLLER, STAMP, DEALT, KNOWN, SHOWN)
# (next to each other in a card's row: read and written as one slice)
_PLACE = slice(min(_OF_THE_PLACE), max(_OF_THE_PLACE) + 1)
if _PLACE.stop - _PLACE.start != len(_OF_THE_PLACE):
    raise AssertionError("lang/values.py: a place's properties must be next to each other in a card's row")


def _witnessed_by(chain: tuple | None, seat: int, limit: int) -> tuple | None:
    """The latest `limit` events of a chain of witnessed events (`GameState.seen`) that `seat`
    witnessed, as a chain of their own: what `seat`'s observation lists, nothing more."""
    kept = []
    cell = chain
    while cell is not None and len(kept) < limit:
        if cell[2] == 0 or cell[2] == seat:
            kept.append(cell)
        cell = cell[3]
    out = None
    for name, args, witness, _older in reversed(kept):
        out = (name, args, witness, out)
    return out


def _dealt(olds: list[CardRef], cards: list[CardRef], referenced: set[int]) -> tuple[list[CardRef], int]:
    """The shuffled `cards` dealt to the places of `olds` (the cards there) in order, except that a
    place whose card is referred to elsewhere (`referenced`: some are) gets the first card of that
    card's type: what the rules do next with it may depend on its type (its attributes, the
    statements it runs). Also how many such places the type bound (a group of one card type binds
    none)."""
    dealt: list[CardRef | None] = [None] * len(olds)
    several_types = len({c.defn.type for c in cards}) > 1
    bound = 0
    for j, old in enumerate(olds):
        if old.id in referenced:
            card_type = old.defn.type
            k = next(i for i, c in enumerate(cards) if c.defn.type == card_type)
            dealt[j] = cards.pop(k)
            bound += several_types
    rest = iter(cards)
    return [card if card is not None else next(rest) for card in dealt], bound


def hidden_from(game: GameState, seat: int) -> list[CardRef]:
    """The cards in zones that `seat` may not see and that were not revealed, zone by zone."""
    return [card for runs in _hidden_places(game, seat, set()).values() for _key, _start, run in runs for card in run]


def kinship(game: GameState, card: CardRef) -> tuple:
    """Which hidden cards a hidden card is drawn among (see the module): ('seat', s) for a card
    of player s's own deck, or a card of a shared zone that every player saw go to s;
    ('origin', zone) for a card of a shared zone that no player has yet, or that went to its
    player out of view (dealt face down: which player got it is what the others do not know).
    Worked out by `_zone_runs`, whose loop has the rule written out."""
    return _zone_runs(game, None, [card], 0, frozenset())[0][0]


def _hidden_places(game: GameState, seat: int, pinned: set[int]) -> dict[tuple, list[tuple]]:
    """The places of the cards `seat` may not see, grouped by `kinship`, in zone order, as runs
    (zone key, first index, the cards there) of places next to each other in one zone; the cards
    `seat` saw go into a zone (`KNOWN`) as a group of that zone."""
    zones = game.rules.zones
    skipped = game.revealed | pinned if pinned else game.revealed  # (seen by every player, or kept as they are)
    groups: dict[tuple, list[tuple]] = {}
    for key, cards in game.zones.items():
        if not cards:
            continue
        visibility = zones[key[0]].visibility
        if (visibility == "public" or (visibility == "owner" and key[1] == seat)
                or (visibility == "others" and key[1] != seat)):
            continue
        for kin, start, run in _zone_runs(game, key, cards, 1 << seat, skipped):
            group = groups.get(kin)
            if group is None:
                group = groups[kin] = []
            group.append((key, start, run))
    return groups


def _zone_runs(game: GameState, key: tuple | None, cards: list[CardRef], bit: int,
               skipped: set[int] | frozenset[int]) -> list[tuple]:
    """(kin, first index, cards) of each run of cards of one kin in a zone hidden from the player
    of `bit` (a seat's bit of `SHOWN` and `KNOWN`), but those of `skipped`; with `bit` 0, the
    cards by their kin alone (`kinship`)."""
    attrs = game.attrs
    runs = []
    run_kin = None
    start = 0
    for index, card in enumerate(cards):
        cid = card.id
        d = attrs[cid]
        if (d[SHOWN] | d[KNOWN]) & bit or cid in skipped:
            kin = None if cid in skipped or d[SHOWN] & bit else ("known", key)
        else:  # (`kinship`, written out here alone: a call per card would cost as much as the rest of the loop)
            origin = card.origin
            owner = d[OWNER]
            if origin is None:  # (a card of a game saved before origins were kept: its owner)
                kin = ("seat", owner.seat if type(owner) is PlayerRef else 0)
            elif origin[1]:
                kin = ("seat", origin[1])
            elif type(owner) is PlayerRef and not d[DEALT]:
                kin = ("seat", owner.seat)
            else:
                kin = ("origin", origin[0])
        if kin != run_kin:
            if run_kin is not None:
                runs.append((run_kin, start, cards[start:index]))
            run_kin, start = kin, index
    if run_kin is not None:
        runs.append((run_kin, start, cards[start:]))
    return runs


def _references(game: GameState) -> tuple[set[int], set[int], set[int]]:
    """(pinned, referenced, holders): the cards the running rules hold by more than a reference
    to their place (see the module), the cards referred to anywhere but in the zones, and the
    cards whose attributes refer to cards."""
    holders: set[int] = set()
    attrs = game.attrs
    attached = game.attached_ids  # (kept by every change of `ATTACHED`; a loaded game's is derived)
    pinned = set(attached)
    referenced: set[int] = set()
    walk = _Walk(pinned, referenced)
    for f in game.frames:
        if f.self_card is not None:
            pinned.add(f.self_card.id)
        pinned.update(cid for cid, _key in f.applied)
        walk(f.locals)
        walk(f.event)
    for d in (*game.player_attrs, game.globals):
        walk(d)
    plain = _PLAIN.issuperset
    slots = game.rules.reference_slots  # (the slots that may hold a card: ATTACHED first, cards, lists)
    if len(slots) == 1:  # (ATTACHED alone: only the attached cards' rows can hold a reference)
        for cid in attached:
            if type(attrs[cid][ATTACHED]) is CardRef:
                walk.cards.add(attrs[cid][ATTACHED].id)
                holders.add(cid)
    else:
        held = itemgetter(*slots)
        cards = game.cards
        for cid, d in enumerate(attrs):
            if not d:
                continue
            values = held(d)
            # (most cards hold what they print, which names no card, or numbers, text and none)
            if values == cards[cid].defn.printed_references or plain(map(type, values)):
                continue
            before = walk.found
            walk(values)
            if walk.found != before:
                holders.add(cid)
    walk(game.temp_mods)
    walk(game.temp_grants)
    if game.pending is not None:
        walk(game.pending._values)
    return pinned, referenced, holders


class _Walk:
    """Collects the cards a value refers to, and the cards of the ability handles in it."""

    def __init__(self, abilities: set[int], cards: set[int]) -> None:
        self.abilities = abilities
        self.cards = cards
        self.found = 0  # card references met so far

    def __call__(self, value: Any) -> None:
        t = type(value)
        if t is dict:
            items = value.values()
        elif t is list or t is tuple:
            items = value
        elif t is Labelled:
            items = (value.value,)
        else:
            items = (value,)
        cards = self.cards
        for v in items:
            t = type(v)
            if t is CardRef:
                cards.add(v.id)
                self.found += 1
            elif t is AbilityRef:
                self.abilities.add(v.card.id)
            elif t in _NESTED:
                self(v)


_NESTED = frozenset((list, tuple, dict, Labelled))
# values that hold no card (nor ability): a card's row of these alone is not walked
_PLAIN = frozenset((int, str, bool, float, type(None), PlayerRef, type(ABSENT)))


def _follow(game: GameState, mapping: dict[int, CardRef], holders: set[int]) -> None:
    """Point every reference to a card that was moved at the card now in its place (`holders`:
    the cards whose attributes hold references)."""
    attrs = game.attrs
    for cid in holders:
        attrs[cid] = _remapped(attrs[cid], mapping)
    game.player_attrs = [_remapped_dict(d, mapping) for d in game.player_attrs]
    game.globals = _remapped_dict(game.globals, mapping)
    game.temp_mods = [_remapped(m, mapping) for m in game.temp_mods]
    game.temp_grants = [_remapped(m, mapping) for m in game.temp_grants]
    for f in game.frames:
        f.locals = _remapped_dict(f.locals, mapping)
        if f.event is not None:
            f.event = _remapped(f.event, mapping)
        if f.controller is not None:
            f.controller = _remapped(f.controller, mapping)
    pending = game.pending
    if pending is not None:
        values = _remapped(pending._values, mapping)
        if values is not pending._values:
            game.pending = Pending(pending.seat, pending.var, pending.prompt, values, game, pending._unwrap,
                                   pending.span)


def _remapped_dict(d: dict, mapping: dict[int, CardRef]) -> dict:
    """The dict with its values remapped: `d` itself if none changes."""
    out = None
    for k, v in d.items():
        if type(v) in _CONTAINERS:
            new = _remapped(v, mapping)
            if new is not v:
                if out is None:
                    out = dict(d)
                out[k] = new
    return d if out is None else out


def _remapped(value: Any, mapping: dict[int, CardRef]) -> Any:
    """The value with the cards of `mapping` replaced: `value` itself if none is in it."""
    t = type(value)
    if t is CardRef:
        return mapping.get(value.id, value)
    if t is dict:
        return _remapped_dict(value, mapping)
    if t is list or t is tuple:
        items = [_remapped(v, mapping) if type(v) in _CONTAINERS else v for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        return items if t is list else tuple(items)
    if t is Labelled:
        inner = _remapped(value.value, mapping)
        return value if inner is value.value else Labelled(inner, value.label)
    return value


_CONTAINERS = frozenset((CardRef, list, tuple, dict, Labelled))
