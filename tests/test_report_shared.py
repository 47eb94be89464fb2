"""Issue 33.6: the report of cooperative, team and scoring games, from records that carry the keys
of the teams contract (docs/balance.md, records): `winners` (the seats that won), `scores` (per
seat, or null) and `teams` (the partnerships, or null). The records are built by hand; records
without the keys report exactly as before."""

from __future__ import annotations

import json
import math

import pytest

from interpreter.report import compare_stats, write_report


def _player(seat: int, won: bool, deck: dict, opening: dict, name: str) -> dict:
    return {"seat": seat, "agent": "random", "won": won, "deck": deck, "deck_name": name, "opening": opening,
            "drawn": {}, "played": {}, "picked": {}, "counters": {}}


def _record(seed: int, winners: list[int], players: list[dict], *, scores=None, teams=None, reason="Goal",
            decks=None) -> dict:
    seats = len(players)
    return {"seed": seed, "ruleset": "toy", "title": "Toy", "options": {}, "agents": ["random"] * seats,
            "winner": winners[0] if len(winners) == 1 else None, "winners": winners, "scores": scores,
            "teams": teams, "draw": False, "aborted": False, "reason": reason, "rule": None, "timeout": False,
            "first_player": 1, "turns": 5, "decisions": 20, "lead_changes": None, "decks": decks,
            "players": players, "offers": []}


def cooperative(games: int = 10, won: int = 7) -> list[dict]:
    """Four seats, one team of all; the first `won` games are won together (reason Goal), the
    others lost together (reason Time: winners [])."""
    records = []
    for i in range(games):
        win = i < won
        players = [_player(s, win, {"Card": 1}, {"Card": 1}, "Crew") for s in (1, 2, 3, 4)]
        records.append(_record(i, [1, 2, 3, 4] if win else [], players, teams=[[1, 2, 3, 4]],
                               reason="Goal" if win else "Time", decks=["Crew"] * 4))
    return records


def scoring(games: int = 60, boost: float = 5.0) -> list[dict]:
    """Two seats scored per player: seat 1's deck A holds Boost, in its opening hand in the even games,
    worth `boost` points; seat 2 (deck B) scores 12. Seat 1 scores 10 + (i % 3) + boost when it has it,
    so that the noise is the same with and without it: the effect on score is exactly `boost`."""
    records = []
    for i in range(games):
        has = i % 2 == 0
        one = 10 + i % 3 + (boost if has else 0.0)
        two = 12.0
        winners = [1] if one > two else [2] if two > one else []
        players = [_player(1, 1 in winners, {"Boost": 1, "Plain": 2}, {"Boost": 1} if has else {"Plain": 1}, "A"),
                   _player(2, 2 in winners, {"Other": 3}, {"Other": 1}, "B")]
        records.append(_record(i, winners, players, scores=[one, two], decks=["A", "B"]))
    return records


def teamplay(games: int = 20) -> list[dict]:
    """Seats 1 and 3 against 2 and 4, team-scored (each member carries its team's score): team 1
    wins the games i % 4 != 0 (15 of 20), scoring 3 to team 2's 1, and loses the others 0 to 2."""
    records = []
    for i in range(games):
        first_wins = i % 4 != 0
        winners = [1, 3] if first_wins else [2, 4]
        a, b = (3.0, 1.0) if first_wins else (0.0, 2.0)
        players = [_player(s, s in winners, {"Card": 2}, {"Card": 1} if s % 2 else {}, "Deck") for s in (1, 2, 3, 4)]
        records.append(_record(i, winners, players, scores=[a, b, a, b], teams=[[1, 3], [2, 4]]))
    return records


def _report(tmp_path, records) -> tuple[str, dict, str]:
    out = tmp_path / "report"
    write_report(records, out, title="Toy", meta={}, min_sample=10)
    return ((out / "report.md").read_text(encoding="utf-8"), json.loads((out / "report.json").read_text("utf-8")),
            (out / "index.html").read_text(encoding="utf-8"))


def _table(markdown: str, title: str) -> dict[str, list[str]]:
    section = markdown.split(f"## {title}\n", 1)[1].split("\n## ")[0]
    return {cells[0]: cells[1:] for cells in ([c.strip() for c in line.strip("|").split("|")]
                                              for line in section.splitlines()[3:] if line.startswith("| "))}


