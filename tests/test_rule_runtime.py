"""The declared runtime (issue 31, step 2): generated rule code uses only the members of the game
that `RuleRuntime` (interpreter/lang/rule_runtime.py) declares, and every declared member exists
on a `GameState` and is used.

The generated Python of every shipped ruleset and test ruleset of the identical-logs corpus
(tests/helpers/logcorpus.py CASES), in all its forms (resumable, direct/native, rollout), is
parsed; so is that of the toy ruleset with rule code that reaches what the corpus does not (`game`
and `options` as values, a zone with many rows read whole, `abilities` of a list, `detach`, a
write of an attribute with `values:`)."""

from __future__ import annotations

import ast as pyast
import dis
import inspect
from pathlib import Path

import pytest
from logcorpus import CASES, rules_of
from toyrules import empty_game, toy_with

from interpreter import load
from interpreter.engine.state import GameState
from interpreter.lang.rule_runtime import (
    USED_BY_HELPERS_ONLY,
    WRITTEN,
    RuleRuntime,
    declared_names,
    game_uses,
    undeclared_uses,
)
from interpreter.lang.values import Labelled
from interpreter.paths import shipped_games

RULESETS = list({(case.ruleset, case.options): case for case in CASES}.values())  # (one per ruleset and options)

# Rule code that reaches members of the runtime that no corpus ruleset's code uses.
REACH = """
procedure runtime_reach(p) {
  let whole_game = game
  let all_options = options
  let mine = board(p)
  let everywhere = board()
  let usable = abilities(mine)
  for c in mine { detach c }
  for c in sites(p) { c.colour = "red" }
}
"""


def _reach_rules(tmp_path: Path):
    path = toy_with(tmp_path, REACH)
    text = path.read_text(encoding="utf-8")
    text = text.replace("rows: [left, right]", "rows: [left, right, up, down, far]")  # (10 keys: read zone by zone)
    text = text.replace("colour: {type: text}", "colour: {type: text, values: [red, blue, green]}")
    path.write_text(text, encoding="utf-8")
    return load(str(path))


def _sources(rules) -> dict[str, str]:
    """Every generated function of the rules, the rollout forms written first."""
    rules.compiler.compile_rollout()
    return rules.compiler.gen.ns.sources


@pytest.fixture(scope="module")
def every_source(tmp_path_factory) -> dict[str, tuple[object, dict[str, str]]]:
    """Ruleset name -> (its rules, its generated sources), for every ruleset checked."""
    found = {case.name: (rules_of(case), _sources(rules_of(case))) for case in RULESETS}
    reach = _reach_rules(tmp_path_factory.mktemp("reach"))
    found["toy-reach"] = (reach, _sources(reach))
    return found


def test_the_rulesets_checked_are_every_shipped_game_and_test_ruleset():
    shipped = {case.ruleset for case in CASES if "/" not in case.ruleset}
    assert set(shipped_games()) <= shipped
    assert any(case.ruleset.startswith("tests/") for case in CASES)


@pytest.mark.parametrize("case", RULESETS, ids=[case.name for case in RULESETS])
def test_generated_code_uses_only_the_declared_runtime(case):
    sources = _sources(rules_of(case))
    assert any("rollout" in name for name in sources) and any("procedure" in name for name in sources)
    assert undeclared_uses(sources) == []


def test_code_that_reaches_the_rarer_members_uses_only_the_declared_runtime(tmp_path):
    sources = _sources(_reach_rules(tmp_path))
    reached = {use.name for use in game_uses(sources) if "runtime_reach" in use.file}
    assert {"GAME", "OPTIONS", "zone_cards_of", "zone_cards_all", "activatable", "detach",
            "allowed_value"} <= reached
    assert undeclared_uses(sources) == []


def test_the_checker_names_an_undeclared_member_and_the_function_it_is_in():
    source = "def p_poke(g, f, v_card):\n    g.version += 1\n    g.not_declared(v_card)\n"
    assert undeclared_uses({"<cardrules 3: procedure poke>": source}) == [
        "g.not_declared in p_poke (<cardrules 3: procedure poke>, line 3): not declared by RuleRuntime"]


def test_the_checker_follows_the_game_under_another_name_and_into_the_rules():
    source = "def _g1(game, f):\n    h = game\n    h.halted = True\n    return game.rules.card_defs\n"
    assert undeclared_uses({"<cardrules 1: expression>": source}) == [
        "g.halted is assigned in _g1 (<cardrules 1: expression>, line 3): "
        "not a field RuleRuntime lets generated code write",
        "g.rules.card_defs in _g1 (<cardrules 1: expression>, line 4): not declared by RuleLimits"]


