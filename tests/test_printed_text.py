"""Printed text (issue 32.9): a card's `text = "..."` is shown by `cardrules cards`, the terminal
(under a move about the card), the browser table (the card's face and tooltip) and `explain`; a card
without text is read from its code, a call of a procedure through its `text "..."` template or by its
parameters' names. Test ruleset: tests/data/subtypes (T-1.1, T-1.2); shipped: Initiative's cards
carry the texts of seed 002's table. Bad input is a located load error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.errors import CardrulesError
from interpreter.presentation.moves import Move
from interpreter.presentation.terminal import move_lines

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "subtypes"
RULESET = DATA / "subtypes.yaml"
SQUIRE = "A loyal squire. No abilities."


def test_a_card_carries_its_printed_text_and_code_reads_it():
    rules = load(RULESET)
    assert rules.card_defs["Squire"].text == SQUIRE
    assert rules.card_defs["Rally"].text is None
    assert "text" not in rules.card_defs["Squire"].attrs  # (not an attribute: a property)


def test_cards_lists_and_shows_the_text(capsys):
    assert main(["cards", str(RULESET), "Squire"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == f"text: {SQUIRE}"
    assert main(["cards", "initiative", "Stab"]) == 0
    assert "text: Top: Deal 2 damage to one target. Bottom: Deal 1 damage to 1 target.\n" in capsys.readouterr().out


def test_cards_has_a_text_column_only_when_some_card_has_text(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["cards", str(RULESET)]) == 0
    header = capsys.readouterr().out.splitlines()[2]
    assert [c.strip() for c in header.strip("┃").split("┃")] == [
        "name", "type", "attributes", "keywords", "parts", "abilities", "text", "where"]
    assert main(["cards", "lanes"]) == 0
    assert "text" not in [c.strip() for c in capsys.readouterr().out.splitlines()[2].strip("┃").split("┃")]


def test_explain_shows_the_printed_text_first(capsys):
    assert main(["explain", str(RULESET), "Herald"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == [
        '"Herald": a card of type minion', "text: When this arrives, make a 1/1 Recruit token.",
        "printed: cost 3, attack 1, health 3"]


def test_explain_reads_a_call_through_the_procedures_text_template(capsys):
    assert main(["explain", str(RULESET), "Rally"]) == 0
    out = capsys.readouterr().out
    assert "Part `play` (run when the rules run it), it: for each `c` in `board(self.owner)`: if `c is minion`: " \
           "give `c` +1 attack\n" in out


def test_explain_reads_a_call_without_a_template_by_its_parameters(capsys):
    assert main(["explain", "initiative", "Time Leech"]) == 0
    out = capsys.readouterr().out
    assert "does `enchant` (card: this card, target: player to enchant chosen from `players`)" in out
    assert "does `damage` (target: the attached_to of this card, amount: the charge of this card)" in out
    assert "sets the charge of this card to 0\n" in out


def test_the_terminal_shows_the_text_of_the_cards_the_moves_are_about():
    rules = load(RULESET)
    moves = [Move("Squire 1/2", 0, (0,), ({"id": 4, "name": "Squire"},)),
             Move("Rally", 1, (1,), ({"id": 5, "name": "Rally"},)),
             Move("Squire 1/2 (position 3)", 2, (2,), ({"id": 6, "name": "Squire"},))]
    lines = [line.plain for line in move_lines(moves, "a card to play", 1, rules)]
    assert lines == ["P1, a card to play:", "  1) Squire 1/2", "  2) Rally", "  3) Squire 1/2 (position 3)",
                     f"  Squire: {SQUIRE}"]  # (once; Rally prints none)


def test_the_browser_table_puts_the_text_on_the_card_face():
    from interpreter.server.views import card_face

    rules = load(RULESET)
    assert card_face({"id": 4, "name": "Squire", "type": "minion", "attack": 1}, rules)["text"] == SQUIRE
    assert "text" not in card_face({"id": 5, "name": "Rally", "type": "spell"}, rules)


def broken(tmp_path: Path, old: str, new: str, file: str) -> Path:
    folder = tmp_path / "subtypes"
    shutil.copytree(DATA, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder / "subtypes.yaml"


@pytest.mark.parametrize("file,old,new,expected", [
    ("subtypes.cards", 'text = "A loyal squire. No abilities."', "text = 3",
     "subtypes.cards:2:64: validation error: 'text' of 'Squire' must be a string in double quotes"),
    ("subtypes.rules", 'text "give {c} +{n} attack"', 'text "give {card} +{n} attack"',
     "subtypes.rules:{buff}:27: validation error: the text of procedure 'buff' shows {card}, which is not one of its "
     "parameters"),
    ("subtypes.rules", 'text "give {c} +{n} attack"', 'text "give {c} +{n} attack}"',
     "subtypes.rules:{buff}:27: validation error: the text of procedure 'buff' is not a template: Single '}' "
     "encountered in format string"),
    ("subtypes.yaml", "tribe: {type: text", "text: {type: text",
     "subtypes.yaml:{tribe}:7: validation error: 'text' is a built-in property and cannot be declared as an attribute"),
    ("subtypes.rules", "  c.attack += n\n", '  c.attack += n\n  c.text = "x"\n',
     "subtypes.rules:{buff+2}:3: validation error: 'text' is a built-in property that cannot be set"),
])
def test_bad_text_is_a_located_load_error(tmp_path, file, old, new, expected):
    with pytest.raises(CardrulesError) as info:
        load(broken(tmp_path, old, new, file))
    lines = (DATA / "subtypes.rules").read_text(encoding="utf-8").splitlines()
    buff = next(i for i, line in enumerate(lines, start=1) if line.startswith("procedure buff("))
    tribe = next(i for i, line in enumerate(RULESET.read_text(encoding="utf-8").splitlines(), start=1)
                 if "tribe: {type: text" in line)
    expected = expected.replace("{buff+2}", str(buff + 2)).replace("{buff}", str(buff)).replace("{tribe}", str(tribe))
    assert expected in str(info.value), str(info.value)
