"""Every game has a cap of decisions (issue 29.5): a copy of Hearts whose deal round lost its
`end: score_deal()` never ends by its rules, and stops as *unfinished* at the cap, in every way a
game is played (the resumable form, the fast play-out, the Python API, the CLI, the batch
backends, records, summaries, reports, compare, replay, PettingZoo and OpenSpiel)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from brokengames import broken_hearts, reason

from interpreter import load, load_game_json
from interpreter.backends import game_seeds
from interpreter.backends.recordfile import read_records
from interpreter.cli.main import main
from interpreter.errors import CardrulesError
from interpreter.paths import shipped_games


@pytest.fixture(autouse=True)
def _wide_tables(monkeypatch):
    """The summary's table as wide as its rows, whatever the terminal (rich wraps a long reason
    in a narrow one: the text would not be found whole)."""
    monkeypatch.setenv("COLUMNS", "200")



@pytest.fixture
def broken(tmp_path) -> Path:
    return broken_hearts(tmp_path)


def _random(seed: int):
    rng = random.Random(seed)
    return lambda game: rng.randrange(len(game.decision()[1]))


def _check_unfinished(game, cap: int) -> None:
    result = game.result
    assert game.is_over
    assert (result.winner, result.draw, result.unfinished, result.reason) == (None, False, True, reason(cap))
    assert game.state.decisions == cap and game.pending is None


# ---------------------------------------------------------------- the engine and the Python API
def test_the_default_cap_is_100000_and_a_ruleset_may_lower_it(tmp_path):
    for name in shipped_games():
        assert load(name).max_decisions == 100_000
    ruleset = broken_hearts(tmp_path, "limits: {max_decisions: 150}")
    rules = load(ruleset)
    assert rules.max_decisions == 150
    game = rules.play_out(_random(1), seed=1)
    _check_unfinished(game, 150)


def test_without_a_cap_of_its_own_the_broken_game_stops_at_the_default(broken):
    game = load(broken).play_out(lambda g: 0, seed=3)
    _check_unfinished(game, 100_000)


def test_every_form_of_play_stops_at_the_same_decision_with_the_same_log(broken):
    rules = load(broken)
    cap = 120
    stepped = rules.new_game(seed=4, max_decisions=cap)
    decide = _random(4)
    while not stepped.is_over:
        stepped.apply(decide(stepped))
    _check_unfinished(stepped, cap)
    assert stepped.log[-1] == {"type": "end", "winner": None, "reason": reason(cap), "unfinished": True}
    fast = rules.play_out(_random(4), seed=4, log=True, max_decisions=cap)
    resumable = rules.new_game(seed=4, max_decisions=cap)
    resumable.play_out(_random(4))
    rolled = rules.new_game(seed=4, max_decisions=cap)
    rolled.play_out(_random(4), fast=True)
    for game in (fast, resumable, rolled):
        _check_unfinished(game, cap)
        assert game.log == stepped.log


def test_the_cap_survives_clone_and_to_json(broken):
    rules = load(broken)
    game = rules.new_game(seed=2, max_decisions=90)
    for _ in range(50):
        game.apply(0)
    copy = game.clone()
    saved = load_game_json(json.loads(json.dumps(game.to_json())), rules)
    assert (copy.state.decisions, copy.state.max_decisions) == (saved.state.decisions, saved.state.max_decisions) == (51, 90)
    for g in (game, copy, saved):
        while not g.is_over:
            g.apply(0)
        _check_unfinished(g, 90)
    assert load_game_json(game.to_json(), rules).result == game.result


@pytest.mark.parametrize("bad", [0, -3, 1.5, "many", True])
def test_a_bad_cap_given_to_the_api_is_refused(broken, bad):
    rules = load(broken)
    with pytest.raises(ValueError, match="max_decisions must be a whole number from 1 on"):
        rules.new_game(seed=1, max_decisions=bad)
    with pytest.raises(ValueError, match="max_decisions must be a whole number from 1 on"):
        rules.play_out(lambda g: 0, seed=1, max_decisions=bad)


@pytest.mark.parametrize("value, message", [
    ("0", "limits.max_decisions: 0 is below the minimum 1"),
    ("100001", "limits.max_decisions: 100001 is above the maximum 100000"),
    ("many", "limits.max_decisions: expected a whole number, got the text 'many'"),
])
def test_a_bad_limit_is_a_located_error(tmp_path, value, message):
    ruleset = broken_hearts(tmp_path, f"limits:\n  max_decisions: {value}")
    with pytest.raises(CardrulesError) as caught:
        load(ruleset)
    lines = ruleset.read_text().splitlines()
    line = len(lines)  # (the last line of the file)
    assert caught.value.message.startswith(message), caught.value.message
    assert (caught.value.span.line, caught.value.span.column) == (line, len("  max_decisions: ") + 1)


def test_an_unknown_key_of_limits_is_a_located_error(tmp_path):
    ruleset = broken_hearts(tmp_path, "limits: {max_decision: 5}")
    with pytest.raises(CardrulesError, match="unknown key 'max_decision' \\(did you mean 'max_decisions'\\?\\)"):
        load(ruleset)


def test_an_unfinished_game_rewards_no_one(broken):
    rules = load(broken)
    game = rules.play_out(lambda g: 0, seed=1, max_decisions=40)
    assert [rules.reward(game, seat) for seat in (1, 2, 3, 4)] == [0.0] * 4


# ---------------------------------------------------------------- the CLI
def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_play_stops_at_the_flag_and_replay_reproduces_it_from_the_header(capsys, broken, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", str(broken), "--seed", "5", "--quiet", "--max-decisions", "70",
                         "--log", str(log))
    assert out.startswith(f"result: {reason(70)} after ")
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["max_decisions"] == 70
    assert json.loads(lines[-1]) == {"type": "end", "winner": None, "reason": reason(70), "unfinished": True}
    code, out, err = run(capsys, "replay", str(log))
    assert (code, out) == (0, f"replay identical: {len(lines) - 1} lines\n")
    header = json.loads(lines[0])
    del header["max_decisions"]  # (without it, the game goes on past the end the log has)
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1 and f":{len(lines)}: replay diverges at line {len(lines)}" in out


def test_a_bad_cap_in_a_log_header_is_a_located_error(capsys, broken, tmp_path):
    log = tmp_path / "game.jsonl"
    run(capsys, "play", str(broken), "--seed", "5", "--quiet", "--max-decisions", "30", "--log", str(log))
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["max_decisions"] = "lots"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1
    assert f"{log}:1:1: " in err and "the header's max_decisions must be a whole number from 1 on, not 'lots'" in err


@pytest.mark.parametrize("command", ["play", "simulate", "compare", "serve"])
@pytest.mark.parametrize("value", ["0", "-1", "ten"])
def test_a_bad_flag_is_a_usage_error(capsys, command, value):
    extra = ["--games", "1"] if command in ("simulate", "compare") else []
    code, out, err = run(capsys, command, "hearts", *extra, "--max-decisions", value)
    assert code == 2
    assert "argument --max-decisions: expected" in err


def test_simulate_counts_unfinished_games_in_the_summary_and_the_records(capsys, tmp_path):
    ruleset = broken_hearts(tmp_path, "limits: {max_decisions: 300}")
    records = tmp_path / "games.jsonl"
    code, out, err = run(capsys, "simulate", str(ruleset), "--games", "3", "--json", "--max-decisions", "80",
                         "--records", str(records))
    summary = json.loads(out)
    assert (summary["games"], summary["unfinished"], summary["aborted"], summary["draws"]) == (3, 3, 0, 0)
    assert summary["wins"] == [0, 0, 0, 0] and summary["end_reasons"] == {}
    assert summary["unfinished_games"] == [{"seed": s, "reason": reason(80)} for s in sorted(game_seeds(0, 0, 3))]
    for record in read_records(records):
        assert (record["unfinished"], record["aborted"], record["draw"], record["winner"]) == (True, False, False, None)
        assert record["reason"] == reason(80) and record["decisions"] == 80
    code, out, err = run(capsys, "simulate", str(ruleset), "--games", "2", "--workers", "2")  # (the ruleset's cap)
    assert "unfinished (not counted above)" in out and reason(300) in out


def test_a_shipped_game_is_counted_as_finished(capsys, tmp_path):
    records = tmp_path / "games.jsonl"
    code, out, err = run(capsys, "simulate", "initiative", "--games", "3", "--json", "--records", str(records))
    assert code == 0 and json.loads(out)["unfinished"] == 0
    assert [r["unfinished"] for r in read_records(records)] == [False] * 3


def test_the_report_counts_unfinished_games_apart(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    from interpreter.report.games import game_stats

    ruleset = broken_hearts(tmp_path)
    report, records = tmp_path / "report", tmp_path / "games.jsonl"
    run(capsys, "simulate", str(ruleset), "--games", "2", "--json", "--max-decisions", "60",
        "--records", str(records), "--report", str(report))
    played = read_records(records)
    shipped = tmp_path / "shipped.jsonl"
    run(capsys, "simulate", "hearts", "--games", "2", "--seed", "7", "--json", "--records", str(shipped))
    stats = game_stats(played + read_records(shipped))
    assert (stats.games, stats.finished, stats.unfinished, stats.aborted) == (4, 2, 2, 0)
    assert sum(p.n for p in stats.seat_wins.values()) == 2 * 4  # (win rates over the 2 finished games)
    assert [(r.reason, r.count) for r in stats.reasons if r.reason.startswith("unfinished")] == [(reason(60), 2)]
    text = (report / "report.md").read_text()
    assert "Unfinished (stopped at the cap of decisions)" in text and reason(60) in text


def test_compare_leaves_unfinished_games_out_of_the_pairs(capsys, broken):
    code, out, err = run(capsys, "compare", str(broken), "--variant-option", "target=50", "--games", "2",
                         "--max-decisions", "50", "--json")
    result = json.loads(out)
    assert result["games"] == 0 and result["main"]["pairs"] == 0
    for side in ("base_summary", "variant_summary"):
        assert (result[side]["games"], result[side]["unfinished"]) == (2, 2)


def test_serve_gives_the_table_its_cap(capsys, broken, tmp_path):
    from interpreter.cli.serve import table_session

    session = table_session(str(broken), "human,random,random,random", 1, None, 40)
    assert session.game.state.max_decisions == 40
    assert table_session(str(broken), None, 1, None).game.state.max_decisions == 100_000
    log = tmp_path / "game.jsonl"
    run(capsys, "play", str(broken), "--seed", "5", "--quiet", "--max-decisions", "30", "--log", str(log))
    code, out, err = run(capsys, "serve", "--replay", str(log), "--max-decisions", "5", "--no-browser")
    assert code == 2 and "--max-decisions is for a new game, not for --replay" in err


# ---------------------------------------------------------------- the environments
def test_pettingzoo_truncates_an_unfinished_game(tmp_path):
    pytest.importorskip("pettingzoo")
    from interpreter.envs.pettingzoo_aec import make_env

    env = make_env(str(broken_hearts(tmp_path)), max_decisions=45)
    env.reset(seed=3)
    rng = random.Random(3)
    steps = 0
    last: dict[str, tuple] = {}  # what each agent's dead step saw
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            last[agent] = (reward, termination, truncation, info["result"])
            env.step(None)
            continue
        legal = [i for i, m in enumerate(observation["action_mask"]) if m]
        env.step(rng.choice(legal))
        steps += 1
    assert steps >= 45 and env.game.state.decisions == 45 and env.game.result.unfinished
    result = {"winner": None, "reason": reason(45), "unfinished": True}
    assert last == {f"player_{s}": (0.0, False, True, result) for s in (1, 2, 3, 4)}
    with pytest.raises(ValueError, match="max_decisions"):
        make_env(str(broken_hearts(tmp_path / "other")), max_decisions=0)


def test_openspiel_max_game_length_is_the_cap(tmp_path):
    pytest.importorskip("pyspiel")
    from interpreter.envs.openspiel_game import register

    ruleset = broken_hearts(tmp_path, "limits: {max_decisions: 64}", name="capped_hearts")
    game = register(str(ruleset), seed=5)
    assert game.max_game_length() == 64
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == [0.0] * 4
    assert len(state.history()) <= 4 + 64
    assert register("initiative").max_game_length() == 100_000