def _wilson(x: int, n: int) -> tuple[float, float]:
    z = 1.96
    centre = (x / n + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(x / n * (1 - x / n) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_a_cooperative_game_gives_the_shared_win_rate_and_each_end_reason(tmp_path):
    markdown, data, _page = _report(tmp_path, cooperative())
    low, high = _wilson(7, 10)
    assert data["cooperative"]["wins"] == {"successes": 7, "n": 10, "rate": 0.7, "low": pytest.approx(low),
                                           "high": pytest.approx(high), "level": 0.95}
    shown = f"70.0% [{100 * low:.1f}, {100 * high:.1f}]"
    assert f"**Cooperative game (one team: seats 1, 2, 3, 4): shared win rate {shown} over 10 finished games**" \
        in markdown
    rows = _table(markdown, "Cooperative: shared result by end reason")
    goal_low, goal_high = _wilson(7, 10)
    assert rows["Goal"] == ["7", f"70.0% [{100 * goal_low:.1f}, {100 * goal_high:.1f}]", "100.0% [64.6, 100.0]"]
    assert rows["Time"][:2] == ["3", f"30.0% [{100 * (1 - goal_high):.1f}, {100 * (1 - goal_low):.1f}]"]
    assert rows["Time"][2].startswith("0.0% [0.0, ")
    assert rows["every finished game"] == ["10", "100%", shown]
    # every seat won the same games
    assert {seat: p["successes"] for seat, p in data["games"]["seat_wins"].items()} == {"1": 7, "2": 7, "3": 7,
                                                                                       "4": 7}
    assert "teams" not in data and "scores" not in data


def test_a_scoring_game_gives_mean_scores_a_histogram_and_each_cards_effect_on_score(tmp_path):
    markdown, data, page = _report(tmp_path, scoring())
    scores = data["scores"]
    assert scores["per"] == "seat"
    one = [10 + i % 3 + (5.0 if i % 2 == 0 else 0.0) for i in range(60)]
    mean, sd = sum(one) / 60, math.sqrt(sum((v - sum(one) / 60) ** 2 for v in one) / 59)
    seat_1 = scores["means"][0]
    assert (seat_1["name"], seat_1["n"]) == ("seat 1", 60)
    assert seat_1["mean"] == pytest.approx(mean) and seat_1["sd"] == pytest.approx(sd)
    assert seat_1["low"] == pytest.approx(mean - 1.96 * sd / math.sqrt(60))
    assert scores["means"][1] == {"name": "seat 2", "n": 60, "mean": 12.0, "sd": 0.0, "low": 12.0, "high": 12.0}
    assert f"seat 1 {mean:.2f} [{seat_1['low']:.2f}, {seat_1['high']:.2f}]" in markdown
    # the histogram: one bin per whole score from 10 to 17; seat 1 has 10 games at each of 10, 11, 12, 15, 16, 17
    histogram = scores["histogram"]
    assert histogram["labels"] == [str(s) for s in range(10, 18)]
    assert histogram["counts"] == {"seat 1": [10, 10, 10, 0, 0, 10, 10, 10], "seat 2": [0, 0, 60, 0, 0, 0, 0, 0]}
    assert _table(markdown, "Score histogram")["15"] == ["10", "0"]
    assert '<img src="scores.png" alt="Final score by seat">' in page
    assert (tmp_path / "report" / "scores.png").stat().st_size > 1000
    # each card's effect on score: Boost first, +5 points exactly, flagged
    effects = scores["card_effects"]
    assert effects[0]["name"] == "Boost" and effects[0]["estimate"] == pytest.approx(5.0) and effects[0]["flagged"]
    assert (effects[0]["mean_with"], effects[0]["mean_without"]) == (pytest.approx(16.0), pytest.approx(11.0))
    # (Plain is in the opening hand exactly when Boost is not: -5, flagged too)
    assert scores["flags"]["flagged"] == ["Boost", "Plain"] and scores["flags"]["tested"] == 2
    row = _table(markdown, "Cards: effect on score")["Boost"]
    assert row[0] == "A" and row[1].startswith("+5.00 [") and row[4] == "yes"
    assert next(e for e in effects if e["name"] == "Plain")["estimate"] == pytest.approx(-5.0)
    # Other, in every opening hand of deck B, has no effect, and the table says why
    other = _table(markdown, "Cards: effect on score")["Other"]
    assert other[1] == "— (a)" and "(a) the card was in every opening hand of its deck" in markdown


def test_a_team_game_gives_each_teams_win_rate_and_its_score(tmp_path):
    markdown, data, _page = _report(tmp_path, teamplay())
    teams = {t["name"]: t for t in data["teams"]}
    assert {name: (t["wins"]["successes"], t["wins"]["n"]) for name, t in teams.items()} == {
        "team 1 (seats 1, 3)": (15, 20), "team 2 (seats 2, 4)": (5, 20)}
    assert _table(markdown, "Win rate by team")["team 1 (seats 1, 3)"][1:] == ["15", "20"]
    # team-scored: one mean per team (team 1: 15 games at 3 and 5 at 0)
    assert data["scores"]["per"] == "team"
    assert [(m["name"], m["mean"]) for m in data["scores"]["means"]] == [
        ("team 1 (seats 1, 3)", pytest.approx(2.25)), ("team 2 (seats 2, 4)", pytest.approx(1.25))]
    assert "## Mean score by team" in markdown
    assert "cooperative" not in data


def test_records_without_the_keys_have_no_team_or_score_sections(tmp_path):
    from interpreter.report.shared import shared_stats

    records = scoring()
    for record in records:
        for key in ("winners", "scores", "teams"):
            del record[key]
    shared = shared_stats(records)
    assert (shared.cooperative, shared.teams, shared.scores) == (None, None, None)
    markdown, data, _page = _report(tmp_path, records)
    assert not {"cooperative", "teams", "scores"} & set(data)
    assert "score" not in markdown.lower().replace("lead changes", "")


def test_compare_compares_the_mean_scores_paired_by_seed():
    base, variant = scoring(boost=5.0), scoring(boost=8.0)
    comparison = compare_stats(base, variant)
    by_name = {s.name: s for s in comparison.scores}
    # seat 1 gains 3 points in the 30 games with Boost in hand: +1.5 on average, paired by seed
    seat_1 = by_name["seat 1"]
    assert seat_1.difference.n == 60 and seat_1.difference.mean == pytest.approx(1.5)
    assert seat_1.difference.low > 0 and seat_1.difference.significant
    assert by_name["seat 2"].difference.mean == 0.0 and not by_name["seat 2"].difference.significant
    assert seat_1.to_json()["base"]["mean"] == pytest.approx(sum(10 + i % 3 + (5.0 if i % 2 == 0 else 0.0)
                                                                 for i in range(60)) / 60)
    # without the keys, nothing
    for record in base + variant:
        del record["scores"]
    assert compare_stats(base, variant).scores == ()


def test_the_comparison_page_has_the_mean_scores_paired(tmp_path):
    from interpreter.report.comparepage import write_comparison

    write_comparison(scoring(boost=5.0), scoring(boost=8.0), tmp_path / "ab", title="Toy: A/B", meta={})
    markdown = (tmp_path / "ab" / "report.md").read_text(encoding="utf-8")
    rows = _table(markdown, "Mean score, paired")
    assert rows["seat 1"][0].startswith("13.50 [") and rows["seat 1"][1].startswith("15.00 [")
    # paired differences: 3 in 30 seeds, 0 in 30: sd^2 = 60 * 1.5^2 / 59, half-width 1.96 sqrt(sd^2 / 60) = 0.383
    assert rows["seat 1"][2:4] == ["60", "+1.50 [+1.12, +1.88]"] and rows["seat 1"][4] == "yes"
    assert rows["seat 2"] == ["12.00 [12.00, 12.00]", "12.00 [12.00, 12.00]", "60", "+0.00 [+0.00, +0.00]", ""]


def test_the_simulate_summary_counts_shared_wins_and_gives_mean_scores():
    from interpreter.cli.simulate import summarize

    summary = summarize(teamplay(), 4)
    assert summary["wins"] == [15, 5, 15, 5] and summary["draws"] == 0
    assert summary["mean_scores"] == [2.25, 1.25, 2.25, 1.25]
    coop = summarize(cooperative(), 4)
    assert coop["wins"] == [7, 7, 7, 7] and coop["draws"] == 0
    records = cooperative()
    for record in records:
        for key in ("winners", "scores", "teams"):
            del record[key]
    assert "mean_scores" not in summarize(records, 4)


@pytest.mark.parametrize("key, value, message", [
    ("winners", [0], "'winners' is not a list of seat numbers: [0]"),
    ("winners", "1", "'winners' is not a list of seat numbers: '1'"),
    ("scores", [1, "x"], "'scores' is not null or a list of numbers (one per seat): [1, 'x']"),
    ("teams", [[1, 3], []], "'teams' is not null or a list of lists of seat numbers: [[1, 3], []]"),
])
def test_a_malformed_shared_key_is_an_error_naming_the_record(key, value, message):
    from interpreter.report import ReportError

    records = teamplay(3)
    records[1][key] = value
    with pytest.raises(ReportError) as caught:
        compare_stats(records, records)
    assert str(caught.value).endswith(f"game record 2 (seed 1): {message}")


def test_compares_main_difference_counts_a_shared_win_for_each_seat_in_it():
    from interpreter.cli.compare import _main_pairs

    base = {r["seed"]: r for r in teamplay(8)}
    xs, ys = _main_pairs(base, base, [], 4)  # (no changed card: seat 1's win rate)
    assert xs == ys == [0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]
