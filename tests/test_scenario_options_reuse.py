"""A ruleset loaded with other options reuses the compiled program (issue 35.1): for every
ruleset and options the shipped scenarios use, the rules `scenarios/loading.py` makes from the
same ruleset loaded with other options (`Program.with_options`) are those of a whole load: the
same tables, the same seeded random games, decision for decision, step by step and played out
(`Game.play_out(fast=True)` and `Rules.play_out`), the same results and scenario outcomes; and
the reuse is taken exactly when the number of players and the deck rules stay the same."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
import yaml

from interpreter.compile.program import Program, options_only_differ
from interpreter.engine.rules import Rules
from interpreter.errors import CardrulesError
from interpreter.scenarios import loading, runner
from interpreter.scenarios.plan import read_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
CAP = 150  # decisions per game
SEEDS = (1, 2)
OUTCOMES = 3  # scenarios of each combination whose outcome is compared both ways
# Program fields compared by the games played, not by value (compiled code, or objects holding it).
CODE_FIELDS = {"ruleset", "compiler", "definitions", "keyword_abilities", "keyword_tables", "card_defs",
               "end_checks", "end_checks_any", "evaluate_code", "reward_code", "statistics", "main",
               "set_up_start", "requirements", "codes"}


def _combinations() -> dict[str, list[Path]]:
    """The shipped scenarios by their ruleset and options (the key `rules_for` caches them by)."""
    found: dict[str, list[Path]] = {}
    for path in sorted(SCENARIOS.rglob("*.yaml")):  # (plain YAML: collected by every test worker)
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        if not isinstance(data, dict) or "ruleset" not in data:
            continue
        found.setdefault(json.dumps([_target(path, data), data.get("options") or {}], sort_keys=True), []).append(path)
    return found


def _target(path: Path, data: dict) -> str:
    base = path.parent / data["ruleset"]
    return str(base) if base.suffix in (".yaml", ".yml") and base.is_file() else data["ruleset"]


COMBINATIONS = _combinations()


@functools.cache
def _load(key: str) -> tuple:
    """(rules or the error raised, the scenario's marks) of a combination, loaded whole (once)."""
    path = COMBINATIONS[key][0]
    scenario = read_scenario(path)
    target, options = json.loads(key)
    try:
        return Rules(loading._load_placed(target, options, scenario.marks)), scenario.marks
    except CardrulesError as err:
        return err, scenario.marks


def _donor(key: str) -> str:
    """Another combination of the same ruleset that loads, to reuse: the first whose number of
    players and deck rules are the same (else the first that loads)."""
    target, _options = json.loads(key)
    whole, _marks = _load(key)
    others = [k for k in COMBINATIONS if k != key and json.loads(k)[0] == target
              and isinstance(_load(k)[0], Rules)]
    assert others, f"no other options of {target} among the scenarios"
    if isinstance(whole, Rules):
        for k in others:
            rules = _load(k)[0]
            if rules.player_count == whole.player_count and rules.ruleset.decks == whole.ruleset.decks:
                return k
    return others[0]


def reused(key: str, donor_key: str, monkeypatch) -> tuple:
    """(the rules `rules_for` makes for `key` when the process has loaded `donor_key` only, or
    the error raised; whether the donor's compiled code was reused)."""
    donor, _marks = _load(donor_key)
    monkeypatch.setattr(loading, "_RULES_CACHE", {donor_key: donor})
    scenario = read_scenario(COMBINATIONS[key][0])
    target, options = json.loads(key)
    try:
        rules = loading._shared_rules(target, options, scenario.marks)
    except CardrulesError as err:
        return err, False
    return rules, rules.compiler is donor.compiler


def played(rules: Rules, seed: int, form: str) -> tuple:
    """A seeded random game with the default decks: its log and result (or the rule error)."""
    agent = random.Random(seed)

    def decide(game) -> int:
        _seat, options = game.decision()
        return agent.randrange(len(options))

    try:
        if form == "rules.play_out":
            game = rules.play_out(decide, seed=seed, log=True, max_decisions=CAP)
        else:
            game = rules.new_game(seed=seed, max_decisions=CAP)
            if form == "steps":
                while not game.is_over:
                    game.apply(decide(game))
            else:
                game.play_out(decide, fast=True)
    except CardrulesError as err:
        return ("error", str(err))
    return game.log, game.result, game.state.answered


def outcome(path: Path, rules: Rules, monkeypatch) -> tuple:
    """A scenario run with these rules (plus its own cards, as `rules_for` adds them)."""
    def rules_for(data: dict, file: str, marks) -> Rules:
        if not data.get("cards"):
            return rules
        line, column, _style = marks.value_origin(("cards",))
        return loading._with_cards(rules, [(data["cards"], file, line, column)])

    with monkeypatch.context() as patch:
        patch.setattr(runner, "rules_for", rules_for)
        result = runner.run_scenario(path)
    return result.passed, result.failures, result.decisions, result.rule_error


def same_rules(mine: Rules, whole: Rules, monkeypatch, key: str) -> None:
    """Everything observable of the two rules is the same: games first, then tables."""
    for seed in SEEDS:
        for form in ("steps", "game.play_out", "rules.play_out"):
            assert played(mine, seed, form) == played(whole, seed, form), (seed, form)
    for path in COMBINATIONS[key][:OUTCOMES]:
        assert outcome(path, mine, monkeypatch) == outcome(path, whole, monkeypatch), path
    for name in Program.__dataclass_fields__:
        if name not in CODE_FIELDS:
            assert getattr(mine.program, name) == getattr(whole.program, name), name
    assert mine.options == whole.options and mine.ruleset.options == whole.ruleset.options
    assert options_only_differ(whole.ruleset, mine.ruleset)
    assert mine.ruleset.warnings == whole.ruleset.warnings
    assert list(mine.card_defs) == list(whole.card_defs) and set(mine.codes) == set(whole.codes)


@pytest.mark.parametrize("key", list(COMBINATIONS))
def test_options_reuse_gives_what_a_whole_load_does(key: str, monkeypatch) -> None:
    whole, _marks = _load(key)
    donor_key = _donor(key)
    mine, was_reused = reused(key, donor_key, monkeypatch)
    if isinstance(whole, CardrulesError):  # (an option value the ruleset refuses: the same error)
        assert isinstance(mine, CardrulesError) and str(mine) == str(whole)
        return
    same_rules(mine, whole, monkeypatch, key)
    donor = _load(donor_key)[0]
    assert was_reused == (donor.player_count == whole.player_count and donor.ruleset.decks == whole.ruleset.decks)


def test_the_shipped_option_variants_are_reused(monkeypatch) -> None:
    """The point of it: of the combinations, all but those that change the number of players
    or the deck format (and the one refused) reuse another's compiled code."""
    taken = {key for key in COMBINATIONS if reused(key, _donor(key), monkeypatch)[1]}
    assert sorted(set(COMBINATIONS) - taken) == sorted([
        '["bases", {"format": "skirmish"}]', '["harvest", {"players": 3}]', '["harvest", {"players": 4}]',
        '["harvest", {"players": 5}]', '["expedition", {"players": 3}]', '["expedition", {"players": 5}]'])


def test_a_reuse_across_the_number_of_players_would_play_other_games() -> None:
    """The comparison is needed: harvest's program for 2 players given `players: 4` as options
    is not harvest for 4 players (its zones and seats are 2 players'), and it is refused."""
    two, _ = _load('["harvest", {}]')
    four, _ = _load('["harvest", {"players": 4}]')
    assert not options_only_differ(four.ruleset, two.ruleset)
    wrong = Rules.of_program(two.program.with_options(four.options))
    assert [played(wrong, seed, "steps") for seed in SEEDS] != [played(four, seed, "steps") for seed in SEEDS]


def test_the_comparison_sees_what_equality_leaves_out() -> None:
    """A span (left out of the AST's `==`) or a 1 in place of a True makes two rulesets differ."""
    from dataclasses import replace

    rules, _ = _load('["hearts", {}]')
    ruleset = rules.ruleset
    assert options_only_differ(replace(ruleset, options={"target": 30}), ruleset)
    end = ruleset.end[0]
    moved = replace(end, when=replace(end.when, span=replace(end.when.span, line=end.when.span.line + 1)))
    assert moved == end  # (what `==` sees)
    assert not options_only_differ(replace(ruleset, end=[moved, *ruleset.end[1:]]), ruleset)
    assert not options_only_differ(replace(ruleset, step_budget=float(ruleset.step_budget)), ruleset)
