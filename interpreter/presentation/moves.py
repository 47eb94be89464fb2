"""The distinct moves of a decision: options that are the same move are offered once.

Worked out from the observation alone (its `decision`: the options' ids and labels, and the
`choose` site they come from) and the `Rules`:

- an option's id names its values: `c12` a card, `a12.1` a card's ability, `p2` a player, a
  list joined by `+`, anything else a plain value (`value_id`);
- a card is the same to choose as a copy of it (`card_class`: same name and visible attributes,
  same zone and owner, same position where the zone is ordered);
- a list of values is a pick; it is unordered (compared as a multiset) when its site is
  `choose exactly/up to`, or when the rules offer no two orders of the same values; ordered
  when its site is `choose order` or some two options are orders of the same values.

Moves keep the order of their first option; each move's label is its first option's label,
made unique within the decision by what tells the moves apart (zone, position, attributes:
"Boar 3/6 (play, position 3, tapped)"), never by a card's id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import Place, card_class, card_display, card_places, display_text, words, zone_spec

_CARD = re.compile(r"c(\d+)")
_ABILITY = re.compile(r"a(\d+)\.(\d+)")
_PLAYER = re.compile(r"p(\d+)")


@dataclass(frozen=True)
class Move:
    """One distinct move: `label` what it does, `option` the index to submit (its first option),
    `options` every option index it stands for, `cards` the card views it is about (the first
    option's cards, a card's own for its ability, then the copies the other options choose when
    each chooses one card): a click on any of them may take the move."""

    label: str
    option: int
    options: tuple[int, ...]
    cards: tuple[dict, ...] = ()


def _tokens(option_id: str) -> list[str]:
    return option_id.split("+") if option_id not in ("", "nothing") else []


def _thing(token: str, places: dict[int, Place], seats: int, rules) -> tuple[tuple, Place | None]:
    """(what the token is, for comparing; the place of the card it names, if any)."""
    m = _CARD.fullmatch(token)
    if m and int(m.group(1)) in places:
        place = places[int(m.group(1))]
        return card_class(place, rules), place
    m = _ABILITY.fullmatch(token)
    if m and int(m.group(1)) in places:
        place = places[int(m.group(1))]
        return ("ability", card_class(place, rules), int(m.group(2))), place
    m = _PLAYER.fullmatch(token)
    if m and 1 <= int(m.group(1)) <= seats:
        return ("player", int(m.group(1))), None
    return ("value", token), None


def _site_kind(obs: dict, rules) -> str:
    site = (obs.get("decision") or {}).get("site")
    sites = getattr(rules, "decision_sites", ())
    return sites[site].kind if site is not None and 0 <= site < len(sites) else "one"


def _offers_orders(token_lists: list[list[str]]) -> bool:
    """Whether some two options are different orders of the same values."""
    seen: dict[tuple, tuple] = {}
    for tokens in token_lists:
        if len(tokens) < 2:
            continue
        key = tuple(sorted(tokens))
        if key in seen and seen[key] != tuple(tokens):
            return True
        seen.setdefault(key, tuple(tokens))
    return False


def distinct_moves(obs: dict, rules) -> list[Move]:
    """The decision's options in the observation, grouped into distinct moves (see the module).
    Every option index is in exactly one move; empty when the viewer has no decision to take."""
    options = (obs.get("decision") or {}).get("options") or []
    if not options:
        return []
    places = card_places(obs)
    seats = len(obs.get("players") or ())
    token_lists = [_tokens(str(o["id"])) for o in options]
    kind = _site_kind(obs, rules)
    ordered = kind == "order" or (kind == "one" and _offers_orders(token_lists))
    groups: dict[tuple, list[int]] = {}
    found: list[list[tuple[tuple, Place | None]]] = []
    for i, tokens in enumerate(token_lists):
        things = [_thing(t, places, seats, rules) for t in tokens]
        found.append(things)
        keys = [k for k, _p in things]
        key = tuple(keys) if ordered else tuple(sorted(keys, key=repr))
        groups.setdefault(key, []).append(i)
    moves = []
    for indices in groups.values():
        first = indices[0]
        cards = [p.view for _k, p in found[first] if p is not None]
        if all(len(found[i]) == 1 for i in indices):
            cards += [found[i][0][1].view for i in indices[1:] if found[i][0][1] is not None]
        moves.append(Move(str(options[first]["label"]), first, tuple(indices), tuple(cards)))
    return _unique_labels(moves, found, rules)


def _facts(place: Place | None, rules) -> dict:
    if place is None:
        return {}
    spec = zone_spec(rules, place.zone)
    facts = {"owner": place.owner, "where": words(place.zone.replace(".", " "))}
    if spec is None or spec.ordered:
        facts["position"] = f"position {place.position}"  # (a position, never a card's id)
    facts.update(card_display(place.view, rules, place.zone))
    return facts


def _unique_labels(moves: list[Move], found: list, rules) -> list[Move]:
    """Moves whose labels repeat get what tells them apart: where their cards are and the
    attributes that differ; a number as the last resort."""
    by_label: dict[str, list[int]] = {}
    for m, move in enumerate(moves):
        by_label.setdefault(move.label, []).append(m)
    labels = [move.label for move in moves]
    for same in by_label.values():
        if len(same) < 2:
            continue
        facts = [[_facts(p, rules) for _k, p in found[moves[m].option]] for m in same]
        width = max(len(f) for f in facts)
        for j, m in enumerate(same):
            parts = []
            for c in range(width):
                mine = facts[j][c] if c < len(facts[j]) else {}
                keys = {k for f in facts if c < len(f) for k in f[c]}
                differ = [k for k in mine if k in keys and any(c >= len(f) or f[c].get(k) != mine[k] for f in facts)]
                if differ:
                    shown = {k: mine[k] for k in differ}
                    if "position" in shown or "where" in shown:  # the zone with the position
                        shown["where"], shown["position"] = mine["where"], mine.get("position")
                    where = ", ".join(p for p in (" ".join(str(shown.pop(k)) for k in ("owner", "where")
                                                            if shown.get(k) is not None),
                                                   str(shown.pop("position") or "")) if p)
                    parts.append(", ".join(p for p in (where, display_text(shown)) if p))
            if parts:
                labels[m] = f"{moves[m].label} ({'; '.join(parts)})"
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for move, label in zip(moves, labels):
        if counts[label] > 1:
            seen[label] = seen.get(label, 0) + 1
            label = f"{label} (option {seen[label]})"
        out.append(Move(label, move.option, move.options, move.cards))
    return out


def decision_source(obs: dict, rules) -> str | None:
    """The card whose text asks the decision, as 'Name' or 'Name, part' (None when the rules'
    own code asks it, or the site is not shown)."""
    site = (obs.get("decision") or {}).get("site")
    sites = getattr(rules, "decision_sites", ())
    if site is None or not 0 <= site < len(sites):
        return None
    span = sites[site].span
    at = (span.line, span.column)
    for name, defn in rules.card_defs.items():
        where = defn.span
        if where is None or where.file != span.file or not where.end_line:
            continue
        if (where.line, where.column) <= at <= (where.end_line, where.end_column):
            for part in getattr(getattr(defn, "source", None), "parts", ()) or ():
                ps = part.span
                if ps is not None and ps.end_line and (ps.line, ps.column) <= at <= (ps.end_line, ps.end_column):
                    return f"{name}, {part.name}"
            return name
    return None


def decision_title(obs: dict, rules) -> str:
    """The decision's prompt, with the card whose text asks it: 'Name, part: prompt'."""
    decision = obs.get("decision") or {}
    prompt = decision.get("prompt") or "a decision"
    source = decision_source(obs, rules)
    return f"{source}: {prompt}" if source else str(prompt)
