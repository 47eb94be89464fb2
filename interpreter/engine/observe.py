"""What one player may see: computed from the zones' and attributes' declared visibility.

Nothing here knows a game: a zone is shown card by card when it is public, or owned by the
viewer with visibility `owner`; otherwise only its size. Player attributes with visibility
`owner` are shown to their owner only, `hidden` to nobody. A pending decision of another player
shows who decides, not the options.
"""

from __future__ import annotations

from typing import Any

from ..lang.values import ATTACHED, CONTROLLER, OWNER, PART, AbilityRef, CardRef, Labelled, PlayerRef
from .game import Game


def _public(value: Any) -> Any:
    if isinstance(value, CardRef):
        return {"card": value.id, "name": value.defn.name}
    if isinstance(value, PlayerRef):
        return f"P{value.seat}"
    if isinstance(value, AbilityRef):
        return {"ability": value.index + 1, "card": value.card.id, "name": value.card.defn.name}
    if isinstance(value, Labelled):
        return _public(value.value)
    if isinstance(value, (list, tuple)):
        return [_public(v) for v in value]
    if isinstance(value, dict):
        return {k: _public(v) for k, v in value.items()}
    return value


def _visible_card(game: Game, card: CardRef, viewer: int) -> bool:
    key = game.card_zone.get(card.id)
    if key is None:
        return True
    spec = game.rules.zones[key[0]]
    if spec.visibility == "public" or card.id in game.revealed:
        return True
    return spec.visibility == "owner" and key[1] == viewer


def _masked(game: Game, value: Any, viewer: int) -> Any:
    """Card references in attribute values are shown only if the card itself is visible."""
    if isinstance(value, CardRef):
        return _public(value) if _visible_card(game, value, viewer) else {"card": "hidden"}
    if isinstance(value, AbilityRef):
        return _public(value) if _visible_card(game, value.card, viewer) else {"ability": "hidden"}
    if isinstance(value, Labelled):
        return _masked(game, value.value, viewer)
    if isinstance(value, (list, tuple)):
        return [_masked(game, v, viewer) for v in value]
    if isinstance(value, dict):
        return {k: _masked(game, v, viewer) for k, v in value.items()}
    return _public(value)


def card_view(game: Game, card: CardRef, viewer: int, attributes: bool = True) -> dict:
    d = game.attrs[card.id]
    view = {"id": card.id, "name": card.defn.name, "type": card.defn.type}
    if not attributes:
        return view
    for name in card.defn.initial:
        view[name] = _masked(game, game.read(card, name), viewer)
    if d[PART] is not None:
        view["part"] = d[PART]
    if d[ATTACHED] is not None:
        view["attached_to"] = _masked(game, d[ATTACHED], viewer)
    if d[CONTROLLER] is not d[OWNER]:
        view["controller"] = _public(d[CONTROLLER])
    return view


def observation(game: Game, viewer: int, detail: bool = True) -> dict:
    """What `viewer` may see (see the module). Without `detail`, each card seen shows only its id,
    name and type, and the viewer's decision the number of its options, not each one: the same
    visibility, for readers that need no more (a fixed encoding), at a fraction of the cost."""
    rules = game.rules
    players = []
    for p in game.players:
        attrs = {}
        for name, spec in rules.ruleset.player_attributes.items():
            if spec.visibility == "hidden" or (spec.visibility == "owner" and p.seat != viewer):
                continue
            attrs[name] = _masked(game, game.read(p, name), viewer)
        players.append({"seat": p.seat, **attrs})
    zones: dict[str, Any] = {}
    for key, cards in game.zones.items():
        name, seat, row = key
        label = name + (f".{row}" if row else "")
        owner = f"P{seat}" if seat else "shared"
        spec = rules.zones[name]
        visible = spec.visibility == "public" or (spec.visibility == "owner" and seat == viewer)
        if visible:
            content: Any = [card_view(game, c, viewer, detail) for c in cards]
        else:
            shown = [dict(card_view(game, c, viewer, detail), position=i + 1)
                     for i, c in enumerate(cards) if c.id in game.revealed]
            content = {"count": len(cards), **({"revealed": shown} if shown else {})}
        zones.setdefault(owner, {})[label] = content
    decision = None
    if game.pending is not None:
        p = game.pending
        site = rules.site_of(p)
        decision = {"player": p.seat, "prompt": p.prompt, "site": site.index if site is not None else None}
        if p.seat == viewer and detail:
            decision["options"] = [{"index": o.index, "id": o.id, "label": o.label} for o in p]
        elif p.seat == viewer:
            decision["option_count"] = len(p)
    gl = {k: _masked(game, v, viewer) for k, v in game.globals.items()}
    return {
        "viewer": viewer,
        "turn": game.globals["turn"],
        "phase": game.globals["phase"],
        "globals": gl,
        "players": players,
        "zones": zones,
        "decision": decision,
        "result": game.result.to_dict() if game.result else None,
    }
