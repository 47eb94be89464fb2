"""The one built-ins table (issue 31, step 3): every built-in in interpreter/lang/builtins.py is
well formed, documented, known to the checker with its arity and kind, worked out at load exactly
when it is marked constant; an argument of a kind a built-in cannot take is refused at load; and
adding a built-in is one table entry: a toy one, added through `builtins.define`, is checked,
inferred, compiled, run, worked out in a card template and shown on hover and in completion."""

from __future__ import annotations

from pathlib import Path

import pytest
from toyrules import empty_game, toy_with

from interpreter import load
from interpreter.errors import CardrulesError, ErrorList
from interpreter.lang import builtins
from interpreter.lang.builtins import BUILTINS, FUNCTIONS, PROCEDURES, Builtin, builtin_doc, problems
from interpreter.lang.kinds import KIND_WORDS
from interpreter.lsp.features import completions, find, hover_markdown
from interpreter.lsp.symbols import SymbolIndex


def _with_teams(path: Path) -> Path:
    """The toy ruleset at path, given teams (for `team(p)` and `members(t)`)."""
    path.write_text(path.read_text(encoding="utf-8") + "teams: {partnerships: all}\n", encoding="utf-8")
    return path


def _errors(tmp_path: Path, rules: str, folder: str = "refused") -> list[CardrulesError]:
    """The errors of loading the toy ruleset (with teams) with these rules, in a folder of its own."""
    (tmp_path / folder).mkdir()
    with pytest.raises(CardrulesError) as caught:
        load(_with_teams(toy_with(tmp_path / folder, rules)))
    err = caught.value
    return list(err.errors) if isinstance(err, ErrorList) else [err]


def _message(err: CardrulesError) -> str:
    return str(err).splitlines()[0].split("validation error: ", 1)[1]


def test_every_builtin_is_well_formed_and_documented():
    assert len(FUNCTIONS) == 41 and sorted(PROCEDURES) == ["aim", "reveal", "run", "use"]
    for name, builtin in BUILTINS.items():
        assert problems(builtin) == [], name
        what, signature, doc = builtin_doc(name)
        assert (what, signature, doc) == ("procedure" if builtin.procedure else "function", name + builtin.params,
                                          builtin.doc)
        assert len(builtin.param_names()) >= builtin.arity[0], name


def test_every_builtin_is_known_to_the_checker_with_its_arity(tmp_path):
    """Each built-in called with its least number of arguments loads; with one too many, the
    checker refuses it, naming it and how many it takes."""
    good = "".join(f"function use_{n}(a, b, c) = {n}({', '.join('abc'[:b.arity[0]])})\n"
                   for n, b in FUNCTIONS.items())
    good += "".join(f"procedure do_{n}(a, b) {{ {n}({', '.join('ab'[:b.arity[0]])}) }}\n" for n, b in PROCEDURES.items())
    load(_with_teams(toy_with(tmp_path, good)))
    bad = "".join(f"function use_{n}(a) = {n}({', '.join(['a'] * (b.arity[1] + 1))})\n" for n, b in FUNCTIONS.items())
    # (`reveal`'s second argument is written `reveal c to p`: `reveal(c, p)` is a syntax error,
    # tests/test_reveal_to.py)
    bad += "".join(f"procedure do_{n}(a) {{ {n}({', '.join(['a'] * (b.arity[0] + 1))}) }}\n"
                   for n, b in PROCEDURES.items() if n != "reveal")
    messages = [_message(e) for e in _errors(tmp_path, bad)]
    expected = []
    for n, b in BUILTINS.items():
        if n == "reveal":
            continue
        lo, hi = b.arity
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        expected.append(f"{n!r} takes {want} argument(s), got {hi + 1}")
    assert messages == expected


def test_the_checker_knows_the_kind_each_builtin_gives(tmp_path):
    """`game.counter` holds a number: a built-in said to give another kind is refused there at
    load, one that gives a number or a kind that depends on its arguments is not."""
    calls = {n: f"{n}({', '.join(['[1]'] * b.arity[0])})" for n, b in FUNCTIONS.items() if not b.takes}
    rules = "".join(f"procedure set_{n}() {{ game.counter = {call} }}\n" for n, call in calls.items())
    messages = [_message(e) for e in _errors(tmp_path, rules)]
    refused = [n for n in calls if FUNCTIONS[n].gives not in ("int", "any")]
    assert refused  # (lists, texts, true/false, a player, a card)
    assert messages == [f"cannot set game.counter to {KIND_WORDS[FUNCTIONS[n].gives]}: it holds a number (type: int)"
                        for n in refused]


