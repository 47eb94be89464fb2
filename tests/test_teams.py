"""Teams, shared results and scores (issue 32.3) in the model, the language and the engine: the
`teams:` and `score:` keys, `team(p)`, `teams`, `members(t)`, team attributes, `win`/`lose` of a
team or a list of players, and `Result`'s winners, losers, scores and teams; located load errors
for what is wrong. The test rulesets are tests/data/coop (everyone one team) and
tests/data/partners (two partnerships, scored per team)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from ruleerrors import located_at
from toyrules import empty_game, toy_with

from interpreter import load
from interpreter.engine.events import Result
from interpreter.engine.serialize import game_from_json
from interpreter.errors import CardrulesError, ErrorList
from interpreter.lang.parser import parse_expression
from interpreter.lang.runtime import Frame
from interpreter.rules.yamlload import load_yaml

DATA = Path(__file__).resolve().parent / "data"
PARTNERS = DATA / "partners" / "partners.yaml"
COOP = DATA / "coop" / "coop.yaml"


def _copy(tmp_path: Path, name: str) -> Path:
    for f in (DATA / name).iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / f"{name}.yaml"


def _partners_with(tmp_path: Path, old: str, new: str, file: str = "partners.yaml") -> Path:
    path = _copy(tmp_path, "partners")
    target = tmp_path / file
    text = target.read_text(encoding="utf-8")
    assert old in text
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def load_error(path: Path) -> CardrulesError:
    """The one error loading the ruleset at `path` gives."""
    with pytest.raises(CardrulesError) as info:
        load(path)
    err = info.value
    assert not isinstance(err, ErrorList), str(err)
    return err


def _line_of(path: Path, needle: str) -> tuple[int, int]:
    """(line, column) of the first occurrence of needle in the file, both from 1."""
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return i, line.index(needle) + 1
    raise AssertionError(needle)


def _play(rules, seed: int):
    game = rules.new_game(seed=seed)
    while not game.is_over:
        game.apply(0)
    return game


# ---------------------------------------------------------------------------------- results
def test_a_team_that_passes_the_limit_loses_and_the_other_team_wins_with_the_scores():
    rules = load(PARTNERS, options={"limit": 10})
    game = _play(rules, 1)
    r = game.result
    assert (r.winners, r.losers, r.winner, r.draw) == ((2, 4), (1, 3), None, False)
    assert r.teams == ((1, 3), (2, 4))
    assert r.scores == (game.state.team_attrs[0]["points"], game.state.team_attrs[1]["points"]) * 2
    assert r.scores[0] > 10
    assert r.to_dict() == {"winner": None, "draw": False, "reason": "a team passed the limit", "turns": r.turns,
                           "unfinished": False, "winners": [2, 4], "losers": [1, 3], "scores": list(r.scores),
                           "teams": [[1, 3], [2, 4]]}
    assert Result.from_dict(r.to_dict()) == r
    assert game.log[-1] == {"type": "end", "winner": None, "reason": "a team passed the limit", "winners": [2, 4],
                            "losers": [1, 3], "scores": list(r.scores)}


def test_a_cooperative_game_ends_in_a_shared_loss_or_a_shared_win():
    rules = load(COOP)
    lost, won = _play(rules, 1).result, _play(rules, 2).result
    seen = {(r.winners, r.losers, r.draw, r.shared_loss) for r in (lost, won)}
    assert seen == {((), (1, 2, 3), False, True), ((1, 2, 3), (), False, False)}
    assert lost.teams == won.teams == ((1, 2, 3),) and lost.scores is None


def test_win_players_is_a_shared_win_and_lose_players_a_shared_loss(tmp_path):
    rules = load(toy_with(tmp_path, "procedure all_win() {\n  win players \"together\"\n}\n"
                                    "procedure all_lose() {\n  lose players\n}\n"
                                    "procedure two_win() {\n  let w = [players[2], players[1], players[2]]\n  win w\n}\n"))
    for procedure, winners, losers in (("all_win", (1, 2), ()), ("all_lose", (), (1, 2)), ("two_win", (1, 2), ())):
        game = empty_game(rules)
        game.perform(procedure)
        r = game.result
        assert (r.winners, r.losers, r.winner, r.draw) == (winners, losers, None, False), procedure
        assert r.teams is None and r.scores is None


def test_a_plain_result_keeps_its_log_entry_and_observation():
    game = _play(load("lanes"), 1)
    r = game.result
    assert r.plain and r.winners == (r.winner,) and len(r.losers) == 1
    assert game.log[-1] == {"type": "end", "winner": r.winner, "reason": r.reason}
    assert set(game.observation(1)["result"]) == {"winner", "draw", "reason", "turns", "unfinished"}
    assert "teams" not in game.observation(1)


def test_team_attributes_are_copied_saved_and_observed():
    rules = load(PARTNERS)
    game = rules.new_game(seed=3)
    game.apply(0)
    points = game.state.team_attrs[0]["points"]
    assert points > 0
    copy = game.clone()
    copy.state.team_attrs[0]["points"] += 100
    assert game.state.team_attrs[0]["points"] == points
    loaded = game_from_json(game.to_json(), rules)
    assert loaded.team_attrs == game.state.team_attrs
    assert game.observation(2)["teams"] == [
        {"name": "north_south", "members": [1, 3], "attributes": {"points": points}},
        {"name": "east_west", "members": [2, 4], "attributes": {"points": 0}}]


def test_team_members_and_teams_in_the_language():
    rules = load(PARTNERS)
    game = rules.new_game(seed=1)
    probe = rules.compiler.expression(parse_expression(
        "[text(team(players[3])), text(members(last(teams))), team(players[1]) == first(teams), count(teams), "
        "first(teams).name, [p.seat for p in members(team(players[4]))]]"))
    assert probe(game.state, Frame(None, {})) == ["north_south", "P2 + P4", True, 2, "north_south", [2, 4]]


# ---------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("partnerships,needle,message", [
    ("[[1, 3], [2, 5]]", "5]]", "teams: team 2 names seat 5, but the game has 4 players (seats 1 to 4)"),
    ("[[1, 3], [2, 3, 4]]", "3, 4]]", "teams: seat 3 is in two teams (1 and 2)"),
    ("[[1, 3], [2]]", "partnerships:", "teams: seat 4 is in no team"),
])
def test_a_team_naming_a_wrong_seat_is_a_located_error(tmp_path, partnerships, needle, message):
    path = _partners_with(tmp_path, "partnerships: [[1, 3], [2, 4]]", f"partnerships: {partnerships}")
    err = load_error(path)
    assert err.message == message
    located_at(err, path, *_line_of(path, needle))


def test_a_score_of_an_unknown_attribute_is_a_located_error_with_did_you_mean(tmp_path):
    path = _partners_with(tmp_path, "attribute: points", "attribute: point")
    err = load_error(path)
    assert err.message == "score: no team attribute 'point' (did you mean 'points'?)"
    located_at(err, path, *_line_of(path, "point,"))


def test_a_score_per_team_without_teams_is_a_located_error(tmp_path):
    path = toy_with(tmp_path, "")
    path.write_text(path.read_text(encoding="utf-8") + "score: {per: team, attribute: score}\n", encoding="utf-8")
    err = load_error(path)
    assert err.message == "score: per team, but the ruleset declares no teams"
    located_at(err, path, *_line_of(path, "team, attribute"))


@pytest.mark.parametrize("code,needle,message", [
    ("let t = team(first(pile()))", "first(pile()))", "'team' takes a player as 'p', not a card"),
    ("let t = team(3)", "3)", "'team' takes a player as 'p', not a number"),
    ("let n = first(teams).pointz", "first(teams).pointz", "unknown attribute 'pointz' (did you mean 'points'?)"),
    ("let n = last(teams).rank", "last(teams).rank", "teams have no attribute 'rank'"),
    ("let n = players[1].points", "players[1].points", "'points' is a team attribute, not a player's"),
    ("win 3", "3", "'win' takes a player, a team or a list of players, not a number"),
    ('win "x"', '"x"', "'win' takes a player, a team or a list of players, not text"),
    ("lose pile()", "pile()", "'lose' takes a player, a team or a list of players, not a list of cards"),
])
def test_wrong_uses_of_teams_and_results_are_located_errors(tmp_path, code, needle, message):
    path = _partners_with(tmp_path, "  move c to pile()\n", f"  move c to pile()\n  {code}\n", "partners.rules")
    err = load_error(path)
    assert err.message == message
    rules_file = tmp_path / "partners.rules"
    line, column = _line_of(rules_file, code)
    located_at(err, rules_file, line, column + code.index(needle))


def test_teams_named_where_the_ruleset_declares_none_is_a_located_error(tmp_path):
    path = toy_with(tmp_path, "procedure probe() {\n  let n = count(teams)\n}\n")
    err = load_error(path)
    assert err.message == "'teams' names the ruleset's teams, but it declares none"
    located_at(err, tmp_path / "extra.rules", 2, 17)


@pytest.mark.parametrize("name,prefix", [("coop", "C"), ("partners", "P")])
def test_every_rule_id_of_the_team_rulesets_has_a_scenario(name, prefix):
    text = (DATA / name / "RULES.md").read_text(encoding="utf-8")
    ids = sorted(set(re.findall(rf"^- ({prefix}-\d+\.\d+) ", text, re.MULTILINE)))
    cited = set()
    for path in sorted((Path(__file__).resolve().parent / "scenarios" / name).glob("*.yaml")):
        cited.update(load_yaml(path)[0].get("cites") or [])
    assert len(ids) >= 6 and [i for i in ids if i not in cited] == []
