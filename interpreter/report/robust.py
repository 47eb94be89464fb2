"""`simulate --robust`: the headline and card verdicts of a run set beside those of the same seeds
played by a second agent strength, and the verdicts that change.

A verdict reads an effect's 95% interval: "higher" (above 0), "lower" (below 0) or "no clear
difference" (the interval holds 0); "not measured" where there is no interval (no games, or a card
below the minimum sample). A verdict *changes* when both runs measured it and they disagree: a
seat advantage that changes sign beyond chance or becomes (or stops being) significant, a card
flagged on one side and not on the other. Two "no clear difference" of opposite signs are not a
change: their signs are noise.

The figures: each seat's win rate minus an even share (1/seats), the first player's advantage,
and each ranked card's effect (CARD_MEASURE).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .documents import Table
from .effects import card_effects
from .games import GameStats, game_stats
from .intervals import Difference
from .records import Record
from .tables import difference_text

HIGHER, LOWER, UNCLEAR, UNMEASURED = "higher", "lower", "no clear difference", "not measured"

# The card figure whose verdict is compared: the opening-hand effect within the deck, the figure
# the report ranks and flags cards by (effects.py; IWD is confounded by game length).
CARD_MEASURE = "opening-hand effect"


@dataclass(frozen=True)
class Verdict:
    kind: str  # "seat", "first player" or "card"
    name: str  # "seat 1", "first player", a card's name
    measure: str
    run: Difference
    robust: Difference
    run_verdict: str
    robust_verdict: str

    @property
    def changed(self) -> bool:
        return UNMEASURED not in (self.run_verdict, self.robust_verdict) and self.run_verdict != self.robust_verdict

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "measure": self.measure,
                "run": [self.run.estimate, self.run.low, self.run.high],
                "robust": [self.robust.estimate, self.robust.low, self.robust.high],
                "run_verdict": self.run_verdict, "robust_verdict": self.robust_verdict, "changed": self.changed}


def verdict_of(effect: Difference) -> str:
    if effect.estimate is None or effect.low is None or effect.high is None:
        return UNMEASURED
    if effect.low > 0:
        return HIGHER
    if effect.high < 0:
        return LOWER
    return UNCLEAR


def _seat_advantages(game: GameStats) -> dict[str, Difference]:
    even = 1 / len(game.seat_wins) if game.seat_wins else 0.0
    advantages = {}
    for seat, p in sorted(game.seat_wins.items()):
        if p.rate is None or p.low is None or p.high is None:
            advantages[f"seat {seat}"] = Difference(None, None, None)
        else:
            advantages[f"seat {seat}"] = Difference(p.rate - even, p.low - even, p.high - even)
    return advantages


def _card_effects(records: Sequence[Record], min_sample: int) -> dict[str, Difference]:
    """Each card's opening-hand effect; not measured for a card in fewer than `min_sample` games."""
    return {e.name: Difference(e.estimate, e.low, e.high) if e.in_deck >= min_sample else Difference(None, None, None)
            for e in card_effects(records)}


def _pair(kind: str, measure: str, run: dict[str, Difference], robust: dict[str, Difference]) -> list[Verdict]:
    none = Difference(None, None, None)
    names = list(run) + [n for n in robust if n not in run]
    return [Verdict(kind, name, measure, run.get(name, none), robust.get(name, none),
                    verdict_of(run.get(name, none)), verdict_of(robust.get(name, none))) for name in names]


def verdicts(records: Sequence[Record], robust_records: Sequence[Record], min_sample: int) -> list[Verdict]:
    """The verdicts of both runs: the seats, the first player, then the cards; the changed ones
    first within each kind."""
    run_game, robust_game = game_stats(records), game_stats(robust_records)
    found = _pair("seat", "win rate − even share", _seat_advantages(run_game), _seat_advantages(robust_game))
    found += _pair("first player", "win rate − even share", {"first player": run_game.first_player_advantage},
                   {"first player": robust_game.first_player_advantage})
    found += _pair("card", CARD_MEASURE, _card_effects(records, min_sample),
                   _card_effects(robust_records, min_sample))
    kinds = ["seat", "first player", "card"]
    return sorted(found, key=lambda v: (kinds.index(v.kind), not v.changed))


def robust_summary(agents: Sequence[str], robust_agents: Sequence[str], records: Sequence[Record],
                   robust_records: Sequence[Record], min_sample: int) -> dict[str, Any]:
    """The `robust` block of `simulate --json`."""
    found = verdicts(records, robust_records, min_sample)
    return {"agents": list(robust_agents), "run_agents": list(agents), "games": len(robust_records),
            "changed": [v.name for v in found if v.changed], "verdicts": [v.to_json() for v in found]}


def changed_caution(found: Sequence[Verdict], robust_agents: Sequence[str]) -> str | None:
    """The headline's line on the verdicts that change at the second strength, or None."""
    changed = [v for v in found if v.changed]
    if not changed:
        return None
    names = ", ".join(f"{v.name} ({v.run_verdict} → {v.robust_verdict})" for v in changed[:8])
    more = f" and {len(changed) - 8} more" if len(changed) > 8 else ""
    return (f"Caution: {len(changed)} verdict{'s' if len(changed) != 1 else ''} change when the same seeds are "
            f"played by {' vs '.join(robust_agents)}: {names}{more} (see Robustness).")


def robustness_table(found: Sequence[Verdict], agents: Sequence[str], robust_agents: Sequence[str]) -> Table:
    rows = tuple((v.name, v.measure, difference_text(v.run), difference_text(v.robust), v.run_verdict,
                  v.robust_verdict, "CHANGED" if v.changed else "") for v in found)
    muted = frozenset(i for i, v in enumerate(found) if not v.changed)
    run_label, robust_label = " vs ".join(agents), " vs ".join(robust_agents)
    return Table(f"Robustness: the same seeds played by {robust_label}",
                 ("Figure", "Measure", f"This run ({run_label}, 95%)", f"{robust_label} (95%)", "Verdict",
                  f"Verdict under {robust_label}", "Changed"), rows, muted=muted,
                 note="A verdict reads the 95% interval: higher (above 0), lower (below 0) or no clear difference. "
                      "CHANGED: both runs measured the figure and their verdicts differ (a sign that changes beyond "
                      "chance, or a flag that appears or goes); changed rows come first. Cards below the minimum "
                      "sample on either side are not measured there.")
