"""Cards as a player reads them: where each visible card of an observation is, what of it to show.

Works on the observation dict (`game.observation(seat)`) and the `Rules`: a card view there is
`{"id", "name", "type", <attributes>..., "part"?, "attached_to"?, "controller"?, "silenced"?}` (a revealed card of
a hidden zone also has its "position"). What a card shows is its type's `display:` if the ruleset
declares one, else every attribute but deck-building ones; in both, a value at rest (none, false,
empty, or 0 where the attribute's default is 0) is left out, and so is an attribute whose
`shown_in:` does not name the zone the card is in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

# What a card view holds besides its attributes (the card itself and where it is).
_IDENTITY = ("id", "name", "type", "position")


@dataclass(frozen=True)
class Place:
    """Where a visible card is: its zone's owner ("P1" or "shared"), the zone's key in the
    observation ("name" or "name.row"), its position (1-based) and the card's view."""

    owner: str
    zone: str
    position: int
    view: dict


def card_places(obs: dict) -> dict[int, Place]:
    """Every card the observation shows in a zone, by id (revealed cards of hidden zones too)."""
    places: dict[int, Place] = {}
    for owner, zones in (obs.get("zones") or {}).items():
        for key, content in zones.items():
            if isinstance(content, dict):
                for view in content.get("revealed") or []:
                    places[view["id"]] = Place(owner, key, int(view.get("position", 0)), view)
            else:
                for i, view in enumerate(content, start=1):
                    places[view["id"]] = Place(owner, key, i, view)
    return places


def zone_spec(rules, key: str):
    """The declared zone of an observation's zone key ("name" or "name.row"), or None."""
    return rules.ruleset.zones.get(key.split(".", 1)[0])


def _at_rest(value: Any, spec) -> bool:
    if value is None or value is False or value == "" or value == [] or value == {}:
        return True
    return type(value) is int and value == 0 and spec is not None and spec.default == 0


def _bookkeeping(rules) -> set[str]:
    """Attributes that serve deck building, not play (the deck rules' copy limit)."""
    decks = rules.ruleset.decks
    return {decks.max_copies} if decks is not None and decks.max_copies else set()


def card_display(obs_card: dict, rules, zone: str | None = None) -> dict:
    """The attributes a player needs of a card view, in order, as {name: value}: its type's
    `display:` names if declared, else all but the identity (id, name, type, position) and the
    deck-building ones; values at rest left out (see the module), and, for a card in `zone` (a
    zone's name, or an observation's key "name.row"), the attributes whose `shown_in:` does not
    name that zone. A hidden card shows nothing."""
    if "id" not in obs_card:  # a hidden card ({"card": "hidden"})
        return {}
    ctype = rules.ruleset.card_types.get(obs_card.get("type"))
    specs = ctype.attributes if ctype is not None else {}
    if ctype is not None and ctype.display is not None:
        names = [n for n in ctype.display if n in obs_card]
    else:
        skip = _bookkeeping(rules)
        names = [n for n in obs_card if n not in _IDENTITY and n not in skip]
    where = zone.split(".", 1)[0] if zone is not None else None
    return {n: obs_card[n] for n in names if not _at_rest(obs_card[n], specs.get(n))
            and (where is None or n not in specs or specs[n].shown_in is None or where in specs[n].shown_in)}


def words(name: str) -> str:
    return str(name).replace("_", " ")


def value_text(value: Any) -> str:
    """A value of an observation as short text: cards and abilities by name, lists joined."""
    if isinstance(value, dict):
        if value.get("card") == "hidden" or value.get("ability") == "hidden":
            return "a hidden card"
        if "ability" in value:
            return f"{value.get('name', 'a card')}: ability {value['ability']}"
        if "card" in value:
            return str(value.get("name", f"card {value['card']}"))
        return ", ".join(f"{words(k)} {value_text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v) for v in value) if value else "nothing"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "nobody"
    return str(value)


def ability_text(name: str, number: int, label: str | None, count: int) -> str:
    """A card's activated ability as a player reads it: 'Name: label' (the label its card text
    gives it), else "Name's ability" (the card's only one) or "Name's ability 2"; never the
    card's id."""
    if label:
        return f"{name}: {label}"
    return f"{name}'s ability" if count == 1 else f"{name}'s ability {number}"


def ability_of(name: str, number: int, rules) -> str:
    """`ability_text` for the `number`-th (from 1) activated ability of the card named `name`."""
    defn = (getattr(rules, "card_defs", None) or {}).get(name)
    activated = getattr(defn, "activated", None) or []
    label = activated[number - 1][0].label if 1 <= number <= len(activated) else None
    return ability_text(name, number, label, len(activated))


def fill_label(template: str, texts: dict[str, str]) -> str | None:
    """A card type's `label:` template filled with the texts of its fields (cards by name, so
    that 'ability of {source}' reads 'ability of Mistveil Adept'); None if it does not fill."""
    try:
        return template.format_map(texts)
    except (KeyError, ValueError, IndexError, AttributeError, TypeError):
        return None


def display_text(shown: dict) -> str:
    """'attack 2, health 3, exhausted' from `card_display`'s dict (a true flag by its name)."""
    return ", ".join(words(k) if v is True else f"{words(k)} {value_text(v)}" for k, v in shown.items())


def card_text(obs_card: dict, rules, zone: str | None = None) -> str:
    """'Name (attr 1, flag)' for a card view (in `zone`, see `card_display`); '(hidden card)'
    for a hidden one."""
    if obs_card.get("card") == "hidden":
        return "(hidden card)"
    shown = display_text(card_display(obs_card, rules, zone))
    name = str(obs_card.get("name", "?"))
    return f"{name} ({shown})" if shown else name


def printed_text(name: Any, rules) -> str | None:
    """The printed rules text of the card named `name` (its `text = "..."`), or None: the name
    is all it needs, so a card a player cannot see (no name in the view) shows none."""
    defn = (getattr(rules, "card_defs", None) or {}).get(name) if isinstance(name, str) else None
    return getattr(defn, "text", None)


def card_class(place: Place, rules) -> tuple:
    """What tells a card apart from a copy, for a player: its name and visible attributes, its
    zone and owner, and its position where the zone is ordered (there the rules may tell
    positions apart); two cards of one class are the same to choose."""
    spec = zone_spec(rules, place.zone)
    ordered = spec is None or spec.ordered
    facts = {k: v for k, v in place.view.items() if k not in ("id", "position")}
    return ("card", place.owner, place.zone, place.position if ordered else 0,
            json.dumps(facts, sort_keys=True, default=str))
