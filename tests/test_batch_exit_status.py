"""`simulate` and `compare` exit 1 when any game aborted (a rule that loops, an agent that raises)
or was unfinished (stopped at its cap of decisions), after printing the summary in full, as text
or JSON (issue 29.6); `play` of a game that ends unfinished exits 1 too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from brokengames import broken_hearts, reason

from interpreter.backends import game_seed
from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
DEAL = "- {name: deal, do: deal_cards()}"

@pytest.fixture(autouse=True)
def _wide_tables(monkeypatch):
    """The summary's table as wide as its rows, whatever the terminal (rich wraps a long reason
    in a narrow one: the text would not be found whole)."""
    monkeypatch.setenv("COLUMNS", "200")



def looping_hearts(folder: Path) -> Path:
    """Hearts whose deal step loops for ever without a decision: stopped by the step budget."""
    shutil.copytree(ROOT / "rulesets" / "hearts", folder / "rulesets" / "hearts")
    shutil.copytree(ROOT / "cards" / "hearts", folder / "cards" / "hearts")
    ruleset = folder / "rulesets" / "hearts" / "hearts.yaml"
    text = ruleset.read_text()
    assert DEAL in text
    ruleset.write_text(text.replace(DEAL, '- {name: deal, do: "while true { deal_cards() }"}'))
    return ruleset


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("as_json", [False, True])
def test_a_looping_rule_aborts_the_game_and_simulate_exits_1(capsys, tmp_path, as_json):
    ruleset = looping_hearts(tmp_path)
    code, out, err = run(capsys, "simulate", str(ruleset), "--games", "1", *(["--json"] if as_json else []))
    assert code == 1, err
    if as_json:
        summary = json.loads(out)
        assert (summary["games"], summary["aborted"], summary["unfinished"]) == (1, 1, 0)
        assert "a 'while' loop ran past the step budget" in summary["aborted_games"][0]["reason"]
    else:
        assert "aborted (not counted above)" in out and f"seed {game_seed(0, 0)}" in out and "games per second" in out


def test_an_agent_that_raises_makes_simulate_exit_1(capsys):
    code, out, err = run(capsys, "simulate", "initiative", "--games", "3", "--json",
                         "--agents", "samplebots.bots:Crashing,random")
    assert code == 1, err
    assert json.loads(out)["aborted"] == 3


@pytest.mark.parametrize("as_json", [False, True])
def test_unfinished_games_make_simulate_exit_1(capsys, tmp_path, as_json):
    ruleset = broken_hearts(tmp_path)
    code, out, err = run(capsys, "simulate", str(ruleset), "--games", "2", "--max-decisions", "40",
                         *(["--json"] if as_json else []))
    assert code == 1, err
    if as_json:
        assert json.loads(out)["unfinished"] == 2
    else:
        assert "unfinished (not counted above)" in out and reason(40) in out


def test_a_batch_that_finished_every_game_exits_0(capsys):
    code, out, err = run(capsys, "simulate", "hearts", "--games", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["aborted"] == json.loads(out)["unfinished"] == 0


def test_compare_exits_1_when_a_side_has_aborted_games(capsys):
    code, out, err = run(capsys, "compare", "initiative", "--variant-option", "round_limit=20", "--games", "2",
                         "--agents", "samplebots.bots:Crashing,random", "--json")
    assert code == 1, err
    result = json.loads(out)
    assert result["base_summary"]["aborted"] == result["variant_summary"]["aborted"] == 2


def test_compare_exits_1_when_games_are_unfinished_and_prints_the_counts(capsys, tmp_path):
    ruleset = broken_hearts(tmp_path)
    code, out, err = run(capsys, "compare", str(ruleset), "--variant-option", "target=50", "--games", "2",
                         "--max-decisions", "30")
    assert code == 1, err
    assert "base: 0 aborted, 2 unfinished of 2 games (not paired)" in out
    assert "variant: 0 aborted, 2 unfinished of 2 games (not paired)" in out


def test_compare_of_finished_games_exits_0(capsys):
    code, out, err = run(capsys, "compare", "initiative", "--variant-option", "round_limit=20", "--games", "2",
                         "--json")
    assert code == 0, err


def test_play_exits_1_when_the_game_is_unfinished(capsys, tmp_path):
    ruleset = broken_hearts(tmp_path)
    code, out, err = run(capsys, "play", str(ruleset), "--seed", "1", "--quiet", "--max-decisions", "25")
    assert code == 1 and out.startswith(f"result: {reason(25)} after ")
    code, out, err = run(capsys, "play", "hearts", "--seed", "1", "--quiet")
    assert code == 0 and out.startswith("result: P")
