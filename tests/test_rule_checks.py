"""Rules that used to validate but do something else, each now a located load error (or a located
warning, or a rule error at run time where the load cannot know):

- `win`/`lose` given a list of players, and an end condition whose `winner`/`loser` is a list: a
  shared result that results cannot hold (the game ended as a draw);
- a card's `attr = NAME` for a `text` attribute: the name stands for its text, as documented (it
  was refused), checked against the attribute's `values:`; `true`/`false`/`none` keep their meaning;
- `x =- 2`, which sets x to -2 but reads like a typo of `x -= 2`: a located warning that
  `cardrules validate` prints without failing (`= -2`, with a space, is silent); `x =+ 2` is a
  syntax error whose hint says `+=`.

Each builds on the toy ruleset (tests/data/toy) copied into tmp_path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruleerrors import both_ways, load_error, located_at
from toyrules import toy_with

from interpreter import load
from interpreter.cli.main import main
from interpreter.errors import (
    CardSyntaxError,
    RuleWarning,
)


def _toy(tmp_path: Path, rules: str = "", setup: str | None = None, end: str | None = None,
         replace: dict[str, str] | None = None) -> Path:
    """The toy ruleset with `rules` as an extra rules file, another `setup:` line, an end
    condition tried before the toy's own, and lines of toy.yaml replaced."""
    path = toy_with(tmp_path, rules)
    text = path.read_text(encoding="utf-8")
    for old, new in (replace or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    if setup is not None:
        text = text.replace("setup: run_setup()", f"setup: {setup}")
    if end is not None:
        text = text.replace("\nend:\n", f"\nend:\n  - {end}\n", 1)
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- who a result names
# (issue 32: a list of players or a team is a shared result; `win players` was a draw before)

@pytest.mark.parametrize("code, column, message, hint", [
    ("win 1", 7, "'win' takes a player, a team or a list of players, not a number",
     "a number is not a seat: name the player, like players[3]"),
    ('win "P1"', 7, "'win' takes a player, a team or a list of players, not text",
     "a name in quotes is a text: name the player, like players[1]"),
    ("lose hand(p)", 8, "'lose' takes a player, a team or a list of players, not a list of cards", ""),
])
def test_a_result_that_names_no_player_is_refused_at_load(tmp_path, code, column, message, hint):
    path = _toy(tmp_path, f"procedure finish(p) {{\n  {code}\n}}\n")
    err = load_error(path)
    located_at(err, tmp_path / "extra.rules", 2, column)
    assert (err.message, err.hint) == (message, hint)


@pytest.mark.parametrize("code, winners, losers", [
    ('win players "all of them"', (1, 2), ()),
    ("lose all p in players where p.score >= 0", (), (1, 2)),
    ("lose all p in players where p.seat == 2", (1,), (2,)),
])
def test_a_list_of_players_is_a_shared_result(tmp_path, code, winners, losers):
    path = _toy(tmp_path, f"procedure finish() {{\n  {code}\n}}\n", setup="finish()")
    r = load(path).new_game(seed=1).result
    assert (r.winners, r.losers, r.draw) == (winners, losers, False)
    assert r.winner == (winners[0] if len(winners) == 1 else None)


@pytest.mark.parametrize("key, winners, losers", [("winner", (1, 2), ()), ("loser", (), (1, 2))])
def test_an_end_condition_may_name_a_list_of_players(tmp_path, key, winners, losers):
    path = _toy(tmp_path, end=f'{{when: "game.turn > 1", {key}: "all p in players where p.score >= 0"}}')
    game = load(path).new_game(seed=1)
    while not game.is_over:
        game.apply(0)
    assert (game.result.winners, game.result.losers, game.result.draw) == (winners, losers, False)


def test_one_player_still_wins_and_loses(tmp_path):
    path = _toy(tmp_path, "procedure finish() {\n  win first(players)\n}\n", setup="finish()")
    assert load(path).new_game(seed=1).result.winner == 1
    path = _toy(tmp_path, end='{when: "game.turn > 1", loser: "first(all p in players where p.seat == 2)"}')
    game = load(path).new_game(seed=1)
    while not game.is_over:
        game.apply(0)
    assert (game.result.winner, game.result.draw) == (1, False)


def test_a_list_the_load_cannot_see_stops_the_game_where_the_result_is_given(tmp_path):
    rules = "function numbers() {\n  let them = [1, 2]\n  return them\n}\nprocedure finish() {\n  win numbers()\n}\n"
    path = _toy(tmp_path, rules, setup="finish()")
    message = "the winner of a game is a player, a team or a list of players, not 1 + 2 (a list) (in procedure finish)"
    for err in both_ways(load(path), re.escape(message)):
        located_at(err, tmp_path / "extra.rules", 6, 3)
    path = _toy(tmp_path, rules, end='{when: "game.turn > 1", loser: "numbers()"}')
    for err in both_ways(load(path), re.escape("the loser of a game is a player, a team or a list of players, "
                                               "not 1 + 2 (a list)")):
        located_at(err, path, 56, 37)


# ---------------------------------------------------------------- a bare name printed on a card
KINDS = {"      role: {type: text}\n": "      role: {type: text}\n      kind: {type: text, values: [beast, spirit], default: beast}\n"}


def test_a_bare_name_for_a_text_attribute_stands_for_its_text(tmp_path):
    path = _toy(tmp_path, 'card "Camp" : site { colour = red role = centre kind = spirit }\n', replace=KINDS)
    rules = load(path)
    assert rules.card_defs["Camp"].initial == {"colour": "red", "role": "centre", "kind": "spirit"}
    quoted = _toy(tmp_path, 'card "Camp" : site { colour = "red" role = "centre" kind = "spirit" }\n', replace=KINDS)
    assert load(quoted).card_defs["Camp"].initial == rules.card_defs["Camp"].initial


@pytest.mark.parametrize("member, column, message", [
    ("kind = spirt", 56, "attribute 'kind' of 'Camp' is 'spirt'; site cards have it one of beast, spirit "
                         "(did you mean 'spirit'?)"),
    ('kind = "spirt"', 56, "attribute 'kind' of 'Camp' is 'spirt'; site cards have it one of beast, spirit "
                           "(did you mean 'spirit'?)"),
    ("kind = true", 56, "attribute 'kind' of 'Camp' must be a constant of type text"),
    ("kind = none", 56, "attribute 'kind' of 'Camp' must be a constant of type text"),
])
def test_a_printed_text_is_still_checked(tmp_path, member, column, message):
    path = _toy(tmp_path, f'card "Camp" : site {{ colour = red role = centre {member} }}\n', replace=KINDS)
    err = load_error(path)
    located_at(err, tmp_path / "extra.rules", 1, column)
    assert err.message == message


@pytest.mark.parametrize("member, column, message", [
    ("power = big", 30, "attribute 'power' of 'Bear' must be a constant of type int"),
    ("flag = yes", 29, "attribute 'flag' of 'Bear' must be a constant of type bool"),
])
def test_a_bare_name_is_no_number_and_no_flag(tmp_path, member, column, message):
    err = load_error(_toy(tmp_path, f'card "Bear" : unit {{ {member} }}\n'))
    located_at(err, tmp_path / "extra.rules", 1, column)
    assert err.message == message


def test_in_a_card_template_a_name_is_a_loop_name_and_text_is_quoted(tmp_path):
    rules = 'cards for c in ["red", "blue"]: "{c} Camp" : site { colour = c role = centr }\n'
    err = load_error(_toy(tmp_path, rules))
    located_at(err, tmp_path / "extra.rules", 1, 71)
    assert err.message == "unknown name 'centr' in a card template"
    assert err.hint == 'names here: c; text is written in quotes: "centr"'


# ---------------------------------------------------------------- `=-` with no space: a warning
GLUED = ("procedure hurt(t) {\n  t.score =- 2\n  t.score = -2\n  t.score -= 2\n  t.score =-1 * 3\n"
         "  let n =- 1\n}\n"
         'card "Odd" : unit {\n  on tick { self.power =-self.guard }\n}\n')
HINT = "write '-=' to subtract, or '= -' with a space to set a negative value"


def test_eq_minus_with_no_space_is_a_located_warning(tmp_path):
    path = _toy(tmp_path, GLUED, setup='"game.counter =-1"')
    rules = load(path)
    found = [(Path(w.span.file).name, w.span.line, w.span.column, w.message) for w in rules.warnings]
    assert found == [
        ("extra.rules", 2, 11, "'=-' sets t.score to -2; did you mean '-=', which subtracts?"),
        ("extra.rules", 5, 11, "'=-' sets t.score to -1 * 3; did you mean '-=', which subtracts?"),
        ("extra.rules", 9, 24, "'=-' sets self.power to -self.guard; did you mean '-=', which subtracts?"),
        ("toy.yaml", 35, 22, "'=-' sets game.counter to -1; did you mean '-=', which subtracts?"),
    ]
    assert all(isinstance(w, RuleWarning) and w.hint == HINT for w in rules.warnings)
    assert str(rules.warnings[0]).startswith(f"{rules.warnings[0].span}: warning: '=-' sets t.score")
    assert load(_toy(tmp_path, GLUED.replace("=-", "= -"))).warnings == ()


def test_validate_prints_the_warning_and_does_not_fail(tmp_path, capsys, monkeypatch):
    _toy(tmp_path, GLUED)
    monkeypatch.chdir(tmp_path)
    for _run in range(2):  # (the second run would replay a stored check: a warning is never stored)
        assert main(["validate", "toy.yaml"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("ok    toy.yaml  (3 warnings)\n"
                              "    extra.rules:2:11: warning: '=-' sets t.score to -2; did you mean '-=', which "
                              "subtracts?\n          t.score =- 2\n                  ^\n"
                              f"    hint: {HINT}\n")
        assert out.endswith("2 files checked, 0 with errors, 3 warnings\n")


def test_the_language_server_shows_the_warning_as_a_warning(tmp_path):
    types = pytest.importorskip("lsprotocol.types")
    from interpreter.cli.lsp import validate_errors
    from interpreter.lsp.diagnostics import diagnostic

    path = _toy(tmp_path, GLUED)
    found = validate_errors(path, [path])[path]
    assert [(w.span.line, w.span.column) for w in found] == [(2, 11), (5, 11), (9, 24)]
    shown = diagnostic(found[0])
    assert (shown.severity, shown.code) == (types.DiagnosticSeverity.Warning, "warning")
    assert (shown.range.start.line, shown.range.start.character, shown.range.end.character) == (1, 10, 11)


def test_eq_plus_is_a_syntax_error_that_says_plus_eq(tmp_path):
    with pytest.raises(CardSyntaxError) as info:
        load(_toy(tmp_path, "procedure heal(t) {\n  t.score =+ 2\n}\n"))
    assert (info.value.span.line, info.value.span.column) == (2, 12)
    assert info.value.hint == "there is no unary `+`: `x += 1` adds to x (`=+` is no operator), `x = 1` sets it"


@pytest.mark.parametrize("end, reason", [
    ('{when: "game.turn > 1", loser: "first(all p in players where p.seat == 2)"}', "game.turn > 1"),
    ('{when: "game.turn > 1", winner: "first(players)"}', "game.turn > 1"),
    ('{when: "game.turn > 1", draw: true}', "draw"),
    ('{when: "game.turn > 1", winner: "first(players)", reason: "first seat"}', "first seat"),
])
def test_an_end_condition_without_a_reason_reports_its_condition_not_draw(tmp_path, end, reason):
    game = load(_toy(tmp_path, end=end)).new_game(seed=1)
    while not game.is_over:
        game.apply(0)
    assert game.result.reason == reason