def test_an_argument_of_a_kind_a_builtin_cannot_take_is_refused_at_the_argument(tmp_path):
    errors = _errors(tmp_path, 'procedure probe() {\n  game.counter = count(take(hand(you), "two"))\n'
                               '  game.counter = abs([1])\n  let p = next_player(3)\n}\n')
    extra = tmp_path / "refused" / "extra.rules"
    assert [(e.span.line, e.span.column, _message(e)) for e in errors] == [
        (2, 40, "'take' takes a number as 'n', not text"),
        (3, 22, "'abs' takes a number as 'n', not a list"),
        (4, 23, "'next_player' takes a player as 'p', not a number")]
    assert str(errors[0]).startswith(f"{extra}:2:40: validation error: ")


def test_only_constant_builtins_are_worked_out_in_a_card_template(tmp_path):
    """A built-in marked `constant` (and `text`, with its meaning at load) works in a card
    template; any other is refused there as having no value before a game."""
    assert sorted(n for n, b in FUNCTIONS.items() if not b.constant) == [
        "abilities", "ability_card", "ability_cost", "attachments", "card_names", "has", "labelled", "members",
        "next_player", "others", "position", "random", "shuffled", "silenced", "team", "text"]
    template = 'cards for n in [count([1, 2]), sum_of(range(1, 4))]: "Made {text(n)} {max(n, 5)}" : unit { power = n }\n'
    rules = load(toy_with(tmp_path, template))
    assert {n: d.attrs["power"] for n, d in rules.card_defs.items() if n.startswith("Made")} == {"Made 2 5": 2,
                                                                                               "Made 6 6": 6}
    [err] = _errors(tmp_path, 'cards for n in [random([1, 2])]: "Made {n}" : unit { power = n }\n')
    assert _message(err).startswith("random(...) has no value in a card template")


# ---------------------------------------------------------------- adding one: one table entry
DOUBLE = Builtin("double", "(n)", "twice the number", lambda g, n: 2 * n, arity=(1, 1), gives="int",
                 takes=("int",), constant=True)


@pytest.fixture
def double():
    builtins.define(DOUBLE)
    try:
        yield DOUBLE
    finally:
        builtins.undefine("double")
    assert "double" not in BUILTINS


def test_a_builtin_added_to_the_table_is_checked_compiled_run_and_documented(tmp_path, double):
    rules = load(toy_with(tmp_path, 'function quadruple(x) = double(double(x))\n'
                                    'procedure probe() { game.counter = quadruple(5) + double(1) }\n'
                                    'cards for n in [double(1), 3]: "Twin {double(n)}" : unit { power = double(n) }\n'))
    game = empty_game(rules)
    game.perform("probe", controller=1)
    assert game.state.globals["counter"] == 22
    assert (rules.card_defs["Twin 4"].attrs["power"], rules.card_defs["Twin 6"].attrs["power"]) == (4, 6)
    errors = _errors(tmp_path, 'procedure probe() {\n  game.counter = double("x")\n  let p = players[1]\n'
                     '  p.score = double(1) + 1\n  let s = first(sites(p))\n  s.colour = double(2)\n}\n'
                     'function f() = double(1, 2)\n')
    assert [_message(e) for e in errors] == [
        "'double' takes a number as 'n', not text",
        "cannot set attribute 'colour' to a number: it holds text (type: text)",
        "'double' takes 1 argument(s), got 2"]
    text = "function f(x) = double(x)\n"
    found = find(SymbolIndex(), text, 0, text.index("double") + 2)
    assert hover_markdown(SymbolIndex(), found) == "```cardrules\ndouble(n)\n```\nbuilt-in function: twice the number"
    entries, _start = completions(SymbolIndex(), "function f(x) = dou", 0, len("function f(x) = dou"))
    assert [(e.label, e.kind, e.detail) for e in entries] == [("double", "built-in function", "double(n)")]


def test_the_extension_point_refuses_a_bad_or_taken_entry():
    with pytest.raises(ValueError, match="'count' is a built-in already"):
        builtins.define(Builtin("count", "(L)", "again", lambda g, x: 0, gives="int"))
    with pytest.raises(ValueError, match="gives 'number'"):
        builtins.define(Builtin("halve", "(n)", "half", lambda g, n: n // 2, gives="number"))
    with pytest.raises(ValueError, match="define adds built-in functions"):
        builtins.define(Builtin("ping", "(p)", "pings", procedure=True))
    with pytest.raises(ValueError, match="one of the language's own"):
        builtins.undefine("count")
    assert "halve" not in BUILTINS and "ping" not in BUILTINS
