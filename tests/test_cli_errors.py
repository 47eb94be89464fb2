"""Hostile command lines and files (issue 29, points 8-14): every one ends in a located error or a
usage error with the documented exit code, never a traceback, a hang or a false success."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.errors import CardrulesError
from interpreter.rules.yamlload import load_yaml_text
from interpreter.scenarios.plan import Scenario, make_plan

SCENARIO = """\
ruleset: bases
cites: [B-2.3]
seed: 4
then:
  {key}:
    - {{event: {name}}}
"""


# ---------------------------------------------------------------- 8. an event named by a list or mapping
@pytest.mark.parametrize("key, name, got", [("events", "[attacks]", "a list"),
                                            ("not_events", "{a: 1}", "a mapping")])
@pytest.mark.parametrize("command", ["validate", "test"])
def test_an_event_named_by_a_list_or_mapping_is_an_error_at_it(tmp_path, capsys, command, key, name, got):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(key=key, name=name), encoding="utf-8")
    assert main([command, str(path)]) == 1
    out = capsys.readouterr()
    assert f"{path}:6:8: rules error: then.{key}[0].event: expected text, got {got}" in out.out + out.err
    assert "crashed" not in out.out and "Traceback" not in out.err


def test_an_event_named_by_a_list_is_an_error_at_it_even_without_the_schema(tmp_path):
    # make_plan guards on its own: a scenario built without read_scenario's schema check
    file = str(tmp_path / "s.yaml")
    data, marks = load_yaml_text(SCENARIO.format(key="events", name="[attacks]"), file)
    from interpreter import load

    with pytest.raises(CardrulesError) as caught:
        make_plan(Scenario(data, marks, file), load("bases"))
    assert str(caught.value).startswith(f"{file}:6:8: rules error: then events: an event is named by text, "
                                        "not list ['attacks']")


# ---------------------------------------------------------------- 9. a path the system refuses
LONG = "a" * 300  # a name longer than the 255 bytes a file name may have


@pytest.mark.parametrize("argv", [
    ["simulate", LONG + ".yaml", "-n", "1"], ["replay", LONG + ".jsonl"], ["validate", LONG + ".yaml"],
    ["validate", "--ruleset", LONG + ".yaml", "x.cards"], ["play", LONG + ".yaml"], ["fmt", LONG + ".cards"],
    ["cards", LONG + ".yaml"], ["explain", LONG + ".yaml", "X"], ["test", LONG + ".yaml"],
    ["compare", LONG + ".yaml", "-n", "1"], ["compare", "initiative", LONG + ".yaml", "-n", "1"],
    ["serve", "--replay", LONG + ".jsonl", "--no-browser"], ["validate", "x/" * 3000 + "y.yaml"],
])
def test_a_path_too_long_to_read_is_one_error_naming_it(capsys, argv):
    assert main(argv) == 1
    out = capsys.readouterr()
    name = next(a for a in argv if len(a) > 255)
    shown = f"{name[:60]}...{name[-40:]} ({len(name):,} characters)"
    flag = "--replay " if "--replay" in argv else "--ruleset " if "--ruleset" in argv else ""
    assert out.err == f"file error: {flag}{shown}: cannot be read: File name too long\n"
    assert out.out == ""


@pytest.mark.parametrize("argv, flag", [
    (["play", "initiative", "--seed", "1", "-q", "--log", LONG + ".jsonl"], "--log"),
    (["simulate", "initiative", "-n", "1", "--records", LONG + ".jsonl"], "--records"),
    (["simulate", "initiative", "-n", "1", "--report", LONG], "--report"),
    (["simulate", "initiative", "-n", "1", "--log-dir", LONG], "--log-dir"),
    (["compare", "initiative", "-n", "1", "--variant-option", "round_limit=5", "--report", LONG], "--report"),
    (["schema", "--write", LONG], "--write"),
])
def test_a_path_too_long_to_write_is_a_usage_error_before_anything_runs(capsys, argv, flag):
    assert main(argv) == 2
    out = capsys.readouterr()
    name = argv[-1]
    command = argv[0]
    assert out.err == (f"cardrules {command}: error: {flag} {name[:60]}...{name[-40:]} ({len(name):,} characters): "
                       "cannot be written: File name too long\n")
    assert out.out == ""


def test_a_log_that_cannot_be_written_is_refused_before_the_game(tmp_path, capsys):
    missing = tmp_path / "no" / "game.jsonl"
    assert main(["play", "initiative", "--seed", "1", "--log", str(missing)]) == 2
    out = capsys.readouterr()
    assert out.err == f"cardrules play: error: --log {missing} cannot be written: {missing.parent} is not a writable folder\n"
    assert out.out == ""  # no game was played


def test_a_file_the_system_refuses_later_is_an_error_naming_it_not_a_traceback(monkeypatch, capsys):
    import interpreter.cli.replay as replay

    def refuse(path, **_kwargs):
        raise OSError(36, "File name too long", "b" * 5000)

    monkeypatch.setattr(replay, "replay_log", refuse)
    assert main(["replay", "x.jsonl"]) == 1
    assert capsys.readouterr().err == (f"cardrules replay: error: {'b' * 60}...{'b' * 40} (5,000 characters): "
                                       "File name too long\n")


# ---------------------------------------------------------------- 10. a log line nested too deep
def a_log(tmp_path: Path, name: str = "game.jsonl") -> Path:
    log = tmp_path / name
    assert main(["play", "initiative", "--seed", "1", "--quiet", "--log", str(log)]) == 0
    return log


def with_line(log: Path, index: int, line: str) -> Path:
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[index] = line
    bad = log.with_name("bad.jsonl")
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bad


DEEP = '{"type": "event", "name": "x", "args": {"a": ' + "[" * 100000 + "]" * 100000 + "}}"


@pytest.mark.parametrize("argv", [["replay"], ["serve", "--no-browser", "--replay"]])
def test_a_log_line_nested_100000_deep_is_an_error_at_its_line(tmp_path, capsys, argv):
    if argv[0] == "serve":
        pytest.importorskip("starlette")
    bad = with_line(a_log(tmp_path), 3, DEEP)
    capsys.readouterr()
    assert main([*argv, str(bad)]) == 1
    # the 101st level opens at column 45 (the object, its args) + 99 arrays
    assert capsys.readouterr().err == f"{bad}:4:144: log error: not a log line: its JSON nests more than 100 levels deep\n"


def test_a_log_line_with_a_huge_number_is_an_error_at_its_line(tmp_path, capsys):
    bad = with_line(a_log(tmp_path), 3, '{"type": "event", "name": "x", "args": {"a": ' + "9" * 5000 + "}}")
    capsys.readouterr()
    assert main(["replay", str(bad)]) == 1
    assert capsys.readouterr().err == (f"{bad}:4:1: log error: not a JSON line: Exceeds the limit (4300 digits) for "
                                       "integer string conversion: value has 5000 digits\n")


def test_nesting_is_counted_outside_strings_only():
    from interpreter.cli.replay import nesting_column

    assert nesting_column("[" * 100 + "]" * 100) is None
    assert nesting_column("[" * 101 + "]" * 101) == 101
    assert nesting_column('{"a": "' + "[{" * 500 + '\\"["}') is None
    assert nesting_column('["\\\\", ' + "[" * 100) == 107


# ---------------------------------------------------------------- 12. a log cut short
def lines_of(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines()


def cut(log: Path, keep: int) -> Path:
    short = log.with_name("short.jsonl")
    short.write_text("\n".join(lines_of(log)[:keep]) + "\n", encoding="utf-8")
    return short


def last_decision(lines: list[str]) -> tuple[int, dict]:
    return next((i + 1, json.loads(line)) for i, line in reversed(list(enumerate(lines)))
                if json.loads(line)["type"] == "decision")


def test_a_log_without_its_end_line_is_cut_short(tmp_path, capsys):
    log = a_log(tmp_path)
    lines = lines_of(log)
    assert '"type": "end"' in lines[-1]
    short = cut(log, len(lines) - 1)
    capsys.readouterr()
    assert main(["replay", str(short)]) == 1
    number, decision = last_decision(lines)
    last = len(lines) - 1
    assert capsys.readouterr().out == (
        f"{short}:{last}: the log is cut short: it ends at line {last}, before the game's end\n"
        f"  the game goes on with: {lines[-1]}\n"
        f"  the log's last decision: line {number}, P{decision['player']} chose {decision['label']}\n")


def test_a_log_cut_before_a_decision_is_cut_short_naming_the_decision(tmp_path, capsys):
    log = a_log(tmp_path)
    lines = lines_of(log)
    number, _ = last_decision(lines)
    short = cut(log, number - 1)  # the game waits for the decision of line `number`
    capsys.readouterr()
    assert main(["replay", str(short)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{short}:{number - 1}: the log is cut short: it ends at line {number - 1}, before the game's end"
    assert out[1] == "  the game waits for: P2's decision 'card name'"
    previous, decision = last_decision(lines[:number - 1])
    assert out[2] == f"  the log's last decision: line {previous}, P{decision['player']} chose {decision['label']}"


def test_a_log_cut_at_a_decision_is_cut_short(tmp_path, capsys):
    log = a_log(tmp_path)
    number, decision = last_decision(lines_of(log))
    short = cut(log, number)  # the decision is there; what it caused is not
    capsys.readouterr()
    assert main(["replay", str(short)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{short}:{number}: the log is cut short: it ends at line {number}, before the game's end"
    assert out[1].startswith("  the game goes on with: {")
    assert out[2] == f"  the log's last decision: line {number}, P{decision['player']} chose {decision['label']}"


def test_the_log_of_an_abandoned_game_says_so_and_replays(tmp_path, capsys, monkeypatch):
    log = tmp_path / "abandoned.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))  # one answer, then the input ends
    assert main(["play", "initiative", "--seed", "1", "--players", "human,random", "--log", str(log)]) == 0
    lines = lines_of(log)
    assert lines[-1] == '{"type": "stopped", "reason": "abandoned by a player"}'
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out == (f"replay identical: {len(lines) - 1} lines "
                                       "(the game stopped before its end: abandoned by a player)\n")
    log.write_text("\n".join(lines + [lines[-1]]) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    assert capsys.readouterr().err.startswith(f"{log}:{len(lines) + 1}:1: log error: nothing may follow a 'stopped' line")


# ---------------------------------------------------------------- 13. thousands of errors: 50 of a kind printed
CARDS = 1000  # each card names an attribute the type does not have and lacks one it needs: 2 errors


def bad_cards(count: int = CARDS) -> str:
    return "".join(f'card "D{i}" : action {{\n  initiativ = 1\n  copies = 1\n  part top {{ heal(you, 1) }}\n'
                   f'  part bottom {{ heal(you, 1) }}\n}}\n\n' for i in range(count))


def located(out: str, kind: str) -> list[str]:
    return [line for line in out.splitlines() if re.match(rf"\s*\S+:\d+:\d+: {kind} error: ", line)]


def test_validate_prints_50_errors_of_a_kind_then_how_many_more(tmp_path, capsys, monkeypatch):
    from interpreter.cli.validate import Validator

    path = tmp_path / "many.cards"
    path.write_text(bad_cards(), encoding="utf-8")
    rendered = []
    render = Validator.render
    monkeypatch.setattr(Validator, "render", lambda self, err: rendered.append(err) or render(self, err))
    assert main(["validate", str(path), "--ruleset", "initiative"]) == 1
    out = capsys.readouterr().out
    assert len(located(out, "validation")) == 50 and len(rendered) == 50  # the work of printing is bounded too
    assert out.splitlines()[-2:] == [f"    and {2 * CARDS - 50:,} more validation errors (at most 50 of a kind are shown)",
                                     "1 file checked, 1 with errors"]


def test_test_prints_50_errors_of_a_kind_of_a_scenarios_cards(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    cards = "\n".join("  " + line for line in bad_cards(100).splitlines())
    path.write_text(f"ruleset: initiative\ncites: [I-1.1]\ncards: |\n{cards}\n", encoding="utf-8")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert len(located(out, "validation")) == 50
    assert "    and 150 more validation errors (at most 50 of a kind are shown)\n0 passed, 1 failed\n" in out


def test_a_schemas_left_out_errors_are_counted_as_errors_of_their_kind(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: initiative\ncites: [" + ", ".join(f"x{i}" for i in range(3000)) + "]\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert len(located(out, "rules")) == 50
    assert "    and 2,950 more rules errors (at most 50 of a kind are shown)\n" in out


def test_a_command_prints_50_errors_of_a_kind_of_what_it_loads(capsys, monkeypatch):
    import interpreter.cli.main as cli
    from interpreter.errors import ErrorList, Span, ValidationError

    def fail(_args):
        raise ErrorList([ValidationError(f"bad {i}", Span("x.cards", i + 1, 1)) for i in range(3000)]
                        + [CardrulesError("another kind")])

    monkeypatch.setattr(cli, "run", fail)
    assert main(["cards", "initiative"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:2] == ["x.cards:1:1: validation error: bad 0", "x.cards:2:1: validation error: bad 1"]
    assert err[49:] == ["x.cards:50:1: validation error: bad 49", "error error: another kind",
                        "and 2,950 more validation errors (at most 50 of a kind are shown)"]


def test_test_prints_50_failures_of_a_scenario(tmp_path, capsys, monkeypatch):
    import interpreter.scenarios as scenarios
    from interpreter.scenarios.runner import ScenarioResult

    path = tmp_path / "s.yaml"
    path.write_text("ruleset: initiative\ncites: [I-1.1]\n", encoding="utf-8")

    def failing(_path):
        result = ScenarioResult(str(path), [])
        result.failures = [f"check {i} failed" for i in range(500)]
        return result

    monkeypatch.setattr(scenarios, "run_scenario", failing)
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["    check 0 failed", "    check 1 failed"]
    assert out[50:] == ["    check 49 failed", "    and 450 more failures (at most 50 are shown)", "0 passed, 1 failed"]


# ---------------------------------------------------------------- 14. usage errors exit 2, input errors 1
NOT_A_NUMBER = "option round_limit takes a whole number, at least 1, not 'x'"


@pytest.mark.parametrize("argv, message", [
    (["play", "initiative", "--option", "round_limit=x"], NOT_A_NUMBER),
    (["play", "initiative", "--option", "players=3"], "option players: initiative is played by 2 players exactly, "
                                                       "not 3 (a ruleset for more or fewer players declares players: "
                                                       "{min: 2, max: 4, default: 2})"),
    (["simulate", "initiative", "-n", "1", "--option", "nope=1"], "initiative has no option 'nope' (options: round_limit)"),
    (["compare", "initiative", "-n", "1", "--variant-option", "round_limit=0"],
     "option round_limit must be at least 1, not 0"),
    (["compare", "initiative", "-n", "1", "--base-option", "round_limit=x", "--variant-option", "round_limit=5"],
     NOT_A_NUMBER),
    (["compare", "initiative", "-n", "1", "--replace", "Stab=Nope"], "--replace: no card named 'Nope'"),
    (["validate", "initiative", "--option", "round_limit=x"], NOT_A_NUMBER),
    (["cards", "initiative", "--option", "round_limit=x"], NOT_A_NUMBER),
    (["explain", "initiative", "Stab", "--option", "round_limit=x"], NOT_A_NUMBER),
    (["cards", "initiative", "Stabb"], "initiative has no card named 'Stabb' (did you mean 'Stab'?) "
                                       "('cardrules cards initiative' lists its 14 cards)"),
    (["explain", "initiative", "Stabb"], "initiative has no card named 'Stabb' (did you mean 'Stab'?) "
                                         "('cardrules cards initiative' lists its 14 cards)"),
    (["replay", "x.jsonl", "--seat", "2"], "--seat is the view of --show: give --show too"),
])
def test_a_wrong_command_line_is_a_usage_error(capsys, argv, message):
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.err == f"cardrules {argv[0]}: error: {message}\n"
    assert out.out == ""


def test_serve_with_a_bad_option_is_a_usage_error(capsys):
    pytest.importorskip("starlette")
    assert main(["serve", "initiative", "--no-browser", "--option", "round_limit=x"]) == 2
    assert capsys.readouterr().err == f"cardrules serve: error: {NOT_A_NUMBER}\n"


@pytest.mark.parametrize("argv, message", [
    (["serve", "initiative", "--port", "99999"], "argument --port: a port is from 0 to 65535, not 99999"),
    (["test", "--bogus"], "unrecognized arguments: --bogus"),
    (["replay", "x.jsonl", "--seat", "0"], "argument --seat: expected 1 or more, not 0"),
    (["play", "initiative", "--seed", "x"], "argument --seed: a seed is a whole number, not 'x'"),
    (["validate", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_a_bad_flag_is_a_usage_error(capsys, argv, message):
    assert main(argv) == 2
    assert capsys.readouterr().err.rstrip().endswith(f": error: {message}")


def test_a_seat_the_logged_game_does_not_have_is_a_usage_error(tmp_path, capsys):
    log = a_log(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(log), "--show", "--seat", "3"]) == 2
    out = capsys.readouterr()
    assert out.err == "cardrules replay: error: --seat 3: the logged game has 2 players\n" and out.out == ""


@pytest.mark.parametrize("argv, shown", [
    (["play", "initiatve", "--option", "round_limit=x"], "rules error: unknown game 'initiatve' (did you mean "
                                                          "'initiative'?)"),
    (["fmt", "missing.cards"], "error missing.cards\n    rules error: no such file: missing.cards"),
])
def test_what_cannot_be_read_stays_an_input_error(tmp_path, monkeypatch, capsys, argv, shown):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 1
    out = capsys.readouterr()
    assert (out.out + out.err).startswith(shown)


def test_a_ruleset_that_is_wrong_itself_stays_an_input_error_with_options(tmp_path, capsys):
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: broken\ntitle: [not, text]\n", encoding="utf-8")
    assert main(["play", str(broken), "--option", "round_limit=x"]) == 1
    err = capsys.readouterr().err
    assert re.match(rf"{re.escape(str(broken))}:\d+:\d+: rules error: ", err), err


def test_validate_with_an_unknown_ruleset_is_an_error_even_when_no_path_needs_it(capsys):
    from interpreter.cli.main import main

    assert main(["validate", "initiative", "--ruleset", "nope"]) == 1
    assert "unknown game 'nope'" in capsys.readouterr().err
