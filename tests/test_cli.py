"""The `cardrules` command line: exit codes, located errors, logs that replay, simulate, test."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import paths
from interpreter.cli.main import main

GAME = "initiative"
ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def game_copy(tmp_path: Path) -> Path:
    """A copy of the game's ruleset folder and card folder, laid out as in the checkout."""
    ruleset = paths.ruleset_path(GAME)
    shutil.copytree(ruleset.parent, tmp_path / "rulesets" / GAME)
    shutil.copytree(paths.cards_dir() / GAME, tmp_path / "cards" / GAME)
    return tmp_path / "rulesets" / GAME / ruleset.name


# ---------------------------------------------------------------- validate
def test_validate_shipped_data(capsys):
    code, out, err = run(capsys, "validate")
    assert code == 0, out + err
    assert re.search(rf"^ok +rulesets/{GAME}/{GAME}\.yaml$", out, re.M)
    assert re.search(r"^ok +cards/.*\.cards$", out, re.M)
    assert re.search(rf"^ok +rulesets/{GAME}/decks/.*\.yaml$", out, re.M)
    assert "0 with errors" in out


def test_validate_copy_is_ok(capsys, game_copy):
    code, out, _ = run(capsys, "validate", str(game_copy.parent.parent.parent))
    assert code == 0, out
    assert not re.search(r"^error", out, re.M)


def test_validate_broken_card_file(capsys, game_copy):
    card_file = sorted((game_copy.parent.parent.parent / "cards" / GAME).glob("*.cards"))[0]
    text = card_file.read_text()
    line = text.count("\n") + (0 if text.endswith("\n") else 1) + 1
    card_file.write_text(text + ("" if text.endswith("\n") else "\n") + 'card "Broken" {{{\n')
    code, out, _ = run(capsys, "validate", str(game_copy))
    assert code == 1
    assert re.search(rf"^error +.*{card_file.name}$", out, re.M)
    assert f"{card_file.name}:{line}:" in out  # located: file:line:col
    assert "syntax error" in out
    assert "Traceback" not in out
    # the card file alone, and the folder, say the same
    assert run(capsys, "validate", str(card_file))[0] == 1
    assert run(capsys, "validate", str(card_file.parent))[0] == 1


def test_validate_bad_option_default(capsys, game_copy):
    text = game_copy.read_text()
    match = re.search(r"^( +default: )(\d+)", text, re.M)
    assert match, "the test needs an int option with a default in the ruleset"
    game_copy.write_text(text[: match.start(2)] + "-5000000" + text[match.end(2):])
    code, out, _ = run(capsys, "validate", str(game_copy))
    assert code == 1
    assert "option" in out and "-5000000" in out


def test_validate_unknown_option(capsys, game_copy):
    code, out, err = run(capsys, "validate", "--option", "no_such_option=1", str(game_copy))
    assert code == 2  # the command line is wrong, not the ruleset (issue 29.14)
    assert "no option 'no_such_option'" in err


def test_validate_bad_deck(capsys, game_copy):
    deck = sorted((game_copy.parent / "decks").glob("*.yaml"))[0]
    lines = deck.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if re.match(r"^\s+\S.*:\s*\d+\s*$", line))
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines.insert(i + 1, f"{indent}No Such Card Anywhere: 1")
    deck.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "validate", str(deck))
    assert code == 1
    assert f"{deck.name}:{i + 2}:" in out
    assert "No Such Card Anywhere" in out
    # the ruleset folder as a whole: its ruleset is ok, the deck is not
    code, out, _ = run(capsys, "validate", str(game_copy.parent))
    assert code == 1
    assert re.search(rf"^ok +.*{game_copy.name}$", out, re.M)
    assert re.search(rf"^error +.*{deck.name}$", out, re.M)


def test_validate_scenario_and_unknown_path(capsys, tmp_path):
    scenarios = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))
    if scenarios:
        code, out, _ = run(capsys, "validate", str(scenarios[0]))
        assert code == 0, out
    code, out, _ = run(capsys, "validate", str(tmp_path / "nothing-here.yaml"))
    assert code == 1


