"""The paths a rule file names (interpreter/rules/rulepaths.py, docs/rulesets.md "Paths in rule
files"): code files, default decks and `extends:` resolve inside the rule file's own folder tree;
`cards:` entries may lie anywhere but only *.cards files are read through them. Anything else, and
a file name too long for the system, is an error located at the YAML value that prints nothing of
the named file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from fileedits import edit

from interpreter import load
from interpreter.cli.main import main
from interpreter.errors import CardrulesError, ErrorList
from interpreter.paths import data_root

SECRET = "TOP-SECRET-LINE: do not print me"


def copy_game(tmp_path: Path, game: str = "initiative") -> Path:
    """rulesets/<game> and cards/<game> copied into tmp_path/root as laid out in the checkout (and
    installed: interpreter/data/ has the same two folders); its ruleset file."""
    root = tmp_path / "root"
    shutil.copytree(data_root() / "rulesets" / game, root / "rulesets" / game)
    shutil.copytree(data_root() / "cards" / game, root / "cards" / game)
    return root / "rulesets" / game / f"{game}.yaml"


def secret_file(tmp_path: Path, name: str = "secret.txt") -> Path:
    """A file outside every ruleset folder whose first line must never be printed."""
    path = tmp_path / "private" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(SECRET + "\n" + SECRET + ": [\n")  # (not rule code, not YAML: any read would quote it)
    return path


def load_error(path: Path) -> str:
    with pytest.raises(CardrulesError) as caught:
        load(path)
    err = caught.value
    errors = err.errors if isinstance(err, ErrorList) else [err]
    return "\n".join(str(e) for e in errors)


def validate_out(capsys, path: Path) -> tuple[int, str]:
    code = main(["validate", str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def assert_located(text: str, ruleset: Path, line: int, column: int, *words: str) -> None:
    assert f"{ruleset}:{line}:{column}: rules error:" in text, text
    assert SECRET not in text and "TOP-SECRET" not in text, text
    for word in words:
        assert word in text, text


# -- code files ----------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["absolute", "dot-dot", "symlink"])
def test_a_code_file_outside_the_ruleset_folder_is_a_located_error_that_prints_nothing_of_it(tmp_path, capsys, form):
    ruleset = copy_game(tmp_path)
    secret = secret_file(tmp_path)
    if form == "absolute":
        named = str(secret)
    elif form == "dot-dot":
        named = os.path.relpath(secret, ruleset.parent)
        assert named.startswith("..")
    else:  # a link inside the folder that leads out
        (ruleset.parent / "evil.rules").symlink_to(secret)
        named = "evil.rules"
    line, column = edit(ruleset, "code: [initiative.rules]", f"code: [initiative.rules, {named}]")
    column += len("code: [initiative.rules, ")
    text = load_error(ruleset)
    assert_located(text, ruleset, line, column, "code file", "lies outside the folder of its rule file")
    if form == "symlink":
        assert f"a link to {secret}" in text
    code, out = validate_out(capsys, ruleset)
    assert code == 1 and SECRET not in out and f"initiative.yaml:{line}:{column}: rules error" in out, out


def test_etc_passwd_as_code_prints_no_line_of_it(tmp_path, capsys):
    ruleset = copy_game(tmp_path)
    line, column = edit(ruleset, "code: [initiative.rules]", "code: [/etc/passwd]")
    code, out = validate_out(capsys, ruleset)
    assert code == 1 and f"initiative.yaml:{line}:{column + len('code: [')}: rules error" in out, out
    assert "root:" not in out and "syntax error" not in out


def test_code_files_in_subfolders_and_links_within_the_folder_still_load(tmp_path):
    ruleset = copy_game(tmp_path)
    (ruleset.parent / "rules").mkdir()
    shutil.move(ruleset.parent / "initiative.rules", ruleset.parent / "rules" / "main.rules")
    (ruleset.parent / "link.rules").symlink_to(ruleset.parent / "rules" / "main.rules")
    edit(ruleset, "code: [initiative.rules]", "code: [link.rules]")
    assert load(ruleset).name == "initiative"
    edit(ruleset, "code: [link.rules]", "code: [./rules/../rules/main.rules]")
    assert load(ruleset).name == "initiative"


def test_a_ruleset_reached_through_a_linked_folder_loads(tmp_path):
    copy_game(tmp_path)
    (tmp_path / "linked").symlink_to(tmp_path / "root")
    assert load(tmp_path / "linked" / "rulesets" / "initiative" / "initiative.yaml").name == "initiative"


# -- default decks -------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["absolute", "dot-dot", "symlink"])
def test_a_default_deck_outside_the_ruleset_folder_is_a_located_error(tmp_path, capsys, form):
    ruleset = copy_game(tmp_path)
    secret = secret_file(tmp_path, "secret.yaml")
    named = {"absolute": str(secret), "dot-dot": os.path.relpath(secret, ruleset.parent),
             "symlink": "decks/evil.yaml"}[form]
    if form == "symlink":
        (ruleset.parent / "decks" / "evil.yaml").symlink_to(secret)
    line, column = edit(ruleset, "default: [decks/tempo.yaml, decks/swarm.yaml]",
                        f"default: [decks/tempo.yaml, {named}]")
    column += len("default: [decks/tempo.yaml, ")
    assert_located(load_error(ruleset), ruleset, line, column, "default deck", "lies outside")
    code, out = validate_out(capsys, ruleset)
    assert code == 1 and SECRET not in out and f"initiative.yaml:{line}:{column}: rules error" in out, out


def test_validate_reads_no_deck_linked_out_of_the_ruleset_folder(tmp_path, capsys):
    ruleset = copy_game(tmp_path)
    secret = secret_file(tmp_path, "secret.yaml")
    (ruleset.parent / "decks" / "evil.yaml").symlink_to(secret)
    code, out = validate_out(capsys, ruleset)
    assert code == 1 and SECRET not in out and f"evil.yaml is a link to {secret}" in out, out
    assert "ok    " in out and "swarm.yaml" in out  # (the other decks are checked)


def test_a_format_s_default_deck_outside_is_located_too(tmp_path):
    ruleset = copy_game(tmp_path, "bases")
    line, column = edit(ruleset, "default: [decks/skirmish-red-green.yaml,", "default: [/etc/hostname,")
    assert_located(load_error(ruleset), ruleset, line, column + len("default: ["), "default deck")


# -- extends -------------------------------------------------------------------------------------


def test_extends_outside_the_variant_folder_is_a_located_error(tmp_path, capsys):
    secret = secret_file(tmp_path, "secret.yaml")
    variant = tmp_path / "mine" / "v.yaml"
    variant.parent.mkdir()
    variant.write_text(f"extends: {secret}\nname: v\n")
    assert_located(load_error(variant), variant, 1, 10, "outside the folder of this rule file")
    variant.write_text("extends: ../private/secret.yaml\nname: v\n")
    assert_located(load_error(variant), variant, 1, 10, "outside the folder of this rule file")
    code, out = validate_out(capsys, variant)
    assert code == 1 and SECRET not in out


def test_extends_a_shipped_ruleset_or_one_beside_it_still_loads(tmp_path):
    variant = tmp_path / "mine" / "quick.yaml"
    variant.parent.mkdir()
    variant.write_text("extends: initiative\nname: quick\noptions:\n  round_limit: {default: 5}\n")
    assert load(variant).options["round_limit"] == 5
    ruleset = copy_game(tmp_path)
    beside = ruleset.parent / "quick.yaml"
    beside.write_text("extends: initiative.yaml\nname: quick\noptions:\n  round_limit: {default: 6}\n")
    assert load(beside).options["round_limit"] == 6
    assert load("lanes-classic").name == "lanes-classic"


# -- card folders --------------------------------------------------------------------------------


def test_a_card_entry_names_only_cards_files(tmp_path, capsys):
    ruleset = copy_game(tmp_path)
    secret = secret_file(tmp_path)
    line, column = edit(ruleset, "cards: [../../cards/initiative]", f"cards: [../../cards/initiative, {secret}]")
    column += len("cards: [../../cards/initiative, ")
    assert_located(load_error(ruleset), ruleset, line, column, "is not a .cards file")
    # a link named *.cards to a file that is not one
    (ruleset.parent / "evil.cards").symlink_to(secret)
    edit(ruleset, str(secret), "evil.cards")
    assert_located(load_error(ruleset), ruleset, line, column, "is not a .cards file", f"a link to {secret}")
    code, out = validate_out(capsys, ruleset)
    assert code == 1 and SECRET not in out


def test_a_card_folder_reads_only_its_cards_files(tmp_path):
    ruleset = copy_game(tmp_path)
    cards = ruleset.parents[2] / "cards" / "initiative"
    (cards / "notes.txt").write_text(SECRET)  # not read
    (cards / "sub").mkdir()
    (cards / "sub" / "more.cards").write_text("this is not card code")  # subfolders: not read
    assert "Stab" in load(ruleset).card_defs
    # a link named *.cards in a card folder to a file that is not one: located at the entry
    (cards / "zz.cards").symlink_to(secret_file(tmp_path))
    text = load_error(ruleset)
    line = ruleset.read_text().splitlines().index("cards: [../../cards/initiative]") + 1
    assert_located(text, ruleset, line, len("cards: [") + 1, "zz.cards is a link to")


def test_a_card_folder_anywhere_still_loads(tmp_path):
    """The shipped layout: cards/<game>/ lies outside rulesets/<game>/ (from the checkout and
    installed alike); a card folder given by its absolute path loads too."""
    ruleset = copy_game(tmp_path)
    assert "Stab" in load(ruleset).card_defs
    elsewhere = tmp_path / "elsewhere"
    shutil.move(ruleset.parents[2] / "cards" / "initiative", elsewhere)
    edit(ruleset, "cards: [../../cards/initiative]", f"cards: [{elsewhere}]")
    assert "Stab" in load(ruleset).card_defs


@pytest.mark.parametrize("game", ["bases", "harvest", "hearts", "initiative", "lanes", "lanes-classic", "spades",
                                  "expedition"])
def test_the_shipped_rulesets_load(game):
    assert load(game).card_defs


# -- issue 29.9: a file name longer than the system allows ---------------------------------------


LONG = "x" * 300


@pytest.mark.parametrize("entry", [
    ("code: [initiative.rules]", f"code: [{LONG}.rules]", "code: ["),
    ("default: [decks/tempo.yaml, decks/swarm.yaml]", f"default: [decks/{LONG}.yaml, decks/swarm.yaml]", "default: ["),
    ("cards: [../../cards/initiative]", f"cards: [{LONG}]", "cards: ["),
])
def test_a_file_name_longer_than_255_bytes_is_a_located_error(tmp_path, capsys, entry):
    ruleset = copy_game(tmp_path)
    old, new, before = entry
    line, column = edit(ruleset, old, new)
    assert_located(load_error(ruleset), ruleset, line, column + len(before), "file names are at most 255 bytes")
    code, out = validate_out(capsys, ruleset)
    assert code == 1 and "Traceback" not in out and "File name too long" not in out, out


def test_extends_with_a_file_name_too_long_is_a_located_error(tmp_path):
    variant = tmp_path / "v.yaml"
    variant.write_text(f"extends: {LONG}.yaml\nname: v\n")
    assert_located(load_error(variant), variant, 1, 10, "file names are at most 255 bytes")
