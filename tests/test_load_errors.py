"""Every kind of bad input a designer can write gets a clear, located error and nothing loads.

Each test copies the shipped Initiative ruleset to a temporary folder, breaks one thing, and
checks the error's kind, file, line and wording (did-you-mean hints included).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import GameStateError, IllegalDecisionError, load
from interpreter.errors import CardrulesError, DeckError, ErrorList, RulesError, ValidationError

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def game_copy(tmp_path: Path) -> Path:
    """A writable copy of rulesets/initiative and cards/initiative with the same relative layout."""
    shutil.copytree(ROOT / "rulesets" / "initiative", tmp_path / "rulesets" / "initiative")
    shutil.copytree(ROOT / "cards" / "initiative", tmp_path / "cards" / "initiative")
    shutil.copytree(ROOT / "rulesets" / "schema", tmp_path / "rulesets" / "schema")
    return tmp_path


def ruleset_file(root: Path) -> Path:
    return root / "rulesets" / "initiative" / "initiative.yaml"


def edit(path: Path, old: str, new: str) -> int:
    """Replace old by new (once); return the 1-based line where the change is."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    index = text.index(old)
    path.write_text(text.replace(old, new, 1))
    return text[:index].count("\n") + 1


def errors_of(exc: CardrulesError) -> list[CardrulesError]:
    return exc.errors if isinstance(exc, ErrorList) else [exc]


def load_error(root: Path, **options) -> CardrulesError:
    with pytest.raises(CardrulesError) as info:
        load(ruleset_file(root), options=options or None)
    return info.value


def test_unknown_procedure_in_a_card_has_did_you_mean(game_copy):
    cards = game_copy / "cards" / "initiative" / "cards.cards"
    line = edit(cards, "heal(choose", "heel(choose")
    err = errors_of(load_error(game_copy))[0]
    assert isinstance(err, ValidationError)
    assert err.span.file.endswith("cards.cards") and err.span.line == line
    assert "unknown procedure, function or zone 'heel'" in str(err)
    assert "did you mean 'heal'" in str(err)
    assert "^" in str(err)  # the source line with a caret


def test_unknown_zone_in_a_move(game_copy):
    rules_file = game_copy / "rulesets" / "initiative" / "initiative.rules"
    line = edit(rules_file, "move c to discard(c.owner)", "move c to discards(c.owner)")
    err = errors_of(load_error(game_copy))[0]
    assert err.span.line == line
    assert "expected a zone" in str(err) and "did you mean 'discard'" in str(err)


def test_unknown_attribute_and_card_name(game_copy):
    cards = game_copy / "cards" / "initiative" / "cards.cards"
    edit(cards, 'c.name == "Monster"', 'c.name == "Monster" and c.atack > 0')
    edit(cards, 'summon(you, "Soldier", 2, 4)', 'create "Soldjer" in field(you)')
    errs = errors_of(load_error(game_copy))
    text = "\n".join(str(e) for e in errs)
    assert "unknown attribute 'atack'" in text and "did you mean 'attack'" in text
    assert "no card named 'Soldjer'" in text and "did you mean 'Soldier'" in text
    assert len(errs) >= 2  # every error of a load is reported, not only the first


def test_unknown_keyword_and_card_type(game_copy):
    cards = game_copy / "cards" / "initiative" / "cards.cards"
    edit(cards, 'card "Stab" : action {', 'card "Stab" : acton {')
    edit(cards, 'card "Bandage" : action {\n  initiative = 80', 'card "Bandage" : action {\n  keyword flying\n  initiative = 80')
    text = "\n".join(str(e) for e in errors_of(load_error(game_copy)))
    assert "unknown type 'acton'" in text and "did you mean 'action'" in text
    assert "unknown keyword 'flying'" in text


def test_wrong_attribute_value_type_and_missing_attribute(game_copy):
    cards = game_copy / "cards" / "initiative" / "cards.cards"
    edit(cards, "initiative = 90", 'initiative = "fast"')
    edit(cards, "  initiative = 80\n", "")
    text = "\n".join(str(e) for e in errors_of(load_error(game_copy)))
    assert "attribute 'initiative' of 'Stab' must be a constant of type int" in text
    assert "card 'Bandage' needs attribute 'initiative'" in text


