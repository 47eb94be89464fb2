"""The parts of `simulate`'s summary for teams, cooperative games and scoring games (issue 32),
read from the records' `winners`, `scores`, `teams` and `team_names` (backends/records.py).

- `teams`: each team's members, wins and win rate with its 95% Wilson interval (a ruleset with
  `teams:`);
- `shared`: in a cooperative game (one team of every player), the games won together, lost
  together and drawn, and the shared win rate with its interval;
- `scores`: in a scoring game (`score:`), the mean score with its 95% interval (the normal
  approximation, mean +- 1.96 standard errors) of each seat and, scored per team, of each team.

Only finished games count (not aborted, not unfinished), as for the seats' wins.
"""

from __future__ import annotations

import math
from typing import Any

from ..report.intervals import Z95, wilson
from ..report.records import winners_of


def rate(wins: int, n: int) -> dict[str, float | None]:
    p = wilson(wins, n)
    return {"rate": _round(p.rate), "low": _round(p.low), "high": _round(p.high)}


def mean_interval(values: list[float]) -> dict[str, float | None]:
    """The mean of values with its 95% interval (mean +- 1.96 standard errors; a single value:
    no interval)."""
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None}
    mean = sum(values) / n
    if n == 1:
        return {"mean": _round(mean), "low": None, "high": None}
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return {"mean": _round(mean), "low": _round(mean - half), "high": _round(mean + half)}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def team_summary(finished: list[dict], players: int) -> dict[str, Any]:
    """The summary's keys for teams and scores (none for a ruleset with neither)."""
    out: dict[str, Any] = {}
    n = len(finished)
    sample = next((r for r in finished if r.get("teams")), None)
    if sample is not None:
        teams, names = sample["teams"], sample.get("team_names") or [f"team{i + 1}" for i in range(len(sample["teams"]))]
        rows = []
        for name, members in zip(names, teams):
            wins = sum(1 for r in finished if set(members) <= set(winners_of(r)))
            rows.append({"name": name, "members": list(members), "wins": wins, "win_rate": rate(wins, n)})
        out["teams"] = rows
        if len(teams) == 1 and len(teams[0]) == players:  # a cooperative game
            won = rows[0]["wins"]
            lost = sum(1 for r in finished if not winners_of(r) and not r.get("draw"))
            out["shared"] = {"wins": won, "losses": lost, "draws": n - won - lost, "win_rate": rate(won, n)}
    scored = [r for r in finished if r.get("scores") is not None]
    if scored:
        seats = [{"seat": s, **mean_interval([r["scores"][s - 1] for r in scored])} for s in range(1, players + 1)]
        scores: dict[str, Any] = {"games": len(scored), "seats": seats}
        if sample is not None and all(len({r["scores"][s - 1] for s in team}) == 1
                                      for r in scored for team in sample["teams"]):  # scored per team
            names = sample.get("team_names") or []
            scores["teams"] = [{"name": names[i] if i < len(names) else f"team{i + 1}", "members": list(team),
                                **mean_interval([r["scores"][team[0] - 1] for r in scored])}
                               for i, team in enumerate(sample["teams"])]
        out["scores"] = scores
    return out
