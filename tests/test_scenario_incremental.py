"""A scenario's own cards are checked and compiled on top of its shared ruleset (issue 35.1):
for every shipped scenario with cards, the rules that path gives are the rules a whole load
gives (`load_ruleset(..., extra_cards)`): the same tables, the same scenario outcome, and the
same seeded random games, decision for decision, in both forms (step by step, and the rollout
form of `play_out`), with decks that hold the scenario's cards."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from interpreter.engine.rules import Rules
from interpreter.errors import CardrulesError
from interpreter.rules.checker import build_context, checked_context
from interpreter.rules.decks import Deck
from interpreter.rules.extra_cards import with_cards
from interpreter.scenarios import loading, runner
from interpreter.scenarios.plan import read_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
# (a scenario that expects its cards to be refused at load has no game to compare)
WITH_CARDS = sorted(p for p in SCENARIOS.rglob("*.yaml")
                    if re.search(r"^cards:", text := p.read_text(), re.M) and not re.search(r"^expect_error:", text, re.M))
# Each comparison loads its ruleset whole (0.3 s): the default suite compares every fourth of the
# scenarios with cards and those that the shared code cannot serve; CARDRULES_LONG=1 all of them.
LONG = os.environ.get("CARDRULES_LONG") == "1"
WHOLE = {"bases/rule-b-5.2-card-beats-cancel-rule.yaml", "bases/rule-b-5.2-card-beats-empty-deck-rule.yaml",
         "lanes/rule-l-4.3-dead-card-does-not-attack.yaml", "lanes/rule-l-4.3-moved-card-keeps-its-place.yaml",
         "subtypes/printed-text-read-by-code.yaml"}  # (its card emits an event the ruleset does not declare)
COMPARED = WITH_CARDS if LONG else [p for i, p in enumerate(WITH_CARDS)
                                    if i % 4 == 0 or str(p.relative_to(SCENARIOS)) in WHOLE]
CAP = 150  # decisions per game: enough to draw and play the scenario's cards now and then
SEEDS = (1, 2)
# Program fields whose values are compiled code or hold it: compared by their games, not by value.
CODE_FIELDS = {"ruleset", "compiler", "definitions", "keyword_abilities", "keyword_tables", "card_defs",
               "end_checks", "end_checks_any", "evaluate_code", "reward_code", "statistics", "main",
               "set_up_start", "requirements", "codes"}


def both(path: Path) -> tuple[Rules, Rules]:
    """(the rules of the scenario as a run loads them, the rules of a whole load)."""
    scenario = read_scenario(path)
    data, marks = scenario.data, scenario.marks
    incremental = loading.rules_for(data, scenario.file, marks)
    line, column, _style = marks.value_origin(("cards",))
    base = Path(scenario.file).parent / data["ruleset"]
    target = str(base) if base.is_file() else data["ruleset"]
    whole = Rules(loading._load_placed(target, data.get("options") or {}, marks,
                                       [(data["cards"], scenario.file, line, column)]))
    return incremental, whole


def same_tables(a: Rules, b: Rules) -> None:
    for name in a.program.__dataclass_fields__:
        if name not in CODE_FIELDS:
            assert getattr(a.program, name) == getattr(b.program, name), name
    assert list(a.card_defs) == list(b.card_defs)
    assert set(a.codes) == set(b.codes)
    assert a.ruleset.warnings == b.ruleset.warnings
    assert a.ruleset.code_nodes() == b.ruleset.code_nodes()
    mine, whole = checked_context(a.ruleset), build_context(b.ruleset, b.definitions)
    for name in mine.__dataclass_fields__:
        if name != "kinds":  # (an object of the same declarations, functions and keywords)
            assert getattr(mine, name) == getattr(whole, name), name
    assert list(mine.events) == list(whole.events)  # (in order: did-you-mean hints follow it)
    for name, card in b.card_defs.items():
        mine = a.card_defs[name]
        assert (mine.initial, mine.keywords, mine.listens, [x.key for x in mine.abilities]) == (
            card.initial, card.keywords, card.listens, [x.key for x in card.abilities]), name


def outcome(path: Path, rules: Rules, monkeypatch) -> tuple:
    with monkeypatch.context() as patch:
        patch.setattr(runner, "rules_for", lambda data, file, marks: rules)
        result = runner.run_scenario(path)
    return result.passed, result.failures, result.decisions, result.rule_error


def decks_with(rules: Rules, names: list[str]) -> list[Deck] | None:
    """The default decks with the scenario's cards in place of their first cards."""
    decks = rules.default_decks()
    if not decks or not names:
        return None
    out = []
    for deck in decks:
        top = [names[i % len(names)] for i in range(min(len(deck.cards), 2 * len(names)))]
        out.append(Deck(deck.name, deck.file, (*top, *deck.cards[len(top):]), deck.sections))
    return out


