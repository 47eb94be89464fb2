"""How a game's result reads, for the terminal and the browser table: one winner ("P2 wins"), a
team ("team1 (P1, P3) win"), a cooperative game's shared win or loss ("everyone wins
together", "everyone loses together"), several players ("P1, P3 win"), a draw, and a scoring
game's scores ("scores: team1 21, team2 19").

It reads the result as plain JSON (`Result.to_dict()` or an observation's `result`), whose keys
of teams and scores an observation leaves out for a plain result.
"""

from __future__ import annotations

from collections.abc import Sequence


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"P{s}" for s in seats)


def _team_name(seats: list[int], teams: list[list[int]] | None, names: Sequence[str] | None) -> str | None:
    """The name of the team these seats are exactly (None when they are not one team)."""
    for i, team in enumerate(teams or ()):
        if sorted(team) == sorted(seats):
            return names[i] if names and i < len(names) else f"team{i + 1}"
    return None


def outcome_words(result: dict, team_names: Sequence[str] | None = None) -> str:
    """Who won or lost, with the reason: "P2 wins (reason)", "team1 (P1, P3) win
    (reason)", "everyone wins together (reason)", "everyone loses together (reason)", "draw
    (reason)"; an unfinished game's reason alone. `team_names`: the ruleset's, in order."""
    reason = result.get("reason")
    if result.get("unfinished"):  # (stopped at its cap of decisions: the reason says so)
        return str(reason)
    winners = list(result.get("winners") or ([result["winner"]] if result.get("winner") is not None else []))
    losers = list(result.get("losers") or ())
    teams = result.get("teams")
    if not winners:
        if losers:
            return f"everyone loses together ({reason})"
        return f"draw ({reason})"
    if len(winners) == 1 and not teams:
        return f"P{winners[0]} wins ({reason})"
    if not losers:
        return f"everyone wins together ({reason})"
    team = _team_name(winners, teams, team_names)
    if team is not None:
        return f"{team} ({_seats(winners)}) win{'s' if len(winners) == 1 else ''} ({reason})"
    return f"{_seats(winners)} win{'s' if len(winners) == 1 else ''} ({reason})"


def scores_words(result: dict, team_names: Sequence[str] | None = None) -> str | None:
    """A scoring game's scores: per team ("team1 21, team2 19") when each team's
    members carry one score, else per seat ("P1 12, P2 9, ..."); None without scores."""
    scores = result.get("scores")
    if scores is None:
        return None
    teams = result.get("teams")
    if teams and all(len({scores[s - 1] for s in team}) == 1 for team in teams):
        names = [team_names[i] if team_names and i < len(team_names) else f"team{i + 1}" for i in range(len(teams))]
        return "scores: " + ", ".join(f"{name} {_number(scores[team[0] - 1])}" for name, team in zip(names, teams))
    return "scores: " + ", ".join(f"P{i + 1} {_number(v)}" for i, v in enumerate(scores))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def result_words(result: dict, team_names: Sequence[str] | None = None) -> str:
    """The outcome and, in a scoring game, the scores: "team1 (P1, P3) win (every card is
    played); scores: team1 21, team2 19"."""
    scores = scores_words(result, team_names)
    outcome = outcome_words(result, team_names)
    return f"{outcome}; {scores}" if scores else outcome
