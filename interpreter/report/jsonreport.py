"""`report.json`: every figure of a balance report, machine-readable, beside index.html and report.md.

Each proportion is `{successes, n, rate, low, high, level}` (Wilson, level 0.95); each difference
`{estimate, low, high, level}`; the cards are in the card table's order (by the opening-hand
effect within the deck), each with its effect, z, p, Benjamini-Hochberg q and flag, its sample
sizes and the descriptive figures (GD, OH, GIH, GNS, IWD, by turn first drawn); with teams or
scores, `cooperative`, `teams` and `scores` (sharedpage.py). docs/balance.md "report.json" lists
the fields.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from .cards import CardStats
from .decks import DeckResult, MatchupResult
from .effects import DETECT, FDR, CardEffect, typical_games_needed
from .games import GameStats, Pairing
from .intervals import POWER_80, Difference, PairedDifference, Proportion
from .shared import Shared
from .sharedpage import json_entries
from .tables import ordered_cards

FILE = "report.json"
FORMAT = "cardrules-report/1"
LEVEL = 0.95


def _proportion(p: Proportion | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"successes": p.successes, "n": p.n, "rate": p.rate, "low": p.low, "high": p.high, "level": LEVEL}


def _difference(d: Difference | PairedDifference) -> dict[str, Any]:
    if isinstance(d, PairedDifference):
        return {"estimate": d.mean, "low": d.low, "high": d.high, "n": d.n, "level": LEVEL}
    return {"estimate": d.estimate, "low": d.low, "high": d.high, "level": LEVEL}


def _plain(value: Any) -> Any:
    """Dataclasses, mappings and sequences as JSON values (proportions with their level; NaN as null)."""
    if isinstance(value, Proportion):
        return _proportion(value)
    if isinstance(value, (Difference, PairedDifference)):
        return _difference(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(getattr(value, k)) for k in asdict(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _games(game: GameStats) -> dict[str, Any]:
    out = _plain(game)
    out.pop("turn_counts", None)  # (the histogram's raw data: in the records)
    return out


def _card(name: str, effect: CardEffect | None, card: CardStats | None,
          info: Mapping[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "type": (info or {}).get("type"),
                           "attributes": {k: v for k, v in (info or {}).items() if k != "type"}}
    if effect is not None:
        out.update(decks=list(effect.decks), in_deck=effect.in_deck, effect={
            "estimate": effect.estimate, "low": effect.low, "high": effect.high, "level": LEVEL, "z": effect.z,
            "p": effect.p, "q": effect.q, "flagged": effect.flagged, "why_none": effect.why or None,
            "with_opening": _proportion(effect.with_opening), "without_opening": _proportion(effect.without_opening),
            "games_needed": effect.games_needed},
            draw_turns=[_plain(t) for t in effect.draw_turns], never_drawn=_proportion(effect.never_drawn))
    else:
        out.update(decks=[], in_deck=0, effect=None, draw_turns=[], never_drawn=None)
    out["descriptive"] = None if card is None else {k: v for k, v in _plain(card).items() if k != "name"}
    return out


def report_data(*, title: str, facts: Sequence[tuple[str, str]], game: GameStats, decks: Sequence[DeckResult],
                matchups: Sequence[MatchupResult], effects: Sequence[CardEffect], cards: Sequence[CardStats],
                pairings: Sequence[Pairing], card_info: Mapping[str, Mapping[str, Any]] | None,
                min_sample: int, headline: Sequence[str] = (), cautions: Sequence[str] = (),
                robust: Sequence[Any] | None = None, shared: Shared | None = None) -> dict[str, Any]:
    by_effect = {e.name: e for e in effects}
    by_stats = {c.name: c for c in cards}
    tested = [e for e in effects if e.p is not None]
    return {
        "format": FORMAT,
        "title": title,
        "headline": list(headline),
        "cautions": list(cautions),
        "facts": dict(facts),
        "games": _games(game),
        "decks": _plain(list(decks)),
        "matchups": _plain(list(matchups)),
        "pairings": _plain(list(pairings)),
        "card_ranking": {
            "by": "opening-hand effect within the deck (stratified by seat, deck, table of decks and agents; CMH weights)",
            "flags": {"method": "Benjamini-Hochberg", "false_discovery_rate": FDR, "tested": len(tested),
                      "flagged": [e.name for e in effects if e.flagged]},
            "power": {"effect": DETECT, "alpha": 0.05, "power": POWER_80,
                      "typical_games_needed": typical_games_needed(effects)},
            "min_sample": min_sample,
        },
        "cards": [_card(name, by_effect.get(name), by_stats.get(name), (card_info or {}).get(name))
                  for name in ordered_cards(effects, cards)],
        "robust": None if robust is None else _plain(list(robust)),
        **({} if shared is None else json_entries(shared, _plain)),
    }


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n", encoding="utf-8")