def test_every_declared_member_is_on_a_game_before_any_rule_code_runs():
    rules = load(Path(__file__).parent / "data" / "toy" / "toy.yaml")
    game = empty_game(rules).state  # (nothing run yet: what `GameState.__init__` made)
    missing = sorted(name for name in declared_names() if not hasattr(game, name))
    assert missing == []
    assert game.returned is None


def test_each_declared_method_takes_the_parameters_of_the_game_s():
    differ = []
    for name in sorted(declared_names()):
        declared = getattr(RuleRuntime, name, None)
        if not callable(declared):
            continue
        wanted = list(inspect.signature(declared).parameters)
        actual = list(inspect.signature(getattr(GameState, name)).parameters)
        if wanted != actual:
            differ.append(f"{name}: declared {wanted}, GameState has {actual}")
    assert differ == []


def test_every_declared_member_is_used(every_source):
    by_code = {use.name for _rules, sources in every_source.values() for use in game_uses(sources)}
    by_helpers = set()
    for rules, sources in every_source.values():
        by_helpers |= _helper_uses(rules, sources)
    declared = declared_names()
    assert sorted(declared - by_code - by_helpers) == []  # (declared, used by nothing)
    assert sorted(declared - by_code) == sorted(USED_BY_HELPERS_ONLY)
    assert sorted(by_helpers - declared) == []  # (a helper uses what is not declared)
    written = {use.name for _rules, sources in every_source.values() for use in game_uses(sources) if use.written}
    assert written == WRITTEN


# ---------------------------------------------------------------------- the hand-written helpers
# Hand-written callables that generated code hands the game to, and where they use it: a new one
# fails `_helper_uses` until it is listed here (and what it uses of the game is declared).
_CLASS_HELPERS = {Labelled: [Labelled.label.fget]}  # (a Labelled joins its text with the game's `label`)
_GAME_NAMES = {"g", "game"}


def _helper_uses(rules, sources: dict[str, str]) -> set[str]:
    """The members of the game used by the hand-written helpers generated code passes it to."""
    values = rules.compiler.gen.ns.values
    helpers: dict[str, object] = {}
    for source in sources.values():
        for fn in pyast.parse(source).body:
            if isinstance(fn, pyast.FunctionDef) and fn.args.args:
                helpers.update(_given_the_game(fn, values))
    used: set[str] = set()
    for name, helper in helpers.items():
        if inspect.isclass(helper):
            assert helper in _CLASS_HELPERS, f"generated code hands the game to {name} ({helper}): list it"
            for method in _CLASS_HELPERS[helper]:
                used |= _attributes_of_the_game(method.__code__)
        else:
            used |= _attributes_of_the_game(helper.__code__)
    return used


def _given_the_game(fn: pyast.FunctionDef, values: dict) -> dict[str, object]:
    """The callables (not generated ones) a generated function passes its game to, by name."""
    game = fn.args.args[0].arg
    parents = {child: node for node in pyast.walk(fn) for child in pyast.iter_child_nodes(node)}
    found = {}
    for node in pyast.walk(fn):
        if not (isinstance(node, pyast.Name) and node.id == game):
            continue
        parent = parents[node]
        if isinstance(parent, pyast.Attribute) and parent.value is node:
            continue  # (a member: see `undeclared_uses`)
        if isinstance(parent, pyast.Tuple):  # (a tuple of the game and pieces, for a helper)
            parent = parents[parent]
        assert isinstance(parent, pyast.Call) and isinstance(parent.func, pyast.Name), pyast.unparse(parent)
        callee = values[parent.func.id]
        code = getattr(callee, "__code__", None)
        if code is None or not code.co_filename.startswith("<cardrules"):
            found[parent.func.id] = callee
    return found


def _attributes_of_the_game(code) -> set[str]:
    """The attributes a hand-written function reads on a local named `g` or `game` (nested code too)."""
    found = set()
    previous = None
    for instruction in dis.get_instructions(code):
        if (previous is not None and previous.opname in ("LOAD_FAST", "LOAD_DEREF") and previous.argval in _GAME_NAMES
                and instruction.opname in ("LOAD_ATTR", "LOAD_METHOD")):
            found.add(instruction.argval)
        previous = instruction
    for const in code.co_consts:
        if inspect.iscode(const):
            found |= _attributes_of_the_game(const)
    return found
