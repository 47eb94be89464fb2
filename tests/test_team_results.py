"""Team, shared and scored results through `play`, the batch records and `simulate --json`
(issue 32.3), on the test rulesets tests/data/coop (one team: a shared win or loss) and
tests/data/partners (two partnerships scored per team)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter import load
from interpreter.backends.records import result_record
from interpreter.cli.main import main
from interpreter.cli.play import result_line
from interpreter.cli.simulate import summarize
from interpreter.engine.events import Result

DATA = Path(__file__).resolve().parent / "data"
PARTNERS = str(DATA / "partners" / "partners.yaml")
COOP = str(DATA / "coop" / "coop.yaml")


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_play_prints_the_team_result_and_the_scores(capsys):
    code, out = _run(capsys, "play", PARTNERS, "--seed", "1", "--players", "random,random,random,random")
    assert code == 0
    assert out.splitlines()[-1] == ("result: north_south (P1, P3) win (every card is played) after 12 turns; "
                                    "scores: north_south 23, east_west 19")


@pytest.mark.parametrize("seed,line", [
    (1, "result: everyone loses together (the crew ran out of lives) after 8 turns"),
    (2, "result: everyone wins together (every card is played) after 10 turns"),
])
def test_play_prints_a_cooperative_games_shared_result(capsys, seed, line):
    code, out = _run(capsys, "play", COOP, "--seed", str(seed), "--players", "random,random,random")
    assert (code, out.splitlines()[-1]) == (0, line)


@pytest.mark.parametrize("result,line", [
    (Result(2, "fort destroyed", 13, False, (2,), None, None, (1,)), "result: P2 wins (fort destroyed) after 13 turns"),
    (Result(None, "limit", 5), "result: draw (limit) after 5 turns"),
    (Result(None, "x", 3, False, (1, 3), None, None, (2, 4)), "result: P1, P3 win (x) after 3 turns"),
    (Result(None, "x", 1, False, (), (4, 2, 4, 2), ((1, 3), (2, 4)), ()),
     "result: draw (x) after 1 turn; scores: team1 4, team2 2"),
    (Result(None, "x", 2, False, (2,), (1, 7, 3), None, (1, 3)), "result: P2 wins (x) after 2 turns; scores: P1 1, P2 7, P3 3"),
])
def test_result_lines(result, line):
    assert result_line(result) == line


def _finished(path: str, seeds, **options):
    rules = load(path, options=options)
    out = []
    for seed in seeds:
        game = rules.new_game(seed=seed)
        while not game.is_over:
            game.apply(0)
        out.append(result_record(rules, game, seed, ("first",) * rules.player_count))
    return rules, out


def test_records_carry_winners_scores_and_teams():
    rules, [record] = _finished(PARTNERS, [1], limit=10)
    game = rules.new_game(seed=1)
    while not game.is_over:
        game.apply(0)
    scores = [float(s) for s in game.result.scores]
    assert {k: record[k] for k in ("winner", "draw", "winners", "scores", "teams", "team_names")} == {
        "winner": None, "draw": False, "winners": [2, 4], "scores": scores, "teams": [[1, 3], [2, 4]],
        "team_names": ["north_south", "east_west"]}
    _rules, [plain] = _finished("lanes", [1])
    assert (plain["winners"], plain["scores"], plain["teams"]) == ([plain["winner"]], None, None)


def test_the_summary_gives_team_win_rates_and_mean_scores():
    rules, records = _finished(PARTNERS, range(1, 21))
    summary = summarize(records, 4)
    wins = {name: sum(1 for r in records if r["winners"] == members)
            for name, members in (("north_south", [1, 3]), ("east_west", [2, 4]))}
    assert [(t["name"], t["members"], t["wins"]) for t in summary["teams"]] == [
        ("north_south", [1, 3], wins["north_south"]), ("east_west", [2, 4], wins["east_west"])]
    assert summary["wins"] == [wins["north_south"], wins["east_west"]] * 2
    assert summary["draws"] == 20 - sum(wins.values())
    rate = summary["teams"][0]["win_rate"]
    assert rate["rate"] == wins["north_south"] / 20 and rate["low"] < rate["rate"] < rate["high"]
    mean = sum(r["scores"][0] for r in records) / 20
    [north, east] = summary["scores"]["teams"]
    assert north["name"] == "north_south" and north["mean"] == round(mean, 4) and north["low"] < north["mean"] < north["high"]
    assert summary["scores"]["seats"][2]["mean"] == north["mean"] and east["members"] == [2, 4]
    assert "shared" not in summary


def test_the_summary_of_a_cooperative_game_gives_the_shared_win_rate(capsys):
    code, out = _run(capsys, "simulate", COOP, "--games", "30", "--json")
    data = json.loads(out)
    shared = data["shared"]
    assert code == 0 and shared["wins"] + shared["losses"] + shared["draws"] == 30
    assert shared["wins"] == data["teams"][0]["wins"] == data["wins"][0] == data["wins"][2]
    assert shared["losses"] == data["end_reasons"]["the crew ran out of lives"] and data["draws"] == 0
    assert shared["win_rate"]["rate"] == round(shared["wins"] / 30, 4)
    assert "scores" not in data


def test_a_game_without_teams_or_scores_has_no_such_summary(capsys):
    code, out = _run(capsys, "simulate", "lanes", "--games", "4", "--json")
    data = json.loads(out)
    assert code == 0 and not {"teams", "shared", "scores"} & set(data)
