"""Games to JSON and back, and log entries as JSON-ready dicts.

Values are encoded so that a saved game reloads exactly: cards as {"card": id}, players as
{"player": seat}, zone keys as [name, seat, row]; frames keep the name of their code block,
which the loaded `Rules` resolves again.
"""

from __future__ import annotations

from typing import Any

from ..compile.sites import site_key
from ..errors import RulesError
from ..lang.runtime import Frame
from ..lang.values import ATTACHED, AbilityRef, CardRef, Labelled, PlayerRef, ZoneKey
from .decisions import Option, Pending
from .game import GAME, OPTIONS, Game, Result

FORMAT = 1


def encode(value: Any) -> Any:
    if isinstance(value, CardRef):
        return {"card": value.id, "name": value.defn.name}
    if isinstance(value, PlayerRef):
        return {"player": value.seat}
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
    if value is GAME:
        return {"marker": "game"}
    if value is OPTIONS:
        return {"marker": "options"}
    return value


def decode(value: Any, game: Game) -> Any:
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
        if "zone" in value:
            return ZoneKey(*value["zone"])
        if "labelled" in value:
            return Labelled(decode(value["labelled"][0], game), value["labelled"][1])
        if "map" in value:
            return {k: decode(v, game) for k, v in value["map"]}
        if "marker" in value:
            return GAME if value["marker"] == "game" else OPTIONS
    return value


def readable(value: Any, game: Game) -> Any:
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
    if isinstance(value, (list, tuple)):
        return [readable(v, game) for v in value]
    if isinstance(value, dict):
        return {k: readable(v, game) for k, v in value.items()}
    return value


def log_entry(game: Game, entry: tuple) -> dict:
    kind = entry[0]
    if kind == "event":
        return {"type": "event", "event": entry[1], "args": readable(entry[2], game)}
    if kind == "decision":
        return {"type": "decision", "player": entry[1], "option": entry[2], "label": entry[3]}
    if len(entry) > 3:  # (stopped at the cap of decisions: see `stop_unfinished`)
        return {"type": "end", "winner": entry[1], "reason": entry[2], "unfinished": True}
    return {"type": "end", "winner": entry[1], "reason": entry[2]}


def game_to_json(game: Game) -> dict:
    frames = []
    for f in game.frames:
        frames.append({
            "code": f.code.name, "pc": f.pc, "locals": encode(f.locals), "self": encode(f.self_card),
            "controller": encode(f.controller), "event": encode(f.event),
            "applied": [[cid, list(key)] for cid, key in sorted(f.applied, key=repr)],
        })
    pending = None
    if game.pending is not None:
        p = game.pending
        site = game.rules.site_of(p)
        pending = {"seat": p.seat, "var": p.var, "prompt": p.prompt, "site": site.index if site else None,
                   "options": [[o.id, o.label, encode(o.value)] for o in p]}
        if game.rules.is_private(p):  # (a `may` has no site: say which private decision it is)
            keys = [site_key(span) for span in game.rules.private_points]
            pending["private"] = keys.index(site_key(p.span))
    return {
        "format": FORMAT,
        "ruleset": game.rules.name,
        "ruleset_file": game.rules.ruleset.file,
        "options": game.options,
        "seed": game.seed,
        "cards": [[cid, c.defn.name, list(c.origin or ())] for cid, c in game.cards.items()],
        "attrs": [[cid, encode(d)] for cid, d in game.attrs.items()],
        "zones": [[list(k), [c.id for c in v]] for k, v in game.zones.items()],
        "players": [encode(p) for p in game.player_attrs],
        "globals": encode(game.globals),
        "temp_mods": [encode(list(m)) for m in game.temp_mods],
        "temp_grants": [encode(list(m)) for m in game.temp_grants],
        "rng": [game.rng.getstate()[0], list(game.rng.getstate()[1]), game.rng.getstate()[2]],
        "frames": frames,
        "pending": pending,
        "result": game.result.to_dict() if game.result else None,
        "log": [[e[0], *encode(list(e[1:]))] for e in game.log_entries],
        "logging": game.logging,
        "next_id": game.next_id,
        "clock": game.clock,
        "revealed": sorted(game.revealed),
        "seen": _seen_to_json(game.seen),
        "steps": game.steps,
        "turns_before": game.turns_before,
        "decisions": game.decisions,
        "max_decisions": game.max_decisions,
    }


