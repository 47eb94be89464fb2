"""Constant evaluation is an interpreter of the lowered form (issue 31, step 3): consteval.py
works card templates out from the IR (lang/ir.py) with the same values, the same errors at the
same spans (and hints) and the same count of steps as the AST walker it replaced, kept as the
reference in tests/helpers/consteval_walker.py. Compared over every card template, every
expression and every rule function (called with sample arguments) of every shipped game and
tests/data ruleset, and over a sample of every form and every error."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import consteval_walker
import pytest

from interpreter import load
from interpreter.errors import ValidationError
from interpreter.lang import ast, consteval, templates
from interpreter.lang.parser import parse

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ["initiative", "lanes", "lanes-classic", "bases", "hearts", "harvest", "spades", "expedition"]
TEST_RULESETS = sorted(str(p) for p in (ROOT / "tests" / "data").glob("*/*.yaml") if p.stem == p.parent.name)
SAMPLE_ARGUMENTS = [0, 3, -2, "a", [1, 2, 3], [], None, True, ["x", "y"]]

# Every form constant evaluation knows, and each of its errors, in functions a template calls.
SAMPLE = '''
function tally(n) {
  let total = 0
  let i = 0
  while i < n { i += 1  if i % 2 == 0 { total += i } elif i == 3 { total -= 1 } else { total = total + 0 } }
  for x in range(1, n) { if x > 4 { break }  total += x }
  repeat 2 { total = total * 2 }
  return total
}
function grade(n) = if n > 10 then "high" else if n > 5 then "mid" else "low"
function words(xs) = [text(x) + "!" for x in xs if x is not none]
function pairs(n) = [a * 10 + b for a in range(1, n) if a != 2 for b in range(a, n) if b > a]
function picked(xs) = all x in xs where x > 1 ordered by -x desc
function noreturn(n) { let m = n }
function endless(n) { while true { n += 1 } }
function forever(n) = forever(n + 1)
function counted(n) { repeat n { n += 1 } return n }
function asks(n) { let c = choose from [1, 2] }
function moves(n) { shuffle pile() }
function maybe(n) { may { return 1 } }
function field(n) { n.power = 1 }
function plain(n) = n + 1
'''
EXPRESSIONS = [
    "tally(9)", "tally(0)", "grade(12)", "grade(7)", "grade(1)", "words([1, none, \"z\"])", "pairs(5)",
    "picked([3, 1, 2, 5])", "noreturn(1)", "[1, 2][1]", "not (1 in [2])", "-(3 - 5)", "5 % 2", "7 / 2",
    "1 and 0", "0 or 2", "none or 1", "\"a\" + 1", "1 + [2]", "-\"x\"", "counted(\"x\")", "[1, 2][5]",
    "k is player", "k is text", "k is not list", "x", "kk", "self", "you.score", "game.round", "options.size",
    "event.amount", "hand(you)", "count(hand(you))", "random(5)", "nope(1)", "plain(1, 2)", "plain(n: 1)",
    "range(1, 2, 3, 4)", "range(\"a\")", "max(1, 2)", "text(none)", "asks(1)", "moves(1)", "maybe(1)",
    "field(1)", "choose from [1, 2]", "forever(1)", "endless(1)", "tally(k)", "sum_of([k, 2])",
    "use(1)", "pairs(300)", "if k == 1 then x else 0", "[y for y in [1, 2] if y > k]",
]


def _outcome(run) -> tuple:
    """A value, or an error's message, span and hint."""
    try:
        return ("value", repr(run()))
    except ValidationError as err:
        return ("error", err.message, err.span, err.hint)
    except Exception as err:  # noqa: BLE001 (a crash is an outcome to compare too)
        return ("crash", type(err).__name__, str(err))


def _both(functions, what: str, work) -> tuple[tuple, tuple]:
    """(outcome, steps) of `work(evaluator)` by the IR interpreter and by the reference walker."""
    results = []
    for kind in (consteval.ConstantEvaluator, consteval_walker.ConstantEvaluator):
        evaluator = kind(functions, what)
        results.append((_outcome(lambda ev=evaluator: work(ev)), evaluator.steps))
    return results[0], results[1]


def _functions(modules) -> dict[str, ast.Function]:
    found: dict[str, ast.Function] = {}
    for module in modules:
        for item in module.items:
            if isinstance(item, ast.Function):
                found.setdefault(item.name, item)
    return found


def _literal(value: Any) -> ast.Expr:
    return templates.literal(value, ast.NoneLit())