# ---------------------------------------------------------------- play and replay
def _play_logged(capsys, tmp_path, seed="5") -> tuple[Path, str]:
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", GAME, "--seed", seed, "--log", str(log))
    assert code == 0, err
    return log, out


def test_play_prints_turns_decisions_and_result(capsys, tmp_path):
    _log, out = _play_logged(capsys, tmp_path)
    lines = out.splitlines()
    assert "turn 1" in lines
    assert any(re.match(r"^P\d chooses: .+", line) for line in lines)
    assert re.match(r"^result: (P\d wins|draw) \(.+\) after \d+ turns?$", lines[-1])


def test_play_quiet_prints_only_the_result(capsys):
    code, out, _ = run(capsys, "play", GAME, "--seed", "2", "--quiet")
    assert code == 0
    assert len(out.splitlines()) == 1 and out.startswith("result: ")


def test_play_is_deterministic_by_seed(capsys):
    first = run(capsys, "play", GAME, "--seed", "9")[1]
    second = run(capsys, "play", GAME, "--seed", "9")[1]
    assert first == second


def test_log_header_and_replay(capsys, tmp_path):
    log, _ = _play_logged(capsys, tmp_path)
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["type"] == "header"
    assert header["ruleset"] == GAME and header["seed"] == 5
    for key in ("ruleset_file", "options", "version", "players", "decks"):
        assert key in header
    assert header["players"] == ["random", "random"]
    assert all(isinstance(d, dict) and sum(d["cards"].values()) == 40 for d in header["decks"])
    entries = [json.loads(line) for line in lines[1:]]
    assert {e["type"] for e in entries} >= {"event", "decision", "end"}
    code, out, _ = run(capsys, "replay", str(log))
    assert code == 0
    assert out.strip() == f"replay identical: {len(entries)} lines"


def test_tampered_log_names_the_line(capsys, tmp_path):
    log, _ = _play_logged(capsys, tmp_path)
    lines = log.read_text().splitlines()
    # change the args of an event in the middle of the game
    index = next(i for i, line in enumerate(lines) if i > len(lines) // 2
                 and json.loads(line).get("type") == "event" and json.loads(line).get("args"))
    entry = json.loads(lines[index])
    key = next(iter(entry["args"]))
    entry["args"][key] = "tampered"
    lines[index] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "replay", str(log))
    assert code == 1
    assert f":{index + 1}:" in out and f"line {index + 1}" in out
    assert "expected:" in out and "got:" in out and "tampered" in out


def test_tampered_decision_diverges(capsys, tmp_path):
    log, _ = _play_logged(capsys, tmp_path)
    lines = log.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if json.loads(line).get("type") == "decision")
    entry = json.loads(lines[index])
    entry["option"] = "no-such-option"
    lines[index] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "replay", str(log))
    assert code == 1
    assert f"line {index + 1}" in out and "illegal" in out


def test_replay_bad_file(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "event"}\n')
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 1 and f"{bad}:1:" in err and "Traceback" not in err
    bad.write_text("not json\n")
    assert run(capsys, "replay", str(bad))[0] == 1


# ---------------------------------------------------------------- simulate
def _simulate(capsys, *extra: str) -> dict:
    code, out, err = run(capsys, "simulate", GAME, "--games", "6", "--seed", "40", "--json", *extra)
    assert code == 0, err
    return json.loads(out)


def test_simulate_json(capsys):
    data = _simulate(capsys)
    for key in ("games", "wins", "draws", "end_reasons", "mean_turns", "games_per_s", "decisions_per_game",
                "seed", "options"):
        assert key in data
    assert data["games"] == 6
    assert sum(data["wins"]) + data["draws"] == 6
    assert sum(data["end_reasons"].values()) == 6
    assert data["seed"] == 40


def test_simulate_workers_give_the_same_results(capsys):
    one = _simulate(capsys, "--workers", "1")
    two = _simulate(capsys, "--workers", "2")
    for key in ("games", "wins", "draws", "end_reasons", "mean_turns", "decisions_per_game"):
        assert one[key] == two[key], key


def test_simulate_table(capsys):
    code, out, _ = run(capsys, "simulate", GAME, "--games", "2", "--agents", "first,random")
    assert code == 0
    assert "P1 wins" in out and "draws" in out and "mean turns" in out