def _seen_to_json(chain: tuple | None) -> list:
    """The events players witnessed (`Game.seen`), oldest first: [name, args, seat]."""
    out = []
    while chain is not None:
        name, args, seat, chain = chain
        out.append([name, encode(args), seat])
    out.reverse()
    return out


def _seen_from_json(entries: list, game: Game) -> tuple | None:
    chain = None
    for name, args, seat in entries:
        chain = (name, decode(args, game), seat, chain)
    return chain


def game_from_json(data: dict, rules) -> Game:
    if data.get("format") != FORMAT:
        raise RulesError(f"saved game format {data.get('format')!r} is not {FORMAT}")
    game = Game(rules, data["seed"], data.get("logging", True))
    for cid, name, *origin in data["cards"]:  # (its origin: since issue 30)
        game.cards[cid] = CardRef(cid, rules.card_defs[name], tuple(origin[0]) if origin and origin[0] else None)
    game.attrs = {cid: decode(d, game) for cid, d in data["attrs"]}
    game.zones = {}
    game.card_zone = {}
    for key, ids in data["zones"]:
        zk = ZoneKey(*key)
        game.zones[zk] = [game.cards[i] for i in ids]
        for i in ids:
            game.card_zone[i] = zk
    game.player_attrs = [decode(p, game) for p in data["players"]]
    game.globals = decode(data["globals"], game)
    game.temp_mods = [tuple(decode(m, game)) for m in data["temp_mods"]]
    game.temp_grants = [tuple(decode(m, game)) for m in data["temp_grants"]]
    version, internal, gauss = data["rng"]
    game.rng.setstate((version, tuple(internal), gauss))
    for fr in data["frames"]:
        code = rules.codes.get(fr["code"])
        if code is None:
            raise RulesError(f"saved game refers to code {fr['code']!r} that this ruleset does not have")
        frame = Frame(code, decode(fr["locals"], game), decode(fr["self"], game), decode(fr["controller"], game),
                      decode(fr["event"], game), frozenset((cid, tuple(key)) for cid, key in fr["applied"]))
        frame.pc = fr["pc"]
        game.frames.append(frame)
    if data["pending"] is not None:
        p = data["pending"]
        options = [Option(oid, label, decode(v, game), i, game) for i, (oid, label, v) in enumerate(p["options"])]
        game.pending = Pending.of_options(p["seat"], p["var"], p["prompt"], options)
        if p.get("site") is not None:  # (where it was asked: by site, as a file's path may differ)
            game.pending.span = rules.decision_sites[p["site"]].span
        elif p.get("private") is not None:
            game.pending.span = rules.private_points[p["private"]]
        game.halted = True
    if data["result"] is not None:
        r = data["result"]
        game.result = Result(r["winner"], r["reason"], r["turns"], bool(r.get("unfinished")))
        game.halted = True
    game.log_entries = [(e[0], *decode(e[1:], game)) for e in data["log"]]
    game.next_id = data["next_id"]
    game.turns_before = data.get("turns_before", 0)
    game.clock = data["clock"]
    game.revealed = set(data["revealed"])
    game.seen = _seen_from_json(data.get("seen", []), game)
    game.attached_ids = {cid for cid, d in game.attrs.items() if d[ATTACHED] is not None}
    game.steps = data.get("steps", 0)
    game.decisions = data.get("decisions", 0)
    game.max_decisions = data.get("max_decisions", rules.max_decisions)
    game.version += 1
    game.layout += 1
    game.static_layout += 1
    game.listener_layout += 1
    return game
