"""Every declared limit holds at load, and every error is located.

Each test copies a shipped ruleset to a temporary folder, breaks one thing and checks that loading
(or `Rules.deck`, or `cardrules validate`) fails with the project's own error, at `file:line:col`
of the offending text, with a did-you-mean where a name is close; and that nothing half-loads.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fileedits import edit

from interpreter import load, paths
from interpreter.cli.main import main
from interpreter.errors import CardrulesError, DeckError, ErrorList, RulesError, ValidationError

ROOT = Path(__file__).resolve().parents[1]
HUGE = "9223372036854775808"  # 2**63: no list of that many names can be built


def copy_game(tmp_path: Path, game: str) -> Path:
    """A writable copy of rulesets/<game> and cards/<game>, laid out as in the checkout; its ruleset file."""
    shutil.copytree(ROOT / "rulesets" / game, tmp_path / "rulesets" / game)
    shutil.copytree(ROOT / "cards" / game, tmp_path / "cards" / game)
    return tmp_path / "rulesets" / game / f"{game}.yaml"


def errors_of(err: CardrulesError) -> list[CardrulesError]:
    return err.errors if isinstance(err, ErrorList) else [err]


def load_errors(ruleset: Path, **options) -> list[CardrulesError]:
    with pytest.raises(CardrulesError) as info:
        load(ruleset, options=options or None)
    return errors_of(info.value)


def at(err: CardrulesError, file: Path, line: int, column: int) -> bool:
    """Whether the error is located at file:line:col."""
    span = err.span
    return (span is not None and Path(span.file).resolve() == file.resolve()
            and (span.line, span.column) == (line, column))


def validate(capsys, *argv: str) -> tuple[int, str]:
    code = main(["validate", *argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture(scope="module")
def bases():
    return load("bases")


# ---------------------------------------------------------------- 1. deck counts before anything is built
@pytest.mark.parametrize("entry", ['"Emberforge Citadel": 1', '"Cinderscale Raider": 3'])  # bases:, cards:
@pytest.mark.parametrize("count", [HUGE, "1000000000000"])
def test_a_huge_count_in_a_deck_file_is_a_located_deck_error(tmp_path, bases, entry, count):
    deck = tmp_path / "huge.yaml"
    shutil.copy(ROOT / "rulesets" / "bases" / "decks" / "conflict-red-blue.yaml", deck)
    card = entry.rpartition(": ")[0]
    line, column = edit(deck, entry, f"{card}: {count}")
    with pytest.raises(DeckError) as info:
        bases.deck(deck)
    assert at(info.value, deck, line, column + len(card) + 2)
    assert count in str(info.value) and card in str(info.value)


def test_huge_counts_without_a_copy_limit():
    toy = load(ROOT / "tests" / "data" / "toy" / "toy.yaml")
    sites = {"Red Keepsake": 1, "Blue Outpost": 1, "Green Outpost": 1}
    with pytest.raises(DeckError, match="Plain"):
        toy.deck({"cards": {"Plain": 2**63}, "sites": sites})
    with pytest.raises(DeckError, match="Plain"):
        toy.deck({"cards": {"Plain": 10**7}, "sites": sites})  # (a list of ten million names: no)
    with pytest.raises(DeckError, match="Red Keepsake"):
        toy.deck({"cards": {"Plain": 3}, "sites": {**sites, "Red Keepsake": 2**63}})
    with pytest.raises(DeckError, match="whole number"):
        toy.deck({"cards": {"Plain": 3}, "sites": {**sites, "Blue Outpost": 0}})
    with pytest.raises(DeckError, match="whole number"):
        toy.deck({"cards": {"Plain": 3}, "sites": {**sites, "Blue Outpost": "two"}})
    assert len(toy.deck({"cards": {"Plain": 3}, "sites": sites}).cards) == 3


def test_max_copies_holds_in_every_part_of_a_deck(tmp_path, bases):
    deck = tmp_path / "twice.yaml"
    shutil.copy(ROOT / "rulesets" / "bases" / "decks" / "conflict-red-blue.yaml", deck)
    edit(deck, '  "Ashfall Barracks": 1\n', "")
    line, column = edit(deck, '"Cinder Watchtower": 1', '"Cinder Watchtower": 2')
    with pytest.raises(DeckError, match="2 copies of 'Cinder Watchtower', but at most 1") as info:
        bases.deck(deck)
    assert at(info.value, deck, line, column + len('"Cinder Watchtower": '))


# ---------------------------------------------------------------- 2. card-type labels
@pytest.mark.parametrize("label, words", [
    ('"{name"', ["brace"]),
    ('"{name} {offense}/{lfe}"', ["lfe", "did you mean 'life'"]),
    ('"{name} {resistance}"', ["resistance", "ally"]),  # an attribute of bases, not of allies
    ('"{name} {0}"', ["{0}"]),
    ('"{name} {}"', ["{}"]),
    ('"{name.upper} {offense}"', ["name.upper"]),
    ('"{name} {colours:>3}"', ["colours"]),
])
def test_a_bad_label_is_a_located_load_error(tmp_path, label, words):
    ruleset = copy_game(tmp_path, "bases")
    line, column = edit(ruleset, '"{name} {offense}/{life}"', label)
    errors = load_errors(ruleset)
    assert len(errors) == 1 and isinstance(errors[0], RulesError), errors
    assert at(errors[0], ruleset, line, column)
    for word in words:
        assert word in str(errors[0])


def test_a_label_with_a_format_spec_still_works(tmp_path):
    ruleset = copy_game(tmp_path, "bases")
    edit(ruleset, '"{name} {offense}/{life}"', '"{name!s} {offense:>2}/{life}"')
    game = load(ruleset).empty_game(seed=1)
    card = next(c for c in game.state.zone_cards_all("deck") if c.defn.type == "ally")
    assert re.fullmatch(r".+ [ \d]\d/\d+", game.state.label(card)), game.state.label(card)


# ---------------------------------------------------------------- 3. printed values within the declared limits
def test_a_printed_value_below_min_is_located_in_the_card_file(tmp_path):
    ruleset = copy_game(tmp_path, "bases")
    cards = tmp_path / "cards" / "bases" / "allies.cards"
    line, column = edit(cards, '"Cinderscale Raider" : ally { cost = 1', '"Cinderscale Raider" : ally { cost = -5')
    errors = load_errors(ruleset)
    assert len(errors) == 1 and isinstance(errors[0], ValidationError), errors
    value_column = column + len('"Cinderscale Raider" : ally { cost = ')
    assert at(errors[0], cards, line, value_column)
    assert "-5" in str(errors[0]) and "at least 0" in str(errors[0])


def test_a_printed_value_above_max_is_located_in_the_card_file(tmp_path):
    ruleset = copy_game(tmp_path, "initiative")
    cards = tmp_path / "cards" / "initiative" / "cards.cards"
    line, column = edit(cards, "initiative = 90", "initiative = 101")
    errors = load_errors(ruleset)
    assert len(errors) == 1 and at(errors[0], cards, line, column + len("initiative = "))
    assert "at most 100" in str(errors[0])


def test_a_default_outside_its_limits_is_located_in_the_yaml(tmp_path):
    ruleset = copy_game(tmp_path, "bases")
    line, column = edit(ruleset, "influence: {type: int, default: 0, min: 0}",
                        "influence: {type: int, default: -1, min: 0}")
    errors = load_errors(ruleset)
    assert len(errors) == 1 and isinstance(errors[0], RulesError), errors
    assert at(errors[0], ruleset, line, column + len("influence: {type: int, default: "))
    line, column = edit(ruleset, "influence: {type: int, default: -1, min: 0}",
                        "influence: {type: int, default: 0, min: 5, max: 2}")
    errors = load_errors(ruleset)
    assert len(errors) == 1 and errors[0].span.line == line and "min" in str(errors[0])


# ---------------------------------------------------------------- 4. card names in strings that reach `create`
def test_a_missing_token_named_in_a_string_is_located(tmp_path):
    ruleset = copy_game(tmp_path, "initiative")
    cards = tmp_path / "cards" / "initiative" / "cards.cards"
    line, column = edit(cards, 'summon(you, "Soldier", 2, 4)', 'summon(you, "Soldeir", 2, 4)')
    errors = load_errors(ruleset)
    assert len(errors) == 1 and isinstance(errors[0], ValidationError), errors
    assert at(errors[0], cards, line, column + len("summon(you, "))
    assert "'Soldeir'" in str(errors[0]) and "did you mean 'Soldier'" in str(errors[0])


def test_a_removed_token_is_reported_at_every_string_naming_it(tmp_path):
    ruleset = copy_game(tmp_path, "initiative")
    edit(tmp_path / "cards" / "initiative" / "tokens.cards", 'card "Soldier" : creature {}\n', "")
    errors = load_errors(ruleset)
    assert len(errors) == 3 and all("'Soldier'" in str(e) for e in errors), errors
    assert all(e.span.file.endswith("cards.cards") for e in errors)


def test_a_card_name_through_two_procedures_and_a_named_argument(tmp_path):
    ruleset = copy_game(tmp_path, "initiative")
    rules_file = tmp_path / "rulesets" / "initiative" / "initiative.rules"
    rules_file.write_text(rules_file.read_text() + "\nprocedure muster(p, what) { summon(p, kind: what, "
                          "attack: 1, health: 1) }\n"
                          "procedure shadowed(p, what) { let what = \"Monster\" summon(p, what, 1, 1) }\n")
    cards = tmp_path / "cards" / "initiative" / "cards.cards"
    line, column = edit(cards, 'summon(you, "Soldier", 4, 2)', 'muster(you, "Monstr") shadowed(you, "Not A Card")')
    errors = load_errors(ruleset)
    assert len(errors) == 1, errors
    assert at(errors[0], cards, line, column + len("muster(you, "))
    assert "did you mean 'Monster'" in str(errors[0])


# ---------------------------------------------------------------- 5. default decks, through validate
def test_validate_reports_a_default_deck_naming_a_lost_card(tmp_path, capsys):
    ruleset = copy_game(tmp_path, "bases")
    folder = ruleset.parent
    (folder / "more").mkdir()
    shutil.move(folder / "decks" / "skirmish-red-green.yaml", folder / "more" / "skirmish-red-green.yaml")
    edit(ruleset, "decks/skirmish-red-green.yaml", "more/skirmish-red-green.yaml")
    deck = folder / "more" / "skirmish-red-green.yaml"
    line, column = edit(deck, '"Ember Slinger"', '"Ember Slinger"')
    edit(tmp_path / "cards" / "bases" / "allies.cards", 'card "Ember Slinger"', 'card "Ember Slingers"')
    # (every other deck that holds it is wrong too; this one is read only as the skirmish default)
    code, out = validate(capsys, str(ruleset))
    assert code == 1, out
    assert re.search(rf"^error +.*more/{deck.name}$", out, re.M), out
    assert f"more/{deck.name}:{line}:{column}: deck error" in out
    assert "did you mean 'Ember Slingers'" in out


def test_a_deck_error_about_a_card_is_located_at_its_name(tmp_path):
    rules = load("initiative")
    deck = tmp_path / "bad.yaml"
    deck.write_text("name: Bad\ncards:\n  Stab: 10\n  Stabb: 30\n")
    with pytest.raises(DeckError) as info:
        rules.deck(deck)
    assert at(info.value, deck, 4, 3) and "did you mean 'Stab'" in str(info.value)


# ---------------------------------------------------------------- 6. errors that had no place
def test_a_deck_of_an_unknown_format_is_located(tmp_path, capsys, bases):
    ruleset = copy_game(tmp_path, "bases")
    deck = ruleset.parent / "decks" / "conflict-red-blue.yaml"
    line, column = edit(deck, "format: conflict", "format: conflictt")
    with pytest.raises(DeckError) as info:
        bases.deck(deck)
    assert at(info.value, deck, line, column + len("format: "))
    assert "did you mean 'conflict'" in str(info.value)
    for target in (deck, ruleset):
        code, out = validate(capsys, str(target))
        assert code == 1, out
        assert f"{deck.name}:{line}:{column + len('format: ')}: deck error" in out, out
        assert "decks.formats has no entry" not in out


def test_a_wrong_cards_path_is_located_at_its_entry(tmp_path):
    ruleset = copy_game(tmp_path, "bases")
    line, column = edit(ruleset, "cards: [../../cards/bases]", "cards: [../../cards/basess]")
    errors = load_errors(ruleset)
    assert len(errors) == 1 and isinstance(errors[0], RulesError), errors
    assert at(errors[0], ruleset, line, column + len("cards: ["))
    line, column = edit(ruleset, "code: [bases.rules]", "code: [bases.rulez]")
    errors = load_errors(ruleset)
    assert any(at(e, ruleset, line, column + len("code: [")) for e in errors), errors


def test_a_card_file_not_in_utf8_is_located_at_the_bad_byte(tmp_path, capsys):
    ruleset = copy_game(tmp_path, "initiative")
    cards = tmp_path / "cards" / "initiative" / "tokens.cards"
    cards.write_bytes(cards.read_bytes().replace(b'card "Soldier"', b'card "Sold\xe9ier"'))
    column = len('card "Sold') + 1
    errors = load_errors(ruleset)
    assert len(errors) == 1 and isinstance(errors[0], RulesError), errors
    assert at(errors[0], cards, 3, column)
    code, out = validate(capsys, str(cards))
    assert code == 1 and f"{cards.name}:3:{column}:" in out, out


def _paths_in(out: str) -> list[str]:
    """Every file path the output shows: on ok/error lines and before :line:col."""
    found = re.findall(r"^(?:ok|error|skip) +(\S+)", out, re.M)
    found += re.findall(r"(\S+\.(?:yaml|cards|rules)):\d+:\d+:", out)
    found += re.findall(r"\((\S+\.(?:yaml|cards|rules))\)", out)
    return found


@pytest.mark.parametrize("broken", ["card", "deck"])
def test_validate_shows_paths_all_relative_or_all_absolute(tmp_path, capsys, monkeypatch, broken):
    ruleset = copy_game(tmp_path, "initiative")
    if broken == "card":  # an error located in a card file the loader reads by its absolute path
        edit(tmp_path / "cards" / "initiative" / "cards.cards", "heal(choose", "heel(choose")
    else:  # an error naming its deck file, which a default deck entry gives as an absolute path
        edit(ruleset.parent / "decks" / "swarm.yaml", "Stab: 8", "Stab: 11")
    deck = ruleset.parent / "decks" / "tempo.yaml"
    monkeypatch.chdir(tmp_path)
    code, out = validate(capsys, "rulesets/initiative/initiative.yaml", str(deck))
    assert code == 1
    shown = _paths_in(out)
    assert any(re.search(r"(cards\.cards|swarm\.yaml)$", p) for p in shown), out
    assert not [p for p in shown if Path(p).is_absolute()], out
    monkeypatch.chdir(ROOT)  # the copy is outside the current folder: all absolute
    code, out = validate(capsys, str(ruleset), "rulesets/initiative/decks/tempo.yaml")
    assert code == 1
    shown = _paths_in(out)
    assert any(p.endswith("/rulesets/initiative/decks/tempo.yaml") for p in shown), out
    assert all(Path(p).is_absolute() for p in shown), out


def test_a_missing_default_deck_is_located_at_its_entry(tmp_path, capsys):
    ruleset = copy_game(tmp_path, "initiative")
    line, column = edit(ruleset, "decks/swarm.yaml", "decks/swarmm.yaml")
    code, out = validate(capsys, str(ruleset))
    assert code == 1
    assert f"{ruleset.name}:{line}:{column}: rules error: the default deck" in out, out
    assert "swarmm.yaml does not exist" in out


def test_a_wrong_format_option_is_one_error():
    errors = load_errors(paths.ruleset_path("bases"), format="conflictt")
    assert len(errors) == 1 and "did you mean 'conflict'" in str(errors[0]), errors


def test_shipped_data_still_validates(capsys):
    code, out = validate(capsys)
    assert code == 0, out