# ---------------------------------------------------------------- test
def test_test_command_summary(capsys, tmp_path):
    scenarios = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))
    if not scenarios:
        pytest.skip("no scenarios yet")
    code, out, _ = run(capsys, "test", str(scenarios[0]))
    assert out.splitlines()[-1] == ("1 passed, 0 failed" if code == 0 else "0 passed, 1 failed")
    assert code == 0, out
    # a scenario with a wrong expectation fails; a malformed one is counted as failed
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(f"ruleset: {GAME}\ncites: [X-1]\nwhen: []\nthen:\n  over: true\n")
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"ruleset: {GAME}\nwhen: []\n")
    code, out, _ = run(capsys, "test", "-v", str(scenarios[0]), str(wrong), str(broken))
    assert code == 1
    assert out.splitlines()[-1] == "1 passed, 2 failed"
    assert re.search(r"^FAIL .*wrong\.yaml", out, re.M)
    assert re.search(r"^FAIL .*broken\.yaml", out, re.M)
    assert re.search(r"^ok +.*" + re.escape(scenarios[0].name), out, re.M)
    assert "broken.yaml:" in out  # located message for the malformed file


def test_test_command_default_folder(capsys, monkeypatch, tmp_path):
    """Without paths, `test` runs tests/scenarios under the current folder (every scenario of the
    checkout runs in test_scenarios.py: here two copies of one, in a folder of their own)."""
    scenarios = sorted((ROOT / "tests" / "scenarios" / GAME).glob("*.yaml"))
    if not scenarios:
        pytest.skip("no scenarios folder")
    folder = tmp_path / "tests" / "scenarios" / GAME
    folder.mkdir(parents=True)
    for name in ("a.yaml", "b.yaml"):
        (folder / name).write_text(scenarios[0].read_text())
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "test")
    assert out.splitlines()[-1] == "2 passed, 0 failed" and code == 0


# ---------------------------------------------------------------- cards
def test_cards_list_and_show(capsys):
    from interpreter import load

    rules = load(GAME)
    name = next(iter(rules.card_defs))
    code, out, _ = run(capsys, "cards", GAME)
    assert code == 0 and name in out
    code, out, _ = run(capsys, "cards", GAME, name)
    assert code == 0
    assert f":{rules.card_defs[name].span.line}" in out
    assert "canonical form" in out and "abilities" in out
    code, _, err = run(capsys, "cards", GAME, name[:-1] + "x")
    assert code == 2 and "did you mean" in err  # a name on the command line: usage


# ---------------------------------------------------------------- errors and usage
def test_unknown_game_did_you_mean(capsys):
    code, out, err = run(capsys, "play", GAME[:-1])
    assert code == 1
    assert f"did you mean '{GAME}'" in err
    assert "Traceback" not in err


def test_unknown_option_on_the_command_line(capsys):
    code, _, err = run(capsys, "simulate", GAME, "--games", "1", "--option", "no_such_option=3")
    assert code == 2 and "no_such_option" in err


@pytest.mark.parametrize("argv", [
    [],
    ["frobnicate"],
    ["simulate", GAME],
    ["simulate", GAME, "--games", "0"],
    ["play", GAME, "--seed", "abc"],
    ["play", GAME, "--players", "random,random,random"],
    ["play", GAME, "--players", "random,nobody"],
    ["play", GAME, "--option", "no-equals-sign"],
    ["simulate", GAME, "--games", "1", "--agents", "human"],
])
def test_bad_usage_exits_2(capsys, argv):
    assert run(capsys, *argv)[0] == 2


def test_human_player_reasks(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("banana\n0\n1\n"))
    code, out, _ = run(capsys, "play", GAME, "--seed", "1", "--players", "human,random")
    assert code == 0  # input ends: the game is abandoned cleanly
    assert "'banana' is not an option" in out
    assert "0 is not in the list" in out
    assert "you are P1" in out
    assert "game abandoned" in out


def test_module_entry_point(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli.main", "play", GAME, "--seed", "3", "--quiet"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("result: ")
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli.main", "play", "nonexistent-game"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli.main"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 2
