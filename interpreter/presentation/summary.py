"""A compact summary of one player's observation, shared by the terminal and the browser table.

`state_summary(obs, rules)` lays the observation out from the ruleset's declarations: each zone
as a row (ordered) or a pile (unordered), in the order the ruleset declares them (rows of a zone
in their declared order), hidden zones as counts with any revealed cards; each card with what
it displays (`card_display`). It is plain JSON. `changes(before, after)` says what differs
between two summaries of the same player; `event_text` reads an observation's `seen` event.
"""

from __future__ import annotations

import string
from typing import Any

from .cards import ability_of, card_display, card_text, value_text, zone_spec

BUILTIN_GLOBALS = ("turn", "phase", "active")
TURN_EVENT = "turn_start"  # emitted by the core at every turn start


def _owner_order(owner: str) -> tuple[int, int]:
    return (1, 0) if owner == "shared" else (0, int(owner[1:]) if owner[1:].isdigit() else 0)


def _card_entry(view: dict, rules, zone: str) -> dict:
    entry = {"id": view.get("id"), "name": view.get("name"), "type": view.get("type"),
             "display": card_display(view, rules, zone), "text": card_text(view, rules, zone)}
    if "position" in view:
        entry["position"] = view["position"]
    return entry


def zone_summaries(obs: dict, rules) -> list[dict]:
    """The zones of the observation as dicts: owner ("P1" or "shared"), zone (its declared
    name), row (or None), key (the observation's key), layout ("row" or "pile"), hidden (shown
    as a count), count, cards (the cards seen, each {id, name, type, display, text})."""
    declared = list(rules.ruleset.zones)
    found = []
    for owner, zones in (obs.get("zones") or {}).items():
        for key, content in zones.items():
            name, _, row = key.partition(".")
            spec = zone_spec(rules, key)
            rows = list(spec.rows) if spec is not None else []
            order = (declared.index(name) if name in declared else len(declared),
                     _owner_order(owner), rows.index(row) if row in rows else 0)
            hidden = isinstance(content, dict)
            views = (content.get("revealed") or []) if hidden else content
            found.append((order, {
                "owner": owner, "zone": name, "row": row or None, "key": key,
                "layout": "row" if spec is None or spec.ordered else "pile", "hidden": hidden,
                "count": content.get("count", 0) if hidden else len(content),
                "cards": [_card_entry(v, rules, key) for v in views],
            }))
    return [z for _o, z in sorted(found, key=lambda item: item[0])]


def state_summary(obs: dict, rules) -> dict:
    """The observation laid out for a player (see the module): viewer, turn, phase, active
    ("P1" or None), globals (the ruleset's own, not at rest), players ([{seat, you,
    attributes}]), zones (`zone_summaries`), decision ({player, prompt} or None), result."""
    glob = obs.get("globals") or {}
    active = glob.get("active")
    decision = obs.get("decision")
    return {
        "viewer": obs.get("viewer"),
        "turn": obs.get("turn"),
        "phase": obs.get("phase"),
        "active": active if isinstance(active, str) else None,
        "globals": {k: v for k, v in glob.items() if k not in BUILTIN_GLOBALS and v not in (None, [], "")},
        "players": [{"seat": p.get("seat"), "you": p.get("seat") == obs.get("viewer"),
                     "attributes": {k: v for k, v in p.items() if k != "seat"}}
                    for p in obs.get("players") or []],
        "zones": zone_summaries(obs, rules),
        "decision": ({"player": decision.get("player"), "prompt": decision.get("prompt")}
                     if decision else None),
        "result": obs.get("result"),
    }


def grouped(cards: list[dict]) -> list[tuple[dict, int]]:
    """Cards that read the same (same text), each once with how many: for piles."""
    out: list[list] = []
    index: dict[str, int] = {}
    for card in cards:
        text = card["text"]
        if text in index:
            out[index[text]][1] += 1
        else:
            index[text] = len(out)
            out.append([card, 1])
    return [(card, n) for card, n in out]


def changes(before: dict | None, after: dict) -> dict[str, set]:
    """What differs from an earlier summary of the same player to a later one: cards (ids of
    cards that came into their zone or show other attributes), zones ((owner, key) whose count
    changed), players ((seat, attribute) with another value), globals (names). Nothing without
    an earlier summary."""
    found: dict[str, set] = {"cards": set(), "zones": set(), "players": set(), "globals": set()}
    if before is None:
        return found
    old_cards = {c["id"]: (z["owner"], z["key"], c["display"]) for z in before["zones"] for c in z["cards"]}
    old_counts = {(z["owner"], z["key"]): z["count"] for z in before["zones"]}
    for zone in after["zones"]:
        where = (zone["owner"], zone["key"])
        if old_counts.get(where, 0) != zone["count"]:
            found["zones"].add(where)
        for card in zone["cards"]:
            if old_cards.get(card["id"]) != (*where, card["display"]):
                found["cards"].add(card["id"])
    old_players = {p["seat"]: p["attributes"] for p in before["players"]}
    for player in after["players"]:
        old = old_players.get(player["seat"], {})
        for name, value in player["attributes"].items():
            if old.get(name) != value:
                found["players"].add((player["seat"], name))
    for name, value in after["globals"].items():
        if before["globals"].get(name) != value:
            found["globals"].add(name)
    return found


class _Fields(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _arg_text(value: Any, rules, names: dict[int, str]) -> str:
    """An event argument of an observation as text: a card by name (a token by its label, from
    `names`), an ability as `ability_of` reads it."""
    if isinstance(value, dict) and isinstance(value.get("ability"), int) and "name" in value:
        return ability_of(str(value["name"]), value["ability"], rules)
    if isinstance(value, dict) and "card" in value and value.get("card") in names:
        return names[value["card"]]
    if isinstance(value, (list, tuple)) and value:
        return ", ".join(_arg_text(v, rules, names) for v in value)
    return value_text(value)


def event_text(event: dict, rules, names: dict[int, str] | None = None) -> str | None:
    """The readable line of an event of an observation's `seen` ({"event", "args"}) through the
    ruleset's `events:` template; None for an event whose template is null. `names`: texts of
    cards by id that read better than their names (tokens by their type's `label:`, `fill_label`), kept
    by the caller from earlier observations (a token is often gone when its event is read)."""
    args = event.get("args") or {}
    return event_line(rules.events, event.get("event"), args,
                      {k: _arg_text(v, rules, names or {}) for k, v in args.items()})


def event_line(templates: dict[str, str | None], name: str, args: dict, texts: dict[str, str]) -> str | None:
    """An event's line from its arguments shown as `texts`, through its template in `events:`
    (None for a null template); an event without a template as `name: arg=value, ...`, the
    start of a turn as `turn N (P1)`."""
    if name in templates:
        template = templates[name]
        if template is None:
            return None
        try:
            return string.Formatter().vformat(template, (), _Fields(texts))
        except (ValueError, IndexError, AttributeError, KeyError, TypeError):
            pass  # a template that does not format: the plain form
    elif name == TURN_EVENT:
        return f"turn {texts.get('turn', '?')}" + (f" ({texts['player']})" if args.get("player") is not None else "")
    return f"{name}: " + ", ".join(f"{k}={v}" for k, v in texts.items()) if texts else str(name)


def attribute_text(attributes: dict[str, Any]) -> str:
    """'score 3, ready yes' from a player's attributes (empty values left out)."""
    return ", ".join(f"{k.replace('_', ' ')} {value_text(v)}" for k, v in attributes.items()
                     if v not in (None, [], ""))
