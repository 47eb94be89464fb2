"""Issue 32.10, the small items: a result's reason may show values (an end condition's `reason:`
and the reason of `win`/`lose`/`tie`); a scenario's observation path takes `.count` after a list;
`for x in L where C { }` (C tested as each item is reached) and a hint for `where` and `if` in the
wrong place; the ordering of lists and texts in comparisons (as docs/language.md says). The test
ruleset is tests/data/subtypes (T-2.1, T-2.2)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.errors import CardrulesError
from interpreter.lang.parser import parse
from interpreter.lang.printer import to_source
from interpreter.scenarios import run_scenario

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "subtypes"
RULESET = DATA / "subtypes.yaml"


def broken(tmp_path: Path, old: str, new: str, file: str) -> Path:
    folder = tmp_path / "subtypes"
    shutil.copytree(DATA, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder / "subtypes.yaml"


def load_error(path: Path) -> str:
    with pytest.raises(CardrulesError) as info:
        load(path)
    return str(info.value)


# ---------------------------------------------------------------- a reason that shows values
def test_an_end_conditions_reason_shows_values_worked_out_at_the_end():
    rules = load(RULESET)
    results = set()
    for seed in range(1, 6):
        game = rules.new_game(seed=seed)
        while not game.is_over:
            game.apply(0)
        health = max(game.observation(1)["players"][i]["health"] for i in range(2)) if game.result.winner else None
        results.add((game.result.reason, health))
    # each game won by a fall says the winner's health at the end, a value of that game
    won = [(reason, health) for reason, health in results if health is not None]
    assert won and all(reason == f"a player fell; the other has {health} health" for reason, health in won), results


@pytest.mark.parametrize("old,new,expected", [
    ("{max_of(players.health)}", "{max_of(players.helth)}",
     "subtypes.yaml:{end}:163: validation error: unknown attribute 'helth' (did you mean 'health'?)"),
    ("{max_of(players.health)}", "{max_of(players.health)",
     "subtypes.yaml:{end}:155: syntax error: a '{' in the reason opens a value that no '}' closes"),
])
def test_a_bad_value_in_an_end_reason_is_located_in_the_yaml(tmp_path, old, new, expected):
    message = load_error(broken(tmp_path, old, new, "subtypes.yaml"))
    end = next(i for i, line in enumerate(RULESET.read_text(encoding="utf-8").splitlines(), start=1) if "reason:" in line)
    expected = expected.replace("{end}", str(end))
    assert expected in message, message


def test_a_bad_value_in_a_win_reason_is_located(tmp_path):
    path = broken(tmp_path, "function other(p) =",
                  'procedure concede(p) { lose p "conceded with {p.helth} health" }\n\nfunction other(p) =',
                  "subtypes.rules")
    message = load_error(path)
    line = next(i for i, text in enumerate((RULESET.parent / "subtypes.rules").read_text(encoding="utf-8").splitlines(),
                                           start=1) if text.startswith("function other(p) ="))  # (the new line's)
    assert re.search(rf"subtypes\.rules:{line}:47: validation error: unknown attribute 'helth' \(did you mean "
                     r"'health'\?\)", message), message


def test_a_reason_with_values_prints_as_written():
    module = parse('procedure f(p) { win p "reached {p.score} points {{sic}}" tie "even" }', "x.rules")
    assert to_source(module.items[0]) == 'procedure f(p) {\n  win p "reached {p.score} points {{sic}}"\n  tie "even"\n}'


# ---------------------------------------------------------------- .count of an observation's list
def test_an_observation_count_that_is_wrong_fails_at_its_path(tmp_path):
    source = ROOT / "tests" / "scenarios" / "subtypes" / "inherited-attributes-and-label.yaml"
    path = tmp_path / "scenario.yaml"
    text = source.read_text(encoding="utf-8").replace("../../data/subtypes/subtypes.yaml", str(RULESET))
    assert "observation.2.zones.P1.board.count: 2" in text
    path.write_text(text.replace("observation.2.zones.P1.board.count: 2", "observation.2.zones.P1.board.count: 5"))
    result = run_scenario(path)
    assert not result.passed
    assert result.failures == [f"then observation.2.zones.P1.board.count: expected 5, got 2 ({path}:16:39)"]


# ---------------------------------------------------------------- for x in L where C
SCENARIO = """\
ruleset: {ruleset}
cites: [T-2.1]
cards: |
  card "Test Sweep" : spell {{
    cost = 0
    part play {{
      for c in board(self.owner) where count(all x in board(self.owner) where x.attack >= 2) == 0 {{
        c.attack += 1
      }}
      emit ordered(lists: [1, 2] < [1, 3], prefix: [1, 2] < [1, 2, 0], empty: [] < [0], longer: [2] > [1, 9, 9],
                   texts: "B" < "a", words: "ab" < "b", keys: all x in [3, 1, 2] ordered by [x % 2, x])
    }}
  }}
given:
  turn: {{player: 1, phase: main}}
  players:
    1: {{hand: [Test Sweep, Rally], board: [Squire, Recruit]}}
    2: {{hand: [Squire, Rally]}}
when:
  - {{player: 1, choose: Test Sweep}}
then:
  players.1.board: [{{name: Squire, attack: 2}}, {{name: Recruit, attack: 1}}]
  events_so_far: [{{event: ordered, lists: true, prefix: true, empty: true, longer: true, texts: true, words: true,
                   keys: [2, 1, 3]}}]
"""


def test_for_where_tests_each_item_as_it_is_reached_and_lists_order_item_by_item(tmp_path):
    path = tmp_path / "sweep.yaml"
    path.write_text(SCENARIO.format(ruleset=RULESET), encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, result.failures  # (Recruit: Squire's +1 made the condition false)


def test_for_where_prints_and_explains_as_written(capsys):
    module = parse("procedure f(p) { for c in hand(p) where c.cost > 1 { stop } }", "x.rules")
    assert to_source(module.items[0]) == "procedure f(p) {\n  for c in hand(p) where c.cost > 1 {\n    stop\n  }\n}"
    assert main(["explain", str(RULESET), "Cull"]) == 0
    assert "for each `c` in `board(p)` where `c is token_minion`: moves `c` to `discard(p)`" in capsys.readouterr().out


@pytest.mark.parametrize("source,hint", [
    ("procedure f(p) { let y = [c for c in hand(p) where c.cost > 1] }",
     "hint: a comprehension keeps items with `if`: [x for x in L if C]"),
    ("procedure f(p) { for c in hand(p) if c.cost > 1 { stop } }",
     "hint: a loop keeps items with `where`: for x in L where C { ... }"),
])
def test_where_and_if_in_the_wrong_place_get_a_hint(source, hint):
    with pytest.raises(CardrulesError) as info:
        parse(source, "x.rules")
    assert hint in str(info.value)