def test_card_syntax_error_is_located_with_expectation(game_copy):
    cards = game_copy / "cards" / "initiative" / "cards.cards"
    line = edit(cards, "  copies = 10\n", "  copies = = 10\n")
    err = errors_of(load_error(game_copy))[0]
    assert err.phase == "syntax"
    assert err.span.line == line and err.span.file.endswith("cards.cards")
    assert "expected" in str(err)


def test_wrong_arity_and_choose_in_a_function(game_copy):
    rules_file = game_copy / "rulesets" / "initiative" / "initiative.rules"
    edit(rules_file, "draw_cards(p, 5)\n  }", "draw_cards(p)\n  }")
    edit(rules_file, "function opponent(p) = first(others(p))", "function opponent(p) = choose from others(p)")
    text = "\n".join(str(e) for e in errors_of(load_error(game_copy)))
    assert "procedure 'draw_cards' is missing n" in text
    assert "'choose' is not allowed here" in text


def test_yaml_unknown_key_names_line_and_path(game_copy):
    line = edit(ruleset_file(game_copy), "  hand: {per: player, visibility: owner}",
                "  hand: {per: player, visibilty: owner}")
    err = errors_of(load_error(game_copy))[0]
    assert isinstance(err, RulesError)
    assert err.span.line == line
    assert "zones.hand" in str(err) and "visibilty" in str(err)


def test_yaml_syntax_error_is_located(game_copy):
    line = edit(ruleset_file(game_copy), "players: 2", "players: [2")
    err = errors_of(load_error(game_copy))[0]
    assert err.span is not None and err.span.line >= line


def test_code_in_yaml_is_located_in_the_yaml_file(game_copy):
    line = edit(ruleset_file(game_copy), "do: select_cards()", "do: select_crads()")
    err = errors_of(load_error(game_copy))[0]
    assert err.span.file.endswith("initiative.yaml") and err.span.line == line
    assert "did you mean 'select_cards'" in str(err)
    source_line = ruleset_file(game_copy).read_text().splitlines()[line - 1]
    assert source_line[err.span.column - 1:].startswith("select_crads")


def test_empty_and_binary_card_files(game_copy):
    (game_copy / "cards" / "initiative" / "empty.cards").write_text("")
    load(ruleset_file(game_copy))  # an empty card file defines nothing, and is fine
    (game_copy / "cards" / "initiative" / "blob.cards").write_bytes(b"\x00\x01\x02card")
    text = str(load_error(game_copy))
    assert "blob.cards" in text and "binary" in text


def test_missing_code_file(game_copy):
    edit(ruleset_file(game_copy), "code: [initiative.rules]", "code: [initiative.rulez]")
    text = str(load_error(game_copy))
    assert "initiative.rulez" in text and "no such file" in text


def test_option_errors():
    with pytest.raises(RulesError, match="has no option 'round_limt'.*did you mean 'round_limit'"):
        load("initiative", options={"round_limt": 5})
    with pytest.raises(RulesError, match="round_limit takes a whole number"):
        load("initiative", options={"round_limit": "many"})
    with pytest.raises(RulesError, match="at least 1"):
        load("initiative", options={"round_limit": 0})
    assert load("initiative", options={"round_limit": "7"}).options["round_limit"] == 7


def test_unknown_game_has_did_you_mean():
    with pytest.raises(RulesError, match="did you mean 'initiative'"):
        load("initiatve")


