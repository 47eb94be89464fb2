"""Agents on the command line: specs in `play` and `simulate`, a person against the search,
bad specs and misbehaving agents, and a ruleset's `evaluate:` checked at load."""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from interpreter import load, paths
from interpreter.backends import game_seeds
from interpreter.cli.main import main
from interpreter.errors import CardrulesError


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_person_plays_against_the_search_and_sees_it_think(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 4))
    code, out, err = run(capsys, "play", "initiative", "--seed", "2", "--players", "human,mcts:30")
    assert code == 0, err
    lines = out.splitlines()
    thoughts = [i for i, line in enumerate(lines) if re.fullmatch(r"  \(mcts:30 thought \d+\.\d\d s, 30 iterations\)", line)]
    assert thoughts, out
    # each right after the search's own decision
    assert all(lines[i - 1].startswith("P2 chooses") for i in thoughts)
    assert "game abandoned" in out  # (the input ran out)


def test_simulate_with_search_agents(capsys):
    code, out, err = run(capsys, "simulate", "initiative", "--games", "2", "--agents", "mcts:iterations=15,c=1,greedy",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["agents"] == ["mcts:iterations=15,c=1", "greedy"] and data["games"] == 2
    assert sum(data["wins"]) + data["draws"] == 2
    # the same games with one worker or two
    code, out2, _ = run(capsys, "simulate", "initiative", "--games", "2", "--agents", "mcts:iterations=15,c=1,greedy",
                        "--json", "--workers", "2")
    again = json.loads(out2)
    assert (again["wins"], again["decisions_per_game"]) == (data["wins"], data["decisions_per_game"])


@pytest.mark.parametrize("command, spec, text", [
    ("simulate", "mcts:abc,random", "agent 'mcts:abc': iterations must be a whole number, not 'abc'"),
    ("simulate", "mcts:iterations=-1,random", "agent 'mcts:iterations=-1': iterations must be at least 1"),
    ("play", "robot,random", "unknown agent 'robot'"),
    ("play", "nosuchpkg.mod:Bot,random", "cannot import 'nosuchpkg.mod'"),
])
def test_bad_agent_specs_exit_2_naming_the_agent(capsys, command, spec, text):
    flag = "--agents" if command == "simulate" else "--players"
    argv = [command, "initiative", flag, spec] + (["--games", "1"] if command == "simulate" else [])
    code, out, err = run(capsys, *argv)
    assert code == 2 and text in err and "Traceback" not in err
    assert out == ""  # no game was started


@pytest.mark.parametrize("bot, text", [("Crashing", "raised ZeroDivisionError"), ("Illegal", "answered 15")])
def test_a_misbehaving_agent_exits_1_naming_it_and_the_decision(capsys, bot, text):
    spec = f"samplebots.bots:{bot}"
    code, _out, err = run(capsys, "play", "initiative", "--players", f"{spec},random", "--seed", "2")
    assert code == 1, err
    assert f"agent {spec!r} (P1)" in err and text in err and "'two cards to play'" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("bot, text", [("Crashing", "raised ZeroDivisionError"), ("Illegal", "answered 15")])
def test_a_misbehaving_agent_aborts_its_games_in_a_simulation_naming_it_and_the_decision(capsys, bot, text):
    """A batch never dies of one agent's error: each game it spoils is counted as aborted, with why."""
    spec = f"samplebots.bots:{bot}"
    code, out, err = run(capsys, "simulate", "initiative", "--agents", f"{spec},random", "--seed", "2",
                         "--games", "2", "--json")
    assert code == 1, err  # (the summary is printed; the status says games were aborted)
    data = json.loads(out)
    assert data["aborted"] == 2 and [g["seed"] for g in data["aborted_games"]] == sorted(game_seeds(2, 0, 2))
    reason = data["aborted_games"][0]["reason"]
    assert f"agent {spec!r} (P1)" in reason and text in reason and "'two cards to play'" in reason


@pytest.fixture
def initiative_copy(tmp_path: Path) -> Path:
    ruleset = paths.ruleset_path("initiative")
    shutil.copytree(ruleset.parent, tmp_path / "rulesets" / "initiative")
    shutil.copytree(paths.cards_dir() / "initiative", tmp_path / "cards" / "initiative")
    return tmp_path / "rulesets" / "initiative" / ruleset.name


def test_an_evaluation_with_an_unknown_name_is_a_located_load_error(capsys, initiative_copy):
    text = initiative_copy.read_text()
    assert 'evaluate: "p.health - opponent(p).health"' in text
    initiative_copy.write_text(text.replace('evaluate: "p.health - opponent(p).health"',
                                            'evaluate: "p.health - oponent(p).health"'))
    line = next(i for i, s in enumerate(initiative_copy.read_text().splitlines(), 1) if s.startswith("evaluate:"))
    with pytest.raises(CardrulesError) as caught:
        load(initiative_copy)
    message = str(caught.value)
    assert f"{initiative_copy}:{line}:" in message and "oponent" in message and "did you mean 'opponent'" in message
    code, out, _err = run(capsys, "validate", str(initiative_copy))
    assert code == 1 and "oponent" in out


def test_an_evaluation_that_is_not_a_number_is_an_error_at_its_line(initiative_copy):
    text = initiative_copy.read_text()
    initiative_copy.write_text(text.replace('evaluate: "p.health - opponent(p).health"', 'evaluate: "p.played"'))
    rules = load(initiative_copy)
    game = rules.new_game(seed=1)
    with pytest.raises(CardrulesError) as caught:
        rules.evaluate(game, 1)
    err = caught.value
    assert err.message == "evaluate: gave [], not a number"
    assert Path(err.span.file).resolve() == initiative_copy.resolve() and str(err).startswith(f"{err.where()}: ")


def test_without_an_evaluation_every_unfinished_position_is_worth_nothing(initiative_copy):
    text = initiative_copy.read_text()
    initiative_copy.write_text(text.replace('evaluate: "p.health - opponent(p).health"\n', ""))
    rules = load(initiative_copy)
    game = rules.new_game(seed=1)
    assert not rules.has_evaluation and rules.evaluate(game, 1) == 0.0
    game.play_out(lambda g: 0)
    winner = game.result.winner
    assert rules.evaluate(game, winner) == float("inf") and rules.evaluate(game, 3 - winner) == float("-inf")


def test_play_takes_agents_as_players_too(capsys):
    code, out, err = run(capsys, "play", "initiative", "--seed", "4", "--quiet", "--agents", "mcts:10,greedy")
    assert code == 0, err
    code2, out2, _ = run(capsys, "play", "initiative", "--seed", "4", "--quiet", "--players", "mcts:10,greedy")
    assert out == out2 and out.startswith("result: ")
