"""Games to JSON and back, and log entries as JSON-ready dicts.

Values are encoded so that a saved game reloads exactly: cards as {"card": id}, players as
{"player": seat}, zone keys as [name, seat, row]; frames keep the name of their code block,
which the loaded `Rules` resolves again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compile.sites import site_key
from ..errors import RulesError
from ..lang.runtime import Frame
from ..lang.values import ATTACHED, AbilityRef, CardRef, Labelled, PlayerRef, TeamRef, ZoneKey
from .decisions import Option, Pending
from .rows import row_dict, row_from_dict
from .state import GAME, OPTIONS, GameState, Result
from .state_fields import DERIVED, FIELDS, SAVED, reset_caches

FORMAT = 1


def encode(value: Any) -> Any:
    if isinstance(value, CardRef):
        return {"card": value.id, "name": value.defn.name}
    if isinstance(value, PlayerRef):
        return {"player": value.seat}
    if isinstance(value, TeamRef):
        return {"team": value.index}
    if isinstance(value, ZoneKey):
        return {"zone": list(value)}
    if isinstance(value, Labelled):
        return {"labelled": [encode(value.value), value.label]}
    if isinstance(value, AbilityRef):
        return {"ability": [value.card.id, value.index], "name": value.card.defn.name}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"map": [[k, encode(v)] for k, v in value.items()]}
    if isinstance(value, Result):  # (the end entry of a log whose result is not plain)
        return {"result": value.to_dict()}
    if value is GAME:
        return {"marker": "game"}
    if value is OPTIONS:
        return {"marker": "options"}
    return value


def decode(value: Any, game: GameState) -> Any:
    if isinstance(value, list):
        return [decode(v, game) for v in value]
    if isinstance(value, dict):
        if "ability" in value:
            card_id, index = value["ability"]
            card = game.cards.get(card_id) or CardRef(card_id, game.rules.card_defs[value["name"]])
            return card.abilities[index]
        if "card" in value:
            card = game.cards.get(value["card"])
            if card is None:  # a card deleted since: keep a handle for logs and locals
                card = CardRef(value["card"], game.rules.card_defs[value["name"]])
            return card
        if "player" in value:
            return game.players[value["player"] - 1]
        if "team" in value:
            return game.rules.team_refs[value["team"] - 1]
        if "zone" in value:
            return ZoneKey(*value["zone"])
        if "labelled" in value:
            return Labelled(decode(value["labelled"][0], game), value["labelled"][1])
        if "map" in value:
            return {k: decode(v, game) for k, v in value["map"]}
        if "result" in value:
            return Result.from_dict(value["result"])
        if "marker" in value:
            return GAME if value["marker"] == "game" else OPTIONS
    return value


def readable(value: Any, game: GameState) -> Any:
    """A value for a log line: cards as 'Name#id', players as 'P1', abilities as 'Name#id: label'
    (nothing that changes while the game goes on: a log line reads the same whenever it is
    written out)."""
    if isinstance(value, AbilityRef):
        ability = value.ability.label or f"ability {value.index + 1}"
        return f"{value.card.defn.name}#{value.card.id}: {ability}"
    if isinstance(value, CardRef):
        return f"{value.defn.name}#{value.id}"
    if isinstance(value, PlayerRef):
        return f"P{value.seat}"
    if isinstance(value, TeamRef):
        return value.name
    if isinstance(value, (list, tuple)):
        return [readable(v, game) for v in value]
    if isinstance(value, dict):
        return {k: readable(v, game) for k, v in value.items()}
    return value


def log_entry(game: GameState, entry: tuple) -> dict:
    kind = entry[0]
    if kind == "event":
        return {"type": "event", "event": entry[1], "args": readable(entry[2], game)}
    if kind == "decision":
        return {"type": "decision", "player": entry[1], "option": entry[2], "label": entry[3]}
    if len(entry) > 4:  # (a result of teams, shared or scored: see `Result.plain`)
        out = {"type": "end", "winner": entry[1], "reason": entry[2]}
        if entry[3]:
            out["unfinished"] = True
        result = entry[4]
        out.update(winners=list(result.winners), losers=list(result.losers),
                   scores=list(result.scores) if result.scores is not None else None)
        return out
    if len(entry) > 3:  # (stopped at the cap of decisions: see `stop_unfinished`)
        return {"type": "end", "winner": entry[1], "reason": entry[2], "unfinished": True}
    return {"type": "end", "winner": entry[1], "reason": entry[2]}


def game_to_json(game: GameState) -> dict:
    """The game as plain JSON: its header, then every field `FIELDS` saves, in its order."""
    out: dict[str, Any] = {"format": FORMAT, "ruleset": game.rules.name, "ruleset_file": game.rules.ruleset.file}
    for f in SAVED:
        out[f.save.key] = CODECS[f.save.codec][0](game, getattr(game, f.name))
    return out


def _frames_to_json(game: GameState, frames: list[Frame]) -> list:
    return [{"code": f.code.name, "pc": f.pc, "locals": encode(f.locals), "self": encode(f.self_card),
             "controller": encode(f.controller), "event": encode(f.event),
             "applied": [[cid, list(key)] for cid, key in sorted(f.applied, key=repr)]} for f in frames]


def _frames_from_json(game: GameState, data: list) -> list[Frame]:
    frames = []
    for fr in data:
        code = game.rules.codes.get(fr["code"])
        if code is None:
            raise RulesError(f"saved game refers to code {fr['code']!r} that this ruleset does not have")
        frame = Frame(code, decode(fr["locals"], game), decode(fr["self"], game), decode(fr["controller"], game),
                      decode(fr["event"], game), frozenset((cid, tuple(key)) for cid, key in fr["applied"]))
        frame.pc = fr["pc"]
        frames.append(frame)
    return frames


def _pending_to_json(game: GameState, p: Pending | None) -> dict | None:
    if p is None:
        return None
    site = game.rules.site_of(p)
    pending = {"seat": p.seat, "var": p.var, "prompt": p.prompt, "site": site.index if site else None,
               "options": [[o.id, o.label, encode(o.value)] for o in p]}
    if game.rules.is_private(p):  # (a `may` has no site: say which private decision it is)
        keys = [site_key(span) for span in game.rules.private_points]
        pending["private"] = keys.index(site_key(p.span))
    return pending


def _pending_from_json(game: GameState, p: dict | None) -> Pending | None:
    if p is None:
        return None
    options = [Option(oid, label, decode(v, game), i, game) for i, (oid, label, v) in enumerate(p["options"])]
    pending = Pending.of_options(p["seat"], p["var"], p["prompt"], options)
    if p.get("site") is not None:  # (where it was asked: by site, as a file's path may differ)
        pending.span = game.rules.decision_sites[p["site"]].span
    elif p.get("private") is not None:
        pending.span = game.rules.private_points[p["private"]]
    return pending


def _generator_from_json(game: GameState, data: list):
    version, internal, gauss = data
    game.rng.setstate((version, tuple(internal), gauss))
    return game.rng


def _result_from_json(game: GameState, r: dict | None) -> Result | None:
    return None if r is None else Result.from_dict(r)


def _rows_from_json(game: GameState, data: list) -> list[list]:
    """Each card's row of stored values from a saved game's attributes by name (`row_dict`)."""
    rows: list[list] = [[] for _ in range(max((cid for cid, _d in data), default=0) + 1)]
    defs, slots = game.cards, game.rules.attr_slots
    for cid, d in data:
        try:
            rows[cid] = row_from_dict(defs[cid].defn, slots, decode(d, game))
        except KeyError as err:
            raise RulesError(f"saved game: card {cid} has no attribute {err.args[0]!r}") from None
    return rows


def _cards_from_json(game: GameState, data: list) -> dict[int, CardRef]:
    card_defs = game.rules.card_defs
    # (its origin: since issue 30)
    return {cid: CardRef(cid, card_defs[name], tuple(origin[0]) if origin and origin[0] else None)
            for cid, name, *origin in data}


# How a saved game keeps a field (engine/state_fields.py names these): (to JSON, from JSON), each
# given the game and the value; loading sets fields in the order of `FIELDS`, so a codec may
# read the fields saved before its own (the cards, above all).
CODECS: dict[str, tuple[Callable[[GameState, Any], Any], Callable[[GameState, Any], Any]]] = {
    "raw": (lambda game, v: v, lambda game, v: v),
    "encoded": (lambda game, v: encode(v), lambda game, v: decode(v, game)),
    "encoded items": (lambda game, v: [encode(x) for x in v], lambda game, v: [decode(x, game) for x in v]),
    "tuples": (lambda game, v: [encode(list(m)) for m in v], lambda game, v: [tuple(decode(m, game)) for m in v]),
    "sorted": (lambda game, v: sorted(v), lambda game, v: set(v)),
    "cards": (lambda game, v: [[cid, c.defn.name, list(c.origin or ())] for cid, c in v.items()], _cards_from_json),
    "attrs": (lambda game, v: [[cid, encode(row_dict(game.cards[cid].defn, d))] for cid, d in enumerate(v) if d],
              _rows_from_json),
    "zones": (lambda game, v: [[list(k), [c.id for c in cards]] for k, cards in v.items()],
              lambda game, v: {ZoneKey(*key): [game.cards[i] for i in ids] for key, ids in v}),
    "generator": (lambda game, v: (lambda s: [s[0], list(s[1]), s[2]])(v.getstate()), _generator_from_json),
    "frames": (_frames_to_json, _frames_from_json),
    "decision": (_pending_to_json, _pending_from_json),
    "result": (lambda game, v: v.to_dict() if v else None, _result_from_json),
    "log": (lambda game, v: [[e[0], *encode(list(e[1:]))] for e in v],
            lambda game, v: [(e[0], *decode(e[1:], game)) for e in v]),
    "seen": (lambda game, v: _seen_to_json(v), lambda game, v: _seen_from_json(v, game)),
}


def _derive(game: GameState) -> None:
    """The fields a loaded game rebuilds from those saved (`DERIVED` in engine/state_fields.py)."""
    game.card_zone = {card.id: key for key, cards in game.zones.items() for card in cards}
    game.attrs.extend([] for _ in range(game.next_id - len(game.attrs)))  # (the last cards made may be gone)
    game.attrs_owned = bytearray(b"\x01") * len(game.attrs)  # (rows just decoded: none is shared)
    game.attached_ids = {cid for cid, d in enumerate(game.attrs) if d and d[ATTACHED] is not None}
    game.halted = game.pending is not None or game.result is not None


DERIVED_FIELDS = ("card_zone", "attrs_owned", "attached_ids", "halted")  # (what `_derive` sets)


def _seen_to_json(chain: tuple | None) -> list:
    """The events players witnessed (`GameState.seen`), oldest first: [name, args, seat]."""
    out = []
    while chain is not None:
        name, args, seat, chain = chain
        out.append([name, encode(args), seat])
    out.reverse()
    return out


def _seen_from_json(entries: list, game: GameState) -> tuple | None:
    chain = None
    for name, args, seat in entries:
        chain = (name, decode(args, game), seat, chain)
    return chain


def game_from_json(data: dict, rules) -> GameState:
    """A game from its JSON (`game_to_json`), for `rules`: every field `FIELDS` saves, in its
    order, then those derived from them; its caches start empty."""
    if data.get("format") != FORMAT:
        raise RulesError(f"saved game format {data.get('format')!r} is not {FORMAT}")
    if "seed" not in data:
        raise RulesError("saved game has no 'seed'")
    game = GameState(rules, data["seed"], data.get("logging", True))
    for f in SAVED:
        save = f.save
        if not save.restored:
            continue
        if save.key not in data:
            if save.optional:  # (a game saved before the field was kept: a new game's value)
                continue
            raise RulesError(f"saved game has no {save.key!r}")
        setattr(game, f.name, CODECS[save.codec][1](game, data[save.key]))
    _derive(game)
    reset_caches(game)
    return game


def _check_declaration() -> None:
    """Every codec the declaration names exists, and `_derive` sets every derived field."""
    unknown = [f"{f.name}: {f.save.codec}" for f in SAVED if f.save.codec not in CODECS]
    derived = {f.name for f in FIELDS if f.load == DERIVED}
    if unknown or derived != set(DERIVED_FIELDS):
        raise AssertionError(f"engine/state_fields.py and serialize.py disagree: unknown codecs {unknown}, "
                             f"derived fields {sorted(derived)} but `_derive` sets {sorted(DERIVED_FIELDS)}")


_check_declaration()
