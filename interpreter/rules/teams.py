"""The ruleset's teams (`teams:`) and score (`score:`), read and checked.

`teams: {partnerships: [[1, 3], [2, 4]], names: [...], attributes: {...}}` fixes partnerships by
seat (every seat of the game in exactly one team), or `partnerships: all` puts every player in
one team (a cooperative game). `score: {per: player | team, attribute: NAME, rewards: end |
steps}` makes a scoring game: the int attribute that holds each player's or team's score, which
a game's result carries. Every problem is a located `RulesError` (the key path in the YAML), with
a did-you-mean where a name is misspelt.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import RulesError, did_you_mean
from .model import AttrSpec, Score, Teams


class _Reader(Protocol):
    errors: list

    def span(self, *key_path): ...
    def attr_spec(self, name: str, raw: dict, *key_path) -> AttrSpec: ...


def read_teams(reader: _Reader, raw: Any, player_count: int) -> Teams | None:
    """The `teams:` of a ruleset loaded with `player_count` players (None without the key)."""
    if raw is None:
        return None
    span = reader.span("teams")
    partnerships = raw["partnerships"]
    cooperative = partnerships == "all"
    if cooperative:
        seats: list[tuple[int, ...]] = [tuple(range(1, player_count + 1))]
    else:
        seats = []
        where: dict[int, int] = {}  # seat -> the team (from 0) that holds it
        before = len(reader.errors)
        for i, team in enumerate(partnerships):
            kept = []
            for j, seat in enumerate(team):
                at = reader.span("teams", "partnerships", i, j)
                if not 1 <= seat <= player_count:
                    reader.errors.append(RulesError(
                        f"teams: team {i + 1} names seat {seat}, but the game has {player_count} players "
                        f"(seats 1 to {player_count})", at,
                        hint="a seat is a player's number, from 1"))
                elif seat in where:
                    reader.errors.append(RulesError(
                        f"teams: seat {seat} is in two teams ({where[seat] + 1} and {i + 1})", at,
                        hint="each player belongs to one team"))
                else:
                    where[seat] = i
                    kept.append(seat)
            seats.append(tuple(sorted(kept)))
        missing = [s for s in range(1, player_count + 1) if s not in where]
        if missing and len(reader.errors) == before:
            reader.errors.append(RulesError(
                f"teams: seat{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                f"{'are' if len(missing) > 1 else 'is'} in no team", reader.span("teams", "partnerships"),
                hint="every player belongs to one team: a player alone is a team of one, [3]"))
    names = [str(n) for n in raw.get("names") or ()]
    if names and len(names) != len(seats):
        reader.errors.append(RulesError(
            f"teams: {len(names)} names for {len(seats)} team{'s' if len(seats) > 1 else ''}",
            reader.span("teams", "names"), hint="name every team, in the order of partnerships"))
    if len(names) != len(seats):
        names = [f"team{i + 1}" for i in range(len(seats))]
    attributes = {n: reader.attr_spec(n, r, "teams", "attributes", n)
                  for n, r in (raw.get("attributes") or {}).items()}
    return Teams(tuple(seats), tuple(names), attributes, cooperative, span)


def read_score(reader: _Reader, raw: Any, teams: Teams | None, player_attributes: dict[str, AttrSpec]) -> Score | None:
    """The `score:` of a ruleset (None without the key): its attribute must be an int attribute
    of players (per: player) or of the declared teams (per: team)."""
    if raw is None:
        return None
    per, name = raw["per"], str(raw["attribute"])
    at = reader.span("score", "attribute")
    if per == "team" and teams is None:
        reader.errors.append(RulesError("score: per team, but the ruleset declares no teams",
                                        reader.span("score", "per"),
                                        hint="declare teams: {partnerships: ...}, or score per player"))
    else:
        declared = teams.attributes if per == "team" and teams is not None else player_attributes
        whose = "team attribute" if per == "team" else "player attribute"
        spec = declared.get(name)
        if spec is None:
            where = "teams.attributes" if per == "team" else "player_attributes"
            reader.errors.append(RulesError(
                f"score: no {whose} {name!r}{did_you_mean(name, declared)}", at,
                hint=f"declare it under {where}" + (f" ({', '.join(declared)})" if declared else "")))
        elif spec.type != "int":
            reader.errors.append(RulesError(f"score: the {whose} {name!r} is {spec.type}, not int", at,
                                            hint="a score is a number"))
    return Score(per, name, raw.get("rewards", "end"), reader.span("score"))
