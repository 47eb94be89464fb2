"""Card sets made by rule (issue 22, item 3): `cards for ...` templates make cards that are
checked at load exactly as written ones, with errors at the template that name the card, the
template and the values."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.errors import CardrulesError, ErrorList
from interpreter.lang.parser import parse
from interpreter.lang.printer import to_source

DECK52 = Path(__file__).resolve().parent / "data" / "deck52"
TEMPLATE_LINE = ('cards for suit in ["S", "H", "D", "C"], rank in range(2, 15): "{rank_name(rank)}{suit}" : '
                 'playing_card { suit = suit  rank = rank }')


def deck_with(tmp_path: Path, cards_text: str, rules_extra: str = "") -> Path:
    """The deck52 ruleset with its card file replaced (and rule code added)."""
    for f in DECK52.iterdir():
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "deck52.cards").write_text(cards_text, encoding="utf-8")
    if rules_extra:
        with (tmp_path / "deck52.rules").open("a", encoding="utf-8") as rules:
            rules.write("\n" + rules_extra + "\n")
    return tmp_path / "deck52.yaml"


def errors_of(path: Path) -> list[CardrulesError]:
    with pytest.raises(CardrulesError) as caught:
        load(path)
    err = caught.value
    return list(err.errors) if isinstance(err, ErrorList) else [err]


def test_one_template_line_makes_the_52_cards_in_order():
    assert (DECK52 / "deck52.cards").read_text(encoding="utf-8").count("\ncards for") == 1
    rules = load(DECK52 / "deck52.yaml")
    names = list(rules.card_defs)
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert names == [r + s for s in "SHDC" for r in ranks]
    queen = rules.card_defs["QH"]
    assert (queen.type, queen.attrs) == ("playing_card", {"suit": "H", "rank": 12})
    game = rules.new_game(seed=5)
    assert sorted(c.defn.name for c in game.state.cards.values()) == sorted(names)  # dealt from card_names()


def test_a_made_card_prints_as_a_written_card():
    rules = load(DECK52 / "deck52.yaml")
    made = rules.card_defs["10D"].source
    assert to_source(made) == 'card "10D" : playing_card { suit = "D" rank = 10 }'  # (a short card: one line)
    assert made.made_by.values == (("suit", "D"), ("rank", 10))


def test_cards_command_shows_a_made_card(capsys):
    assert main(["cards", str(DECK52 / "deck52.yaml"), "AS"]) == 0
    out = capsys.readouterr().out
    assert 'made by the template "{rank_name(rank)}{suit}"' in out and 'suit = "S", rank = 14' in out
    assert "cards for suit in" in out  # its source: the template
    assert 'card "AS" : playing_card' in out and "rank = 14" in out  # its canonical form


@pytest.mark.parametrize("columns", ["80", "40"])
def test_cards_command_prints_the_same_from_any_folder_at_any_width(tmp_path, monkeypatch, capsys, columns):
    """Issue 29.22: the template's place is relative to the working folder, and no line is broken
    or cut by the terminal's width, however long the folder's path is."""
    deep = tmp_path / ("x" * 120) / ("y" * 100) / "deck52"
    shutil.copytree(DECK52, deep)
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.chdir(tmp_path)
    assert main(["cards", str(deep / "deck52.yaml"), "AS"]) == 0
    lines = capsys.readouterr().out.splitlines()
    where = f"{'x' * 120}/{'y' * 100}/deck52/deck52.cards"
    assert f"defined at {where}:2" in lines
    assert f'made by the template "{{rank_name(rank)}}{{suit}}" at {where}:2:1 with suit = "S", rank = 14' in lines
    template = (DECK52 / "deck52.cards").read_text(encoding="utf-8").splitlines()[1:5]  # (the file's, as written)
    assert template[0].startswith("cards for suit in") and template[-1] == "}"
    assert template[0] in lines
    start = lines.index(template[0])
    assert lines[start:start + len(template)] == template  # its source, whole
    assert main(["cards", str(deep / "deck52.yaml")]) == 0
    table = capsys.readouterr().out
    assert "…" not in table and "..." not in table  # (a narrow column wraps its text, never cuts it)
    assert "│ AS " in table and "│ 10S" in table


def test_templates_print_back_to_the_same_tree():
    module = parse(TEMPLATE_LINE + '\ncards for n in [1, 2]: "x{{{n}}}" : playing_card { rank = n + 1 suit = "S" }')
    assert parse(to_source(module)) == module
    pieces = module.items[1].pieces
    assert (pieces[0], pieces[1].id, pieces[2]) == ("x{", "n", "}")


def test_a_value_outside_an_enumeration_is_an_error_at_the_template(tmp_path):
    path = deck_with(tmp_path, TEMPLATE_LINE.replace('"C"]', '"X"]'))
    errors = errors_of(path)
    (err,) = [e for e in errors if "one of S, H, D, C" in e.message]
    assert err.message.startswith("attribute 'suit' of '2X' is 'X'")
    assert err.span.file.endswith("deck52.cards") and err.span.line == 1
    assert "12 more card(s) of the template" in err.hint  # 2X ... AX: reported once


def test_values_past_a_maximum_are_folded_into_one_error(tmp_path):
    path = deck_with(tmp_path, TEMPLATE_LINE.replace("range(2, 15)", "range(13, 17)"))
    errors = errors_of(path)
    limits = [e for e in errors if "at most 14" in e.message]
    # one error per wrong value (15, 16), each for the four suits
    assert [e.message[:31] for e in limits] == ["attribute 'rank' of '15S' is 15", "attribute 'rank' of '16S' is 16"]
    assert all("3 more card(s)" in e.hint for e in limits)


def test_a_name_made_twice_names_the_template_and_the_values(tmp_path):
    path = deck_with(tmp_path, 'card "AS" : playing_card { suit = "S" rank = 14 }\n' + TEMPLATE_LINE)
    (err,) = [e for e in errors_of(path) if "defined twice" in e.message]
    assert err.message.startswith("'AS' (made by the template \"{rank_name(rank)}{suit}\" at ")
    assert 'with suit = "S", rank = 14) is defined twice (first at ' in err.message
    assert err.span.line == 2


def test_two_values_that_make_one_name(tmp_path):
    path = deck_with(tmp_path, 'cards for n in [1, 2, 1]: "Card {n}" : playing_card { suit = "S" rank = n + 2 }')
    (err,) = [e for e in errors_of(path) if "defined twice" in e.message]
    assert "with n = 1) is defined twice (first at " in err.message and ", by the template" in err.message


@pytest.mark.parametrize("cards, message, column", [
    ('cards for n in [1]: "{m}" : playing_card { suit = "S" rank = 2 }', "unknown name 'm' in a card template", 23),
    ('cards for n in hand(players[1]): "x{n}" : playing_card { suit = "S" rank = 2 }',
     "unknown function 'hand' in a card template", 16),
    ('cards for n in [2]: "x{n}" : playing_card { suit = "S" rank = game.drawn }',
     "has no value in a card template", 63),
    ('cards for n in 3: "x{n}" : playing_card { suit = "S" rank = 2 }', "needs a list of values", 16),
    ('cards for n in range(1, 200), m in range(1, 200): "x{n} {m}" : playing_card { suit = "S" rank = 2 }',
     "would make 39,601 cards; at most 10,000", 1),
])
def test_template_mistakes_are_located(tmp_path, cards, message, column):
    errors = errors_of(deck_with(tmp_path, cards))
    (err,) = [e for e in errors if message in e.message]
    assert (err.span.line, err.span.column) == (1, column), err


def test_a_misspelt_loop_name_says_which_exist(tmp_path):
    errors = errors_of(deck_with(tmp_path, 'cards for rank in [2]: "{rnak}" : playing_card { suit = "S" rank = rank }'))
    assert any("did you mean 'rank'" in e.message for e in errors)


def test_loop_values_reach_the_abilities_of_each_card(tmp_path):
    cards = (TEMPLATE_LINE + '\ncards for n in [3, 4]: "Bonus {n}" : playing_card {\n  suit = "S"\n  rank = n\n'
             '  part play { game.drawn += n * 100 }\n}\n')
    rules = load(deck_with(tmp_path, cards, "procedure play_bonus(c) { run(c, \"play\") }"))
    game = rules.new_game(seed=1)
    before = game.state.globals["drawn"]
    bonus = next(c for c in game.state.cards.values() if c.defn.name == "Bonus 4")
    game.perform("play_bonus", controller=1, c=bonus)
    assert game.state.globals["drawn"] == before + 400


def test_a_loop_name_bound_again_in_a_part_is_refused(tmp_path):
    cards = 'cards for n in [3]: "B{n}" : playing_card { suit = "S" rank = n  part play { let n = 2 } }'
    (err,) = [e for e in errors_of(deck_with(tmp_path, cards)) if "loop name of the template" in e.message]
    assert err.span.line == 1
