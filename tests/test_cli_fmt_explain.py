"""`cardrules fmt` (the canonical printer, comments kept; --check) and `cardrules explain` (a
card's abilities in plain words), run through the CLI's main()."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from interpreter import paths
from interpreter.cli.main import main
from interpreter.lang.comments import doc_comment, scan_comments
from interpreter.lang.formatting import format_text
from interpreter.lang.parser import parse
from interpreter.lang.printer import to_source

TEST_DATA = Path(__file__).parent / "data"  # (the test rulesets: canonical too, so that fmt keeps them)


def shipped_code_files() -> list[Path]:
    return sorted([*paths.cards_dir().glob("*/*.cards"), *paths.rulesets_dir().glob("*/*.rules")])


def data_code_files() -> list[Path]:
    return sorted([*TEST_DATA.rglob("*.cards"), *TEST_DATA.rglob("*.rules")])


@pytest.mark.parametrize("path", shipped_code_files() + data_code_files(),
                         ids=lambda p: f"{'tests/' if TEST_DATA in p.parents else ''}{p.parent.name}/{p.name}")
def test_formatting_keeps_the_code_and_every_comment_and_is_stable(path):
    text = path.read_text(encoding="utf-8")
    formatted = format_text(text, str(path))
    assert parse(formatted, "formatted") == parse(text, "original")
    assert Counter(c.text for c in scan_comments(formatted)) == Counter(c.text for c in scan_comments(text))
    assert format_text(formatted, str(path)) == formatted
    # the code is the canonical printer's: the text without its comment lines and trailing comments
    code = "\n".join(line.split("  #")[0] for line in formatted.split("\n") if not line.lstrip().startswith("#"))
    assert [line for line in code.split("\n") if line] == \
        [line for line in to_source(parse(text, "t")).split("\n") if line]


def test_every_shipped_code_file_is_in_canonical_form(capsys):
    # the check .ci/run makes (`cardrules fmt --check cards rulesets`), so the README's test command makes it
    # too; and the test rulesets' (tests/data), so that running fmt over the checkout changes nothing there
    assert main(["fmt", "--check", str(paths.cards_dir()), str(paths.rulesets_dir()), str(TEST_DATA)]) == 0
    assert capsys.readouterr().out == ""


def test_a_comment_goes_with_the_statement_below_it_and_stays_in_its_block():
    text = ('# file\n\n# about p\nprocedure p(x) {\n  # before the if\n  if x > 1 { stop }  # stops\n'
            '  # at the end of the block\n}\nfunction f(a) = a + 1  # one more\n# the end\n')
    assert format_text(text) == (
        "# file\n\n# about p\nprocedure p(x) {\n  # before the if\n  if x > 1 {  # stops\n    stop\n  }\n"
        "  # at the end of the block\n}\n\nfunction f(a) = a + 1  # one more\n\n# the end\n")


def test_a_comment_of_an_else_or_at_the_end_of_a_branch_stays_where_it_was():
    # the first branch of an `if` spanned the whole statement, so a comment in the `else` went
    # under the else's first statement and one at the end of the first branch went elsewhere
    text = ("procedure f(p) {\n  if p.x > 0 {\n    p.x = 1\n    # end of the first branch\n"
            "  } elif p.x < 0 {\n    # the elif's\n    p.x = 5\n  } else {\n    # the else's\n"
            "    p.x = 2\n    p.x = 3\n    # end of the else\n  }\n}\n")
    assert format_text(text) == text


def test_doc_comments_stop_at_a_blank_line_and_a_divider():
    text = "# header\n\n# ---- section\n# what p does\nprocedure p() {}  # and more\n"
    assert doc_comment(scan_comments(text), 5) == "what p does\nand more"


@pytest.fixture()
def lanes_cards(tmp_path) -> Path:
    folder = tmp_path / "cards"
    shutil.copytree(paths.cards_dir() / "lanes", folder)
    (folder / "spread.cards").write_text(  # (the shipped files are canonical: one that is not)
        'card "Spread Out" : creature {\n  cost = 1\n  attack = 1\n}\ncard "Squeezed" : creature { cost = 2 '
        'activate "go" { stop } }\n', encoding="utf-8")
    return folder


def test_a_short_card_stays_on_one_line():
    text = ('card "Moth Scout" : creature { cost = 1 attack = 1 health = 1 keyword aerial }\n'
            'card "Harbor Pike" : creature { cost = 3 attack = 2 health = 2 keyword aquatic keyword sprint }\n'
            'card "Plain" : creature {}\n')
    assert format_text(text) == text
    spread = 'card "Moth Scout" : creature {\n  cost = 1\n  attack = 1\n  health = 1\n  keyword aerial\n}\n'
    assert format_text(spread) == text.splitlines(keepends=True)[0]


def test_short_means_members_only_and_at_most_120_columns():
    head = 'card "X" : creature { cost = 1 name_of_some_length = "'

    def card(width: int) -> str:  # a one-line card exactly `width` columns long
        return head + "y" * (width - len(head) - 3) + '" }'

    assert len(card(120)) == 120 and format_text(card(120) + "\n") == card(120) + "\n"
    assert format_text(card(121) + "\n") == (
        'card "X" : creature {\n  cost = 1\n  name_of_some_length = "' + "y" * (121 - len(head) - 3) + '"\n}\n')
    with_body = 'card "Y" : creature { cost = 1 activate "go" { stop } }\n'
    assert format_text(with_body) == 'card "Y" : creature {\n  cost = 1\n  activate "go" {\n    stop\n  }\n}\n'
    with_part = 'card "Z" : creature { cost = 1 part top { } }\n'
    assert format_text(with_part) == 'card "Z" : creature {\n  cost = 1\n  part top {}\n}\n'


def test_a_run_of_one_line_cards_keeps_its_blank_lines_and_comments():
    text = ('# cost 1\ncard "A" : creature { cost = 1 }\ncard "B" : creature { cost = 1 }\n\n'
            '# cost 2\ncard "C" : creature { cost = 2 }\n'
            'card "D" : creature { cost = 2 activate "go" { stop } }\ncard "E" : creature { cost = 3 }\n')
    assert format_text(text) == (
        '# cost 1\ncard "A" : creature { cost = 1 }\ncard "B" : creature { cost = 1 }\n\n'
        '# cost 2\ncard "C" : creature { cost = 2 }\n\n'
        'card "D" : creature {\n  cost = 2\n  activate "go" {\n    stop\n  }\n}\n\ncard "E" : creature { cost = 3 }\n')


def test_a_comment_above_a_card_template_stays_above_it():
    text = '# the deck\n# of 2\ncards for n in range(1, 3): "N{n}" : creature {\n  cost = n\n  activate "go" {\n    stop\n  }\n}\n'
    assert format_text(text) == text


def test_fmt_check_lists_what_would_change_and_fmt_writes_it(lanes_cards, capsys):
    before = {p: p.read_text(encoding="utf-8") for p in sorted(lanes_cards.glob("*.cards"))}
    changing = {p for p, text in before.items() if format_text(text, str(p)) != text}
    assert lanes_cards / "spread.cards" in changing
    assert main(["fmt", "--check", str(lanes_cards)]) == 1
    out = capsys.readouterr().out
    assert {line.removeprefix("would reformat ") for line in out.splitlines()} == {str(p) for p in changing}
    assert {p: p.read_text(encoding="utf-8") for p in before} == before  # --check writes nothing

    assert main(["fmt", str(lanes_cards)]) == 0
    out = capsys.readouterr().out
    assert {line.removeprefix("reformatted ") for line in out.splitlines()} == {str(p) for p in changing}
    for p, text in before.items():
        assert p.read_text(encoding="utf-8") == format_text(text, str(p))

    assert main(["fmt", "--check", str(lanes_cards)]) == 0
    assert capsys.readouterr().out == ""  # nothing to change: nothing printed


def test_fmt_leaves_a_file_that_does_not_parse_and_says_where(tmp_path, capsys):
    path = tmp_path / "broken.cards"
    text = 'card "A" : creature {\n  cost = \n}\n'
    path.write_text(text, encoding="utf-8")
    good = tmp_path / "good.cards"
    good.write_text('card "B" : creature {\n  cost = 1\n}\n', encoding="utf-8")
    assert main(["fmt", str(path), str(good)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:3:1: syntax error: unexpected '}}'" in out
    assert path.read_text(encoding="utf-8") == text
    assert good.read_text(encoding="utf-8") == 'card "B" : creature { cost = 1 }\n'  # the others are done


def test_fmt_refuses_what_is_not_a_code_file(tmp_path, capsys):
    other = tmp_path / "deck.yaml"
    other.write_text("cards: []\n", encoding="utf-8")
    assert main(["fmt", str(other)]) == 2
    assert "not a card file (.cards) nor a rule code file (.rules)" in capsys.readouterr().err
    assert main(["fmt", str(tmp_path / "missing.cards")]) == 1  # a file to read that is missing: input


def test_explain_a_keyword_with_a_parameter(capsys):
    assert main(["explain", "lanes", "Banner Captain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('"Banner Captain": a card of type creature\nprinted: cost 4, attack 2, health 4\n')
    assert "Keyword `aura(rage)`: L-7.4: the cards immediately in front of and behind it" in out
    # the keyword's parameter k is the card's argument, rage
    assert "`neighbours(lane(self.controller, self.row), position(self))` has the keyword `rage`" in out
    assert "Keyword `focus`: L-7.7: enters at position 1\n  no ability of its own" in out


def test_explain_a_trigger_and_what_it_changes(capsys):
    assert main(["explain", "bases", "Smoldering Watchfire"]) == 0
    out = capsys.readouterr().out
    assert ("1. Whenever the event `turn_start` happens, if `event.player == you`, it: for each `a` in "
            "`enemy_allies(you)`: does `deal` (target: `a`, amount: 1)") in out
    assert "The ruleset's procedures it uses:\n- `deal(target, amount)`" in out


def test_explain_an_activated_ability_and_a_continuous_one(capsys):
    assert main(["explain", "bases", "Ember Slinger"]) == 0
    out = capsys.readouterr().out
    assert '1. Can be used "sling an ember", paying 1, if `not self.tapped`:' in out
    assert 'first (when it is used), it: sets the targets of this card to `[choose "an enemy ally' in out
    assert main(["explain", "bases", "Warfire Brazier"]) == 0
    out = capsys.readouterr().out
    assert "1. Continuously:\n     the offense of `all a in play(you) where a is ally` is changed by 1" in out


def test_explain_an_unknown_card_suggests_one(capsys):
    assert main(["explain", "lanes", "Shelback Tortoise"]) == 2
    assert "no card named 'Shelback Tortoise' (did you mean 'Shellback Tortoise'?)" in capsys.readouterr().err