def test_deck_errors_name_the_card():
    rules = load("initiative")
    with pytest.raises(DeckError, match="at most 2"):
        rules.deck({"Sneak Attack": 3, "Stab": 10, "Bandage": 6, "Summon Monster": 4, "Summoning Circle": 4,
                    "Muster Army": 4, "Volley Of Arrows": 4, "Bless": 4, "Curse": 1})
    with pytest.raises(DeckError, match="exactly 40"):
        rules.deck({"Stab": 10})
    with pytest.raises(DeckError, match="no card named 'Stabb'.*did you mean 'Stab'"):
        rules.deck({"Stabb": 10})
    with pytest.raises(DeckError, match="'Monster'"):
        rules.deck({"Monster": 1})  # tokens are never in a deck
    with pytest.raises(DeckError, match="needs 2 decks"):
        rules.new_game(seed=1, decks=[rules.default_decks()[0]])


def test_deck_file_error_is_located(tmp_path):
    rules = load("initiative")
    deck = tmp_path / "bad.yaml"
    deck.write_text("name: Bad\ncards:\n  Stab: 10\n  Bandage: 7\n  Bless: 4\n")
    with pytest.raises(DeckError) as info:
        rules.deck(deck)
    assert "7 copies of 'Bandage'" in str(info.value) and "at most 6" in str(info.value)
    assert info.value.span is not None and info.value.span.line == 4


def test_a_token_in_a_deck_is_refused_as_a_token_at_its_entry(tmp_path):
    rules = load("initiative")
    deck = tmp_path / "tokens.yaml"
    deck.write_text("name: Tokens\ncards:\n  Stab: 10\n  Soldier: 2\n")
    with pytest.raises(DeckError) as info:
        rules.deck(deck)
    err = info.value
    assert err.message == (f"deck 'Tokens' ({deck}): 'Soldier' is a token (card type 'creature' has token: true): "
                           "tokens are made by the rules during a game and cannot be in a deck")
    assert err.hint == "remove 'Soldier' from the deck"
    assert (Path(err.span.file).name, err.span.line, err.span.column) == ("tokens.yaml", 4, 3)
    with pytest.raises(DeckError) as info:  # (no token among the names a deck could mean)
        rules.deck({"Soldeir": 1})
    assert info.value.message == "deck 'deck' (<deck>): no card named 'Soldeir'"


def test_illegal_decision_names_it_and_changes_nothing():
    game = load("initiative").new_game(seed=1)
    before = game.to_json()
    with pytest.raises(IllegalDecisionError, match="not a legal option for P1's decision 'two cards to play'"):
        game.apply("no-such-option")
    with pytest.raises(IllegalDecisionError, match="out of range"):
        game.apply(99)
    assert game.to_json() == before
    game.apply(0)
    assert game.decision()[0] == 2


def test_a_wrong_answer_is_a_value_error_and_a_call_out_of_turn_a_state_error():
    """As python-chess separates a wrong move from a wrong call: an answer that is not an option
    is a ValueError (IllegalDecisionError), asking a game for what its state cannot give is a
    RuntimeError (GameStateError); neither is the other, both are CardrulesErrors."""
    game = load("initiative", options={"round_limit": 1}).new_game(seed=2)
    with pytest.raises(ValueError) as wrong:
        game.apply(999)
    assert type(wrong.value) is IllegalDecisionError and not isinstance(wrong.value, RuntimeError)
    while not game.is_over:
        game.apply(0)
    with pytest.raises(RuntimeError) as late:
        game.apply(0)
    assert type(late.value) is GameStateError and not isinstance(late.value, ValueError)
    assert str(late.value).startswith("game error: ")


def test_no_decision_after_the_end():
    game = load("initiative", options={"round_limit": 1}).new_game(seed=2)
    while not game.is_over:
        game.apply(0)
    with pytest.raises(GameStateError, match="the game is over"):
        game.apply(0)
    with pytest.raises(GameStateError, match="the game is over"):
        game.decision()


def test_a_prompt_may_only_show_names_in_scope(game_copy):
    cards = game_copy / "cards" / "initiative" / "cards.cards"
    line = edit(cards, 'damage(choose "one target" from', 'damage(choose "one target for {targt}" from')
    err = errors_of(load_error(game_copy))[0]
    assert err.span.line == line
    assert "shows {targt}, but 'targt' has no value here" in str(err)
