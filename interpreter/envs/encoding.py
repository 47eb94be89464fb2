"""A fixed observation encoding for a ruleset (docs/envs.md "Observations"): one vector of numbers
per observation, the same layout in every state, computed from `game.observation(player)` only,
so nothing hidden from the player can leak into it.

Layout, from the ruleset's declarations, with seats relative to the viewer (0 = the viewer, k =
the k-th next player): for each zone (per player: once per seat; shared: once; each row of a zone
with rows apart), its size and the count of each card name seen in it (a hidden zone shows only
its revealed cards); each player's numeric and true/false attributes (0 where the viewer may not
see them); the game's numeric and true/false globals and the turn; the phase, one-hot; whether the
viewer is to decide, and the decision's site, one-hot; whether the game is over.
"""

from __future__ import annotations

from typing import Any

NUMERIC = ("int", "bool")


class ObservationEncoding:
    def __init__(self, rules) -> None:
        ruleset = rules.ruleset
        self.players = rules.player_count
        self.names = sorted(rules.card_defs)
        self._name_index = {name: i for i, name in enumerate(self.names)}
        self.zones: list[tuple[str, str, int | None]] = []  # (zone, row, relation or None if shared)
        for zone in ruleset.zones.values():
            for row in zone.rows or ("",):
                for relation in (range(self.players) if zone.per_player else (None,)):
                    self.zones.append((zone.name, row, relation))
        self._zone_index = {z: i for i, z in enumerate(self.zones)}
        self.player_attributes = sorted(n for n, a in ruleset.player_attributes.items() if a.type in NUMERIC)
        self.globals = sorted(n for n, a in ruleset.globals.items() if a.type in NUMERIC)
        self.phases = ["", *dict.fromkeys(p.name for _where, p in ruleset.steps() if p.name)]
        self.site_count = len(rules.decision_sites) + 1
        self.zone_width = 1 + len(self.names)
        self.players_at = len(self.zones) * self.zone_width
        self.globals_at = self.players_at + self.players * len(self.player_attributes)
        self.phase_at = self.globals_at + len(self.globals) + 1
        self.decision_at = self.phase_at + len(self.phases)
        self.size = self.decision_at + 2 + self.site_count

    def encode(self, observation: dict) -> list[float]:
        """The vector of one observation (`game.observation(player)`), as a list of floats."""
        out = [0.0] * self.size
        viewer = observation["viewer"]
        for owner, zones in observation["zones"].items():
            relation = None if owner == "shared" else (int(owner[1:]) - viewer) % self.players
            for label, content in zones.items():
                name, _, row = label.partition(".")
                at = self._zone_index.get((name, row, relation))
                if at is None:
                    continue
                base = at * self.zone_width
                cards = content if isinstance(content, list) else content.get("revealed", [])
                out[base] = float(len(content) if isinstance(content, list) else content["count"])
                for card in cards:
                    i = self._name_index.get(card.get("name"))
                    if i is not None:
                        out[base + 1 + i] += 1.0
        for p in observation["players"]:
            relation = (p["seat"] - viewer) % self.players
            base = self.players_at + relation * len(self.player_attributes)
            for i, name in enumerate(self.player_attributes):
                out[base + i] = _number(p.get(name))
        values = observation["globals"]
        for i, name in enumerate(self.globals):
            out[self.globals_at + i] = _number(values.get(name))
        out[self.globals_at + len(self.globals)] = float(observation["turn"] or 0)
        phase = observation.get("phase") or ""
        if phase in self.phases:
            out[self.phase_at + self.phases.index(phase)] = 1.0
        decision = observation.get("decision")
        if decision is not None:
            out[self.decision_at] = 1.0 if decision["player"] == viewer else 0.0
            site = decision.get("site")
            out[self.decision_at + 2 + (site if site is not None else self.site_count - 1)] = 1.0
        out[self.decision_at + 1] = 1.0 if observation.get("result") is not None else 0.0
        return out

    def encode_game(self, game, seat: int) -> list[float]:
        """The vector of `seat`'s observation of the game now: `encode(game.observation(seat))`,
        read without the detail it does not use (cards' attributes, options' labels)."""
        return self.encode(game.observation(seat, detail=False))

    def describe(self, index: int) -> str:
        """What one entry of the vector is."""
        if index < self.players_at:
            zone, slot = divmod(index, self.zone_width)
            name, row, relation = self.zones[zone]
            where = f"{name}{'.' + row if row else ''} ({'shared' if relation is None else f'seat +{relation}'})"
            return f"{where}: size" if slot == 0 else f"{where}: count of {self.names[slot - 1]}"
        if index < self.globals_at:
            relation, i = divmod(index - self.players_at, len(self.player_attributes))
            return f"player seat +{relation}: {self.player_attributes[i]}"
        if index < self.phase_at:
            i = index - self.globals_at
            return f"global {self.globals[i]}" if i < len(self.globals) else "turn"
        if index < self.decision_at:
            return f"phase {self.phases[index - self.phase_at] or '(set-up)'}"
        i = index - self.decision_at
        return ["the viewer decides", "the game is over"][i] if i < 2 else f"decision site {i - 2}"


def _number(value: Any) -> float:
    if value is True:
        return 1.0
    if value is False or value is None:
        return 0.0
    if isinstance(value, (int, float)):
        return float(value)
    return 0.0
