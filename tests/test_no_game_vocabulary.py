"""interpreter/ holds no game vocabulary: neither the distinctive words of a shipped game nor a word
of the names a shipped ruleset or card set declares that is not ordinary English or programming
(tests/helpers/vocabulary.py), nor a word of ../shared/tools/game_words.py, in its identifiers
or string literals.

The check itself is tested: a new game that declares ordinary words the engine also says (`rank`,
`passed`, `record`, ...) must not fail it, while a shipped game's words, or a word that only a
new game declares, in an engine-like folder must be found."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from vocabulary import DISTINCTIVE, declared_names, forbidden_words, game_words_in, ordinary_words, words_of

from interpreter import load
from interpreter.paths import shipped_games, shipped_rulesets

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "interpreter"
TOY = ROOT / "tests" / "data" / "toy"
GAME_WORDS_TOOL = ROOT.parent / "shared" / "tools" / "game_words.py"

# Ordinary words a new game may well declare, each of which interpreter/ says too.
ORDINARY_DECLARED = ("rank", "passed", "playable", "code", "note", "record", "finish")


@pytest.fixture(scope="module")
def shipped() -> list:
    return [load(path) for path in shipped_rulesets().values()]


def test_declared_game_names_do_not_appear_in_the_engine(shipped):
    forbidden = forbidden_words(shipped, shipped_games())
    assert {"bastion", "mana", "initiative", "leech", "influence"} <= forbidden
    hits = game_words_in(ENGINE, forbidden)
    assert not hits, ("game vocabulary in interpreter/ (if a word is ordinary English or programming, add it to "
                      "tests/helpers/ordinary_words.txt):\n" + "\n".join(hits))


def test_every_shipped_game_has_distinctive_words():
    assert set(shipped_games()) <= set(DISTINCTIVE), "list a new shipped game's distinctive words in DISTINCTIVE"
    ordinary = ordinary_words()
    assert all(w == w.lower() and w.isalpha() for w in ordinary)
    assert not ordinary & {w for words in DISTINCTIVE.values() for w in words}, "a distinctive word is not ordinary"


def _toy_declaring(folder: Path, rules: str) -> Path:
    """The toy ruleset copied into folder, with a rules file of its own."""
    for f in TOY.iterdir():
        shutil.copy(f, folder / f.name)
    (folder / "extra.rules").write_text(rules, encoding="utf-8")
    text = (folder / "toy.yaml").read_text(encoding="utf-8").replace("code: [toy.rules]",
                                                                     "code: [toy.rules, extra.rules]")
    (folder / "toy.yaml").write_text(text, encoding="utf-8")
    return folder / "toy.yaml"


def test_a_new_game_declaring_ordinary_words_does_not_fail(tmp_path, shipped):
    """The old test forbade every declared name that interpreter/ also said: a correct new game
    declaring `record` failed CI."""
    path = _toy_declaring(tmp_path, "procedure code() { }\nfunction note(x) = x\n"
                          "procedure record(p) { p.rank = 1 p.passed = true }\nfunction playable(c) = c.power > 0\n")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("player_attributes:\n", "player_attributes:\n  rank: {type: int, default: 0}\n"
                                 "  passed: {type: bool, default: false}\n")
                    .replace("  tick: null\n", "  tick: null\n  finish: null\n"), encoding="utf-8")
    new_game = load(path)
    engine_words = {w for f in ENGINE.rglob("*.py") for w in words_of(f.read_text(encoding="utf-8"))}
    assert set(ORDINARY_DECLARED) <= engine_words, "the words this test is about are the engine's too"
    assert set(ORDINARY_DECLARED) <= declared_names(new_game)
    assert not game_words_in(ENGINE, forbidden_words([*shipped, new_game], shipped_games()))


def _engine_like(folder: Path, source: str) -> Path:
    package = folder / "engine_like"
    package.mkdir()
    (package / "module.py").write_text(source, encoding="utf-8")
    return package


def test_a_shipped_game_word_in_engine_code_is_found(tmp_path, shipped):
    package = _engine_like(tmp_path, '"""Docstrings and comments may say mana."""\n\n'
                                     "# a bastion in a comment is fine\n"
                                     "bastion_health = 3\n"
                                     'LABEL = "pay the Mana cost"\n'
                                     "def first_monster(cards):\n"
                                     '    """A monster, as a docstring says."""\n'
                                     "    return cards[0]\n")
    hits = game_words_in(package, forbidden_words(shipped, shipped_games()))
    assert [h.split(": ", 1)[1].split(" in ")[0] for h in hits] == ["'bastion'", "'mana'", "'monster'"]
    assert hits[0].startswith("engine_like/module.py:4: ")


def test_a_word_only_a_new_game_declares_is_found(tmp_path, shipped):
    """A name of the new game's own (not ordinary) becomes forbidden with it, and not before."""
    path = _toy_declaring(tmp_path, "keyword zorblax { }\n")
    package = _engine_like(tmp_path, "def zorblax_bonus(card):\n    return 1\n")
    assert not game_words_in(package, forbidden_words(shipped, shipped_games()))
    hits = game_words_in(package, forbidden_words([*shipped, load(path)], shipped_games()))
    assert len(hits) == 1 and "'zorblax'" in hits[0]


@pytest.mark.skipif(not GAME_WORDS_TOOL.exists(), reason="../shared/tools/game_words.py is not beside the checkout")
def test_shared_game_words_tool_finds_nothing():
    run = subprocess.run([sys.executable, str(GAME_WORDS_TOOL), str(ENGINE)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("0 game words in code under " + str(ENGINE))
