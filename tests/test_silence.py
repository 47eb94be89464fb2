"""Silence and removable effects (issue 32.4, 32.5): `silence CARDS [until EVENT]`, durations tied
to a card (`until c leaves`) or to removal (`until removed`), and `remove effects [of SOURCE]
[from CARDS]`: parsed, printed back, explained, checked at load (located errors with hints), and
run. The test ruleset is tests/data/duel; its scenarios (tests/scenarios/duel) cite every rule id
of its RULES.md; tests/test_properties_duel.py plays it at random."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.errors import CardrulesError, RuntimeRuleError
from interpreter.lang import ast
from interpreter.lang.explain import statement
from interpreter.lang.parser import parse_block
from interpreter.lang.printer import to_source
from interpreter.presentation.cards import card_display
from interpreter.rules.yamlload import load_yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "duel"
RULESET = DATA / "duel.yaml"
SCENARIOS = ROOT / "tests" / "scenarios" / "duel"


def stmt(text: str) -> ast.Stmt:
    (only,) = parse_block(text)
    return only


def test_every_rule_id_is_cited_by_a_scenario():
    ids = re.findall(r"^- (D-\d+\.\d+) ", (DATA / "RULES.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert ids == ["D-1.1", "D-1.2", "D-1.3", "D-2.1", "D-2.2", "D-3.1", "D-3.2", "D-3.3", "D-3.4", "D-3.5",
                   "D-3.6", "D-3.7"]
    cited = {c for path in SCENARIOS.glob("*.yaml") for c in load_yaml(path)[0].get("cites") or []}
    assert [i for i in ids if i not in cited] == []


# ----------------------------------------------------------------- the language
@pytest.mark.parametrize("text, node", [
    ("silence c", ast.Silence(ast.Name("c"), None)),
    ("silence c until turn_end", ast.Silence(ast.Name("c"), "turn_end")),
    ("remove effects from c", ast.RemoveEffects(None, ast.Name("c"))),
    ("remove effects of self", ast.RemoveEffects(ast.Name("self"), None)),
    ("remove effects of self from c", ast.RemoveEffects(ast.Name("self"), ast.Name("c"))),
    ("modify c.attack by 2 until removed",
     ast.ModifyUntil(ast.Attribute(ast.Name("c"), "attack"), "by", ast.IntLit(2), "")),
    ("modify c.attack by 2 until self leaves",
     ast.ModifyUntil(ast.Attribute(ast.Name("c"), "attack"), "by", ast.IntLit(2), "", leaves=ast.Name("self"))),
    ("grant taunt to c until s leaves", ast.GrantUntil("taunt", (), ast.Name("c"), "", leaves=ast.Name("s"))),
    ("modify c.attack by 2 until turn_end",
     ast.ModifyUntil(ast.Attribute(ast.Name("c"), "attack"), "by", ast.IntLit(2), "turn_end")),
])
def test_the_statements_parse_and_print_back(text, node):
    parsed = stmt(text)
    assert parsed == node
    assert to_source(parsed) == text
    assert stmt(to_source(parsed)) == parsed


def test_the_words_inside_the_statements_stay_names_elsewhere():
    assert stmt("let removed = c.effects + leaves") == stmt("let removed = c.effects + leaves")
    with pytest.raises(CardrulesError, match="'silence' is a keyword of the language"):
        parse_block("let silence = 1")


def test_explain_reads_them():
    assert statement(stmt("silence c until turn_start")) == [
        "silences `c`: it loses its printed keywords and abilities, and the effects on it end, until it leaves "
        "its zone (until the event `turn_start`)"]
    assert statement(stmt("modify c.attack by 2 until self leaves")) == [
        "changes the attack of `c` by 2 while this card stays in its zone"]
    assert statement(stmt("grant taunt to c until removed")) == ["gives `c` the keyword `taunt` until removed"]
    assert statement(stmt("remove effects of self from c")) == ["ends the effects that this card gave on `c`"]


# ----------------------------------------------------------------- checked at load
def broken(tmp_path: Path, old: str, new: str, file: str = "duel.cards") -> Path:
    folder = tmp_path / "duel"
    shutil.copytree(DATA, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder / "duel.yaml"


def load_error(path: Path) -> str:
    with pytest.raises(CardrulesError) as info:
        load(path)
    return str(info.value)


def line_of(fragment: str, file: str = "duel.cards") -> int:
    """The number of the first line holding `fragment` (a whole line when it ends in a newline)."""
    lines = (DATA / file).read_text(encoding="utf-8").splitlines()
    if fragment.endswith("\n"):
        return next(i for i, line in enumerate(lines, start=1) if line == fragment[:-1])
    return next(i for i, line in enumerate(lines, start=1) if fragment in line)


HUSH = "      silence t\n"  # (Hush's statement, a line of its own in duel.cards)


def test_silence_of_a_player_is_a_located_error(tmp_path):
    message = load_error(broken(tmp_path, HUSH, "      silence game.active\n"))
    line = line_of(HUSH)
    assert f"duel.cards:{line}:" in message
    assert "'silence' takes away what cards print: this is a player, not a card" in message
    assert "a player has no printed abilities to lose" in message


def test_silence_of_a_list_of_players_is_a_located_error(tmp_path):
    message = load_error(broken(tmp_path, HUSH, "      silence players\n"))
    assert "this is a list of players, not of cards" in message


def test_silence_until_an_unknown_event_has_a_did_you_mean(tmp_path):
    message = load_error(broken(tmp_path, "silence t until turn_start", "silence t until turn_strat"))
    assert f"duel.cards:{line_of('silence t until turn_start')}:" in message
    assert "no event 'turn_strat' is ever emitted (did you mean 'turn_start'?)" in message


def test_a_silence_of_an_unknown_name_has_a_did_you_mean(tmp_path):
    message = load_error(broken(tmp_path, HUSH, "      silence tt\n"))
    column = HUSH.index("t\n") + 1
    assert f"duel.cards:{line_of(HUSH)}:{column}: validation error: unknown name 'tt' (did you mean 't'?)" in message


def test_until_a_player_leaves_is_a_located_error(tmp_path):
    message = load_error(broken(tmp_path, "modify t.attack by 2 until self leaves",
                                "modify t.attack by 2 until p leaves"))
    assert "unknown name 'p'" in message
    path = broken(tmp_path / "b", "modify t.attack by 2 until self leaves",
                  "modify t.attack by 2 until you leaves")
    message = load_error(path)
    assert "'until ... leaves' follows one card: this is a player, not a card" in message
    assert "until self leaves" in message  # (the hint)


def test_until_a_card_without_leaves_says_how_to_write_it(tmp_path):
    message = load_error(broken(tmp_path, "modify t.attack by 2 until self leaves", "modify t.attack by 2 until t"))
    assert f"duel.cards:{line_of('modify t.attack by 2 until self leaves')}:" in message
    assert "'until t': 't' is a name, not an event" in message
    assert "write `until t leaves`" in message


def test_remove_effects_needs_a_source_or_cards(tmp_path):
    message = load_error(broken(tmp_path, "remove effects of auras(game.active)", "remove effects"))
    assert f"duel.cards:{line_of('remove effects of auras(game.active)')}:" in message
    assert "'remove effects' says whose effects end (of SOURCE), on what (from CARDS), or both" in message


def test_remove_effects_of_a_number_is_a_located_error(tmp_path):
    message = load_error(broken(tmp_path, "remove effects of auras(game.active)", "remove effects of 3"))
    assert "'remove effects of' names the card that gave them: this is a number, not a card" in message


# ----------------------------------------------------------------- run
def game_with(tmp_path: Path, code: str, board: tuple[str, ...] = ("Guardian", "Footman")):
    """A duel with a scenario-like position: P1's board holds `board`, and a spell "Test" whose
    play part is `code` (with `a`, `b`: the first two minions of P1's board) is run at once."""
    folder = tmp_path / "duel"
    shutil.copytree(DATA, folder)
    with open(folder / "duel.cards", "a", encoding="utf-8") as f:
        f.write('\ncard "Test" : spell { part play { let a = first(board(game.active)) '
                'let b = board(game.active)[2] ' + code + " } }\n")
    rules = load(folder / "duel.yaml")
    game = rules.new_game(seed=1)
    game.state.frames, game.state.pending, game.state.halted = [], None, False  # (no turn running: the test runs one part)
    for card in list(game.state.cards.values()):
        game.state.delete(card)
    p1 = game.players[0]
    for name in board:
        game.state.new_card(rules.card_defs[name], ("board", 1, ""), p1)
    test = game.state.new_card(rules.card_defs["Test"], ("hand", 1, ""), p1)
    return rules, game, test


def run_part(game, card) -> None:
    game.state.run_part(card, "play")
    game.state._run()


def test_a_grant_after_a_silence_applies_and_ends_with_the_card_leaving(tmp_path):
    _rules, game, test = game_with(tmp_path, "silence a grant taunt to b until a leaves "
                                   "grant taunt to a until removed")
    run_part(game, test)
    a, b = game.state.zones[("board", 1, "")]
    assert game.state.is_silenced(a) and game.state.has_keyword(a, "taunt")  # (granted after the silence)
    assert game.state.has_keyword(b, "taunt")
    game.state.move(a, ("hand", 1, ""), None)
    assert not game.state.is_silenced(a) and not game.state.has_keyword(b, "taunt")  # the grant tied to a ended
    assert game.state.has_keyword(a, "taunt")  # printed again; the grant until removed stays
    assert [g[1] for g in game.state.temp_grants] == ["taunt"]


def test_remove_effects_of_a_source_from_a_card_ends_those_alone(tmp_path):
    _rules, game, test = game_with(tmp_path, "modify a.attack by 1 until removed modify b.attack by 1 until removed "
                                   "remove effects of self from a")
    game.state.new_card(game.rules.card_defs["Footman"], ("board", 1, ""), game.players[0])
    run_part(game, test)
    a, b, _c = game.state.zones[("board", 1, "")]
    assert (game.read(a, "attack"), game.read(b, "attack")) == (1, 2)
    game.state.remove_effects(None, b, False, True)
    assert game.read(b, "attack") == 1 and game.state.temp_mods == []


def test_an_effect_tied_to_a_card_out_of_the_game_is_not_made(tmp_path):
    _rules, game, test = game_with(tmp_path, "delete a modify b.attack by 3 until a leaves")
    run_part(game, test)
    (b,) = game.state.zones[("board", 1, "")]
    assert game.read(b, "attack") == 1 and game.state.temp_mods == []


def test_a_silence_of_a_player_the_code_does_not_show_stops_with_a_rule_error(tmp_path):
    _rules, game, test = game_with(tmp_path, "silence first([game.active])")
    with pytest.raises(RuntimeRuleError, match="'silence' takes cards: P1 is not a card"):
        run_part(game, test)


def test_the_observation_shows_silenced_only_on_a_silenced_card(tmp_path):
    _rules, game, test = game_with(tmp_path, "silence a")
    run_part(game, test)
    board = game.observation(2)["zones"]["P1"]["board"]
    assert [c.get("silenced") for c in board] == [True, None]
    # the terminal and the browser table show it with the card's attributes
    assert card_display(board[0], game.rules, "board") == {"attack": 1, "health": 4, "silenced": True}
    assert card_display(board[1], game.rules, "board") == {"attack": 1, "health": 2}


def test_silencing_again_keeps_the_longer_silence(tmp_path):
    _rules, game, test = game_with(tmp_path, "silence a until turn_start silence a silence b silence b until turn_start")
    run_part(game, test)
    a, b = game.state.zones[("board", 1, "")]
    game.state.emit("turn_start", {"turn": 1, "player": game.players[0]})
    assert game.state.is_silenced(a) and game.state.is_silenced(b)  # (both also silenced without an end)
    _rules, game, test = game_with(tmp_path / "2", "silence a until turn_start")
    run_part(game, test)
    a, _b = game.state.zones[("board", 1, "")]
    assert game.state.is_silenced(a) and not game.state.has_keyword(a, "taunt")
    game.state.emit("turn_start", {"turn": 1, "player": game.players[0]})
    assert not game.state.is_silenced(a) and game.state.has_keyword(a, "taunt")


def test_a_silence_ends_the_grants_on_the_card_and_keeps_those_on_others(tmp_path):
    _rules, game, test = game_with(tmp_path, "grant taunt to b until removed grant taunt to a until turn_start "
                                   "silence b")
    run_part(game, test)
    a, b = game.state.zones[("board", 1, "")]
    assert not game.state.has_keyword(b, "taunt") and [(g[0], g[1]) for g in game.state.temp_grants] == [(a, "taunt")]
