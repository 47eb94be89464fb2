"""The toy ruleset of tests/data/toy with rule code of a test's own, for tests of the compiler:
a copy with an extra rules file, an empty game of it, a card in hand, the generated source."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.lang.values import ZoneKey
from interpreter.rules.decks import Deck

TOY_DIR = Path(__file__).resolve().parents[1] / "data" / "toy"


def toy_with(tmp_path: Path, extra_rules: str) -> Path:
    """The toy ruleset copied into tmp_path, with `extra_rules` as a rules file of its own."""
    for f in TOY_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "extra.rules").write_text(extra_rules, encoding="utf-8")
    yaml = (tmp_path / "toy.yaml").read_text(encoding="utf-8")
    (tmp_path / "toy.yaml").write_text(yaml.replace("code: [toy.rules]", "code: [toy.rules, extra.rules]"),
                                       encoding="utf-8")
    return tmp_path / "toy.yaml"


def empty_game(rules):
    """A game of the rules with empty decks, nothing run yet."""
    return rules.empty_game(seed=1, decks=[Deck("none", "-", ()) for _ in range(2)])


def in_hand(game, name: str = "Plain"):
    """A new card in player 1's hand."""
    return game.state.new_card(game.rules.card_defs[name], ZoneKey("hand", 1, ""), game.players[0])


def source_of(rules, label: str) -> str:
    """The generated Python source of the functions whose names hold label."""
    return "\n".join(src for name, src in rules.compiler.gen.ns.sources.items() if label in name)
