"""What one player may see: computed from the zones' and attributes' declared visibility.

Nothing here knows a game: a zone is shown card by card when it is public, owned by the
viewer with visibility `owner`, or owned by another player with visibility `others` (cards
seen by every player but their holder); otherwise only its size, the cards revealed (to every
player, or to the viewer: `reveal c to PLAYERS`) since they came into it, at their positions,
and those the viewer saw go into it (`known`, in the order of their ids: where among
the zone's places is not remembered; see `KNOWN` in lang/values.py). Player
attributes with visibility `owner` are shown to their owner only, `hidden` to nobody. A card held anywhere else (a global, an attribute, an event's argument) is shown where
the card itself may be seen: in a zone the viewer sees, revealed, or gone from the game;
otherwise it is `{"card": "hidden"}`. A pending decision of another player shows who decides,
not the options; and if its prompt is private (`observation: {private_prompts}`), not its
prompt nor its site either. `seen` lists the latest events the viewer witnessed (see
`GameState.witness`), oldest first, their cards shown as anywhere else.
"""

from __future__ import annotations

from typing import Any

from ..lang.values import (
    ATTACHED,
    CONTROLLER,
    KNOWN,
    OWNER,
    PART,
    SHOWN,
    SILENCED,
    AbilityRef,
    CardRef,
    Labelled,
    PlayerRef,
    TeamRef,
)
from .state import GameState


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


def _visible_card(game: GameState, card: CardRef, viewer: int) -> bool:
    key = game.card_zone.get(card.id)
    if key is None:
        return True
    spec = game.rules.zones[key[0]]
    if spec.visibility == "public" or card.id in game.revealed or game.attrs[card.id][SHOWN] >> viewer & 1:
        return True
    return zone_shown(spec.visibility, key[1], viewer)


def zone_shown(visibility: str, seat: int, viewer: int) -> bool:
    """Whether `viewer` sees the cards of a zone of this visibility owned by `seat` (0: shared)."""
    return (visibility == "public" or (visibility == "owner" and seat == viewer)
            or (visibility == "others" and seat != viewer))


def _by_id(card: CardRef) -> int:
    return card.id


def _masked(game: GameState, value: Any, viewer: int) -> Any:
    """Card references in values (attributes, globals, events' arguments) are shown only if the
    card itself is visible."""
    if isinstance(value, CardRef):
        return _public(value) if _visible_card(game, value, viewer) else {"card": "hidden"}
    if isinstance(value, AbilityRef):
        return _public(value) if _visible_card(game, value.card, viewer) else {"ability": "hidden"}
    if isinstance(value, Labelled):
        return _masked(game, value.value, viewer)
    if isinstance(value, TeamRef):  # (a team is public: by its name)
        return value.name
    if isinstance(value, (list, tuple)):
        return [_masked(game, v, viewer) for v in value]
    if isinstance(value, dict):
        return {k: _masked(game, v, viewer) for k, v in value.items()}
    return _public(value)


def seen_events(game: GameState, viewer: int, limit: int | None = None) -> list[dict]:
    """The latest events `viewer` witnessed (at most `limit`, by default the ruleset's
    `observation: {seen}`), oldest first, as `{"event": name, "args": {...}}` with the cards
    masked (see `_masked`). Walks back from the newest event: the cost is that of the events
    listed, and of the events only others witnessed in between."""
    if limit is None:
        limit = game.rules.seen_count
    found = []
    cell = game.seen
    while cell is not None and len(found) < limit:
        name, args, seat, cell = cell
        if seat == 0 or seat == viewer:
            shown = {}
            for k, v in args.items():
                t = type(v)
                if t is int or t is str or t is bool or v is None:
                    shown[k] = v
                elif t is PlayerRef:
                    shown[k] = f"P{v.seat}"
                else:
                    shown[k] = _masked(game, v, viewer)
            found.append({"event": name, "args": shown})
    found.reverse()
    return found


def card_view(game: GameState, card: CardRef, viewer: int, attributes: bool = True) -> dict:
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
    if d[SILENCED] is not None:  # (shown only when it is: `silence`)
        view["silenced"] = True
    return view


def observation(game: GameState, viewer: int, detail: bool = True) -> dict:
    """What `viewer` may see (see the module). Without `detail`, each card seen shows only its id,
    name and type, the viewer's decision the number of its options, not each one, and the events
    seen are left out: the same visibility, for readers that need no more (a fixed encoding), at
    a fraction of the cost."""
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
    bit = 1 << viewer
    for key, cards in game.zones.items():
        name, seat, row = key
        label = name + (f".{row}" if row else "")
        owner = f"P{seat}" if seat else "shared"
        spec = rules.zones[name]
        visible = zone_shown(spec.visibility, seat, viewer)
        if visible:
            content: Any = [card_view(game, c, viewer, detail) for c in cards]
        else:
            attrs = game.attrs
            shown = [dict(card_view(game, c, viewer, detail), position=i + 1) for i, c in enumerate(cards)
                     if c.id in game.revealed or attrs[c.id][SHOWN] & bit]
            known = [card_view(game, c, viewer, detail) for c in sorted(
                (c for c in cards if attrs[c.id][KNOWN] & bit and c.id not in game.revealed
                 and not attrs[c.id][SHOWN] & bit), key=_by_id)]
            content = {"count": len(cards), **({"revealed": shown} if shown else {}),
                       **({"known": known} if known else {})}
        zones.setdefault(owner, {})[label] = content
    decision = None
    if game.pending is not None:
        p = game.pending
        if p.seat != viewer and rules.is_private(p):
            decision = {"player": p.seat, "prompt": None, "site": None}
        else:
            site = rules.site_of(p)
            decision = {"player": p.seat, "prompt": p.prompt, "site": site.index if site is not None else None}
        if p.seat == viewer and detail:
            decision["options"] = [{"index": o.index, "id": o.id, "label": o.label} for o in p]
        elif p.seat == viewer:
            decision["option_count"] = len(p)
    gl = {k: _masked(game, v, viewer) for k, v in game.globals.items()}
    view = {
        "viewer": viewer,
        "turn": game.globals["turn"],
        "phase": game.globals["phase"],
        "globals": gl,
        "players": players,
        "zones": zones,
        "decision": decision,
        "result": game.result.observed() if game.result else None,
    }
    if rules.team_refs:  # (teams are public: their members and attributes)
        view["teams"] = [{"name": t.name, "members": list(t.seats),
                          "attributes": {k: _masked(game, v, viewer) for k, v in game.team_attrs[t.index - 1].items()}}
                         for t in rules.team_refs]
    if detail:
        view["seen"] = seen_events(game, viewer)
    return view