def played(rules: Rules, seed: int, decks, fast: bool) -> tuple:
    """A seeded random game: its log (or the rule error that stopped it) and its result."""
    agent = random.Random(seed)

    def decide(game) -> int:
        _seat, options = game.decision()
        return agent.randrange(len(options))

    try:
        if fast:
            game = rules.play_out(decide, seed=seed, decks=decks, log=True, max_decisions=CAP)
        else:
            game = rules.new_game(seed=seed, decks=decks, max_decisions=CAP)
            while not game.is_over:
                game.apply(decide(game))
    except CardrulesError as err:
        return ("error", str(err))
    return game.log, game.result


@pytest.mark.parametrize("path", COMPARED, ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_the_scenario_cards_on_top_load_what_a_whole_load_does(path: Path, monkeypatch) -> None:
    incremental, whole = both(path)
    same_tables(incremental, whole)
    assert outcome(path, incremental, monkeypatch) == outcome(path, whole, monkeypatch)
    new = [n for n in whole.playable_card_names if whole.card_defs[n].span.file == str(path)]
    decks = decks_with(whole, new)
    for seed in SEEDS:
        for fast in (False, True):
            assert played(incremental, seed, decks, fast) == played(whole, seed, decks, fast), (seed, fast)


def test_the_scenarios_compiled_whole_are_those_compared_by_default() -> None:
    """WHOLE names the shipped scenarios whose cards the shared code cannot serve (they replace a
    procedure, or wait on an event nothing else does): the default suite compares each of them."""
    whole = set()
    for path in WITH_CARDS:
        scenario = read_scenario(path)
        rules = loading.rules_for(scenario.data, scenario.file, scenario.marks)
        if getattr(rules.compiler, "_base", None) is None:
            whole.add(str(path.relative_to(SCENARIOS)))
    assert whole == WHOLE


def test_shipped_scenarios_reuse_the_shared_compiled_code() -> None:
    """The path is taken: the cards of a shipped scenario are checked alone and compiled on top
    of the shared rules' compiler (the test above shows that it gives what a whole load does)."""
    path = WITH_CARDS[0]
    scenario = read_scenario(path)
    rules = loading.rules_for(scenario.data, scenario.file, scenario.marks)
    shared = loading._RULES_CACHE[loading.json.dumps([scenario.data["ruleset"], {}], sort_keys=True)]
    assert rules.compiler._base is shared.compiler
    assert set(rules.card_defs) > set(shared.card_defs)
    assert all(rules.card_defs[name] is card for name, card in shared.card_defs.items())
    modules = rules.ruleset.card_modules[len(shared.ruleset.card_modules):]
    assert with_cards(shared.ruleset, modules) is not None


def test_expressions_are_checked_against_the_context_the_rules_were_checked_with(monkeypatch) -> None:
    """A scenario's `{expr: ...}` is checked against the name context kept by the check of its
    rules, not one built again for each expression (60 ms each for Bases)."""
    from interpreter.rules import checker

    built: list[str] = []
    real = checker.build_context
    monkeypatch.setattr(checker, "build_context", lambda ruleset, defs: built.append(ruleset.name) or real(ruleset, defs))
    path = SCENARIOS / "hearts" / "rule-h-2.1-cycle-repeats-on-deal-5.yaml"
    for _ in range(2):
        assert runner.run_scenario(path).passed
    loads = len([k for k in loading._RULES_CACHE if '"hearts"' in k])
    assert built.count("hearts") <= loads  # (each load's check only; before: once more per expression)


def test_a_scenario_does_not_walk_its_rules_code_again_for_the_events(monkeypatch) -> None:
    """make_plan reads the emitted events from the context the rules were checked with."""
    from interpreter.rules import checker
    from interpreter.scenarios import plan

    path = SCENARIOS / "hearts" / "rule-h-2.1-cycle-repeats-on-deal-5.yaml"
    assert runner.run_scenario(path).passed  # (the rules loaded and shared)
    walked: list[str] = []
    real = checker.emitted_events

    def counted(ruleset):
        walked.append(ruleset.name)
        return real(ruleset)

    monkeypatch.setattr(checker, "emitted_events", counted)
    monkeypatch.setattr(plan, "emitted_events", counted, raising=False)
    assert runner.run_scenario(path).passed
    assert walked == []  # (before: once per scenario)