def _differences(modules) -> list[str]:
    """Where the IR interpreter and the walker differ on the code of these modules."""
    functions = _functions(modules)
    out = []

    def compare(what: str, work) -> None:
        new, old = _both(functions, "a card template", work)
        if new != old:
            out.append(f"{what}: IR {new} != walker {old}")

    items = [item for module in modules for item in module.items]
    for template in (i for i in items if isinstance(i, ast.CardTemplate)):
        def expand(evaluator, template=template):
            with mock.patch.object(templates, "ConstantEvaluator", lambda *_args: evaluator):
                made = templates.expand(template, functions)
            return [(c.name, c.attrs, c.keywords, c.parts, c.abilities) for c in made]
        compare(f"template {template.name!r} at {template.span}", expand)
    for node in ast.walk(tuple(modules)):
        if isinstance(node, ast.Expr) and not isinstance(node, (ast.BlockValue, ast.CodeValue)):  # (no values alone)
            compare(f"{type(node).__name__} at {node.span}", lambda ev, node=node: ev.value(node, {}))
    for fn in functions.values():
        for sample in SAMPLE_ARGUMENTS:
            call = ast.Call(fn.name, tuple(_literal(sample) for _ in fn.params), span=fn.span)
            compare(f"{fn.name}({sample!r}, ...)", lambda ev, call=call, sample=sample: ev.value(call, {"k": sample}))
    return out


@pytest.mark.parametrize("ruleset", SHIPPED + TEST_RULESETS, ids=lambda r: Path(r).stem)
def test_every_template_expression_and_function_gives_what_the_walker_gave(ruleset):
    rules = load(ruleset)
    assert _differences([*rules.ruleset.modules, *rules.ruleset.card_modules]) == []


def test_every_form_and_every_error_as_the_walker(monkeypatch):
    monkeypatch.setattr(consteval, "MAX_STEPS", 20_000)  # (endless loops are stopped at the same place)
    monkeypatch.setattr(consteval_walker, "MAX_STEPS", 20_000)
    source = SAMPLE + "cards for k in [1, 2, \"t\"]: \"{grade(k)}{k}\" : unit {\n" + "".join(
        f"  a{i} = {e}\n" for i, e in enumerate(EXPRESSIONS)) + "}\n"
    module = parse(source, "sample.cards")
    functions = _functions([module])
    template = module.items[-1]
    seen = set()
    for combination in ({"k": 1}, {"k": "t"}, {}):
        for attr in template.attrs:
            new, old = _both(functions, "a card template", lambda ev, a=attr, c=combination: ev.value(a.value, dict(c)))
            assert new == old, (attr.name, combination)
            seen.add(new[0])
    assert ("value", "116") in seen and ("value", "'mid'") in seen and ("value", "[12, 13, 14, 34]") in seen
    errors = {outcome[1] for outcome in seen if outcome[0] == "error"}
    assert {"a card template works out more than 20,000 values: a loop without end?",
            "function 'forever' calls itself without end in a card template",
            "a decision has no value in a card template: its values are worked out at load, before any game",
            "this statement has no value in a card template: its values are worked out at load, before any game",
            "'plain' takes no named arguments"} <= errors
    assert _differences([module]) == []


def test_a_wrong_rule_of_the_interpreter_is_caught(monkeypatch):
    """The comparison finds a deliberately wrong rule: `-` working as `+`."""
    monkeypatch.setattr(consteval, "MAX_STEPS", 20_000)
    monkeypatch.setattr(consteval_walker, "MAX_STEPS", 20_000)
    wrong = dict(consteval.BINOPS)
    wrong["-"] = wrong["+"]
    monkeypatch.setattr(consteval, "BINOPS", wrong)
    found = _differences([parse(SAMPLE, "sample.rules")])
    assert any(line.startswith("tally(3, ...): IR ") for line in found), found[:5]


def test_a_compound_assignment_of_values_that_do_not_add_is_a_located_error(tmp_path):
    """`n += 1` where n is a text: the load said `TypeError: can only concatenate str...`
    with no place; now the error of the statement, at it."""
    (tmp_path / "f.rules").write_text('function bump(n) {\n  n += 1\n  return n\n}\n', encoding="utf-8")
    module = parse((tmp_path / "f.rules").read_text(), "f.rules")
    template = parse('cards for k in ["a"]: "C{bump(k)}" : unit { }', "c.cards").items[0]
    with pytest.raises(ValidationError) as caught:
        templates.expand(template, _functions([module]))
    assert caught.value.message == ("cannot work out 'a' + 1: can only concatenate str (not \"int\") to str")
    assert (caught.value.span.file, caught.value.span.line, caught.value.span.column) == ("f.rules", 2, 3)


def test_templates_use_the_ir_interpreter():
    assert templates.ConstantEvaluator is consteval.ConstantEvaluator
    assert not hasattr(consteval.ConstantEvaluator, "_clauses")  # (the AST walker is gone from consteval.py)
