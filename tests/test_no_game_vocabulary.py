"""interpreter/ holds no game vocabulary: no name that a shipped ruleset or card set declares,
and no word of ../shared/tools/game_words.py, appears in its identifiers or string literals."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from interpreter import load
from interpreter.paths import shipped_games

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "interpreter"
GAME_WORDS_TOOL = ROOT.parent / "shared" / "tools" / "game_words.py"

# Declared names that are ordinary programming words: an engine may well say them.
GENERIC = {"deck", "hand", "discard", "turn", "round", "player", "players", "card", "cards", "name", "type",
           "attack", "damage", "health", "cost", "copies", "count", "draw", "play", "field", "setup", "select",
           "reveal", "order", "actions", "cleanup", "first", "resolved", "cancelled", "selection", "played",
           "revealed", "resolution", "resolving", "enchant", "enchanted", "summoned", "attacks", "died", "healed",
           "damaged", "token", "named", "charge", "kind", "top", "bottom", "phase", "result", "zone", "zones",
           "label", "text", "size", "default", "min", "max", "value", "values", "args", "event", "events",
           "options", "option", "random", "labelled", "destroy", "run", "heal", "cancel", "ready", "high",
           "low", "picks", "orders", "target", "amount", "current", "attacked", "second_last_round",
           "acts_first", "round_end", "take_actions", "draw_cards", "select_cards", "reveal_cards",
           "decide_order", "creature_attacks", "resolve_zone", "setup_game", "top_bottom", "any_target",
           "opponent", "from_hand", "attacker", "action",
           # plain English that an error message may say ("YAML would keep only the last one")
           "keep", "draft", "enters", "returned", "destroyed", "window",
           # words of programming that Bases also uses as names
           "ability", "base", "format", "item", "remaining", "resolves", "resources", "restore", "source",
           "stack", "targets", "blocks",
           # OpenSpiel's own API (GameType's perfect_recall); Lanes has a procedure `recall`
           "recall"}


def declared_names() -> set[str]:
    names: set[str] = set()
    for game in shipped_games():
        rules = load(game)
        rs = rules.ruleset
        names.update(rs.zones)
        names.update(rs.player_attributes)
        names.update(rs.globals)
        names.update(rs.card_types)
        names.update(rs.option_specs)
        names.update(rs.events)
        for ct in rs.card_types.values():
            names.update(ct.attributes)
        defs = rules.definitions
        names.update(defs.procedures)
        names.update(defs.functions)
        names.update(defs.keywords)
        names.update(card.lower() for card in defs.cards)  # whole names: "time leech", not "time"
    return {n.lower() for n in names if len(n) > 3} - GENERIC


def code_words(path: Path) -> list[tuple[int, str]]:
    out = []
    prev = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type == tokenize.NAME:
            out.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and prev not in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                                                          tokenize.NL):
            out.append((tok.start[0], tok.string))
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            prev = tok.type
    return out


def test_declared_game_names_do_not_appear_in_the_engine():
    names = declared_names()
    assert names, "the shipped rulesets declare names"
    pattern = re.compile(r"(?<![a-z0-9])(" + "|".join(sorted(map(re.escape, names))) + r")(?![a-z0-9])")
    hits = []
    for path in sorted(ENGINE.rglob("*.py")):
        for line, text in code_words(path):
            for match in pattern.finditer(text.lower().replace("_", " ")):
                hits.append(f"{path.relative_to(ROOT)}:{line}: {match.group(1)!r} in {text[:60]!r}")
    assert not hits, "game vocabulary in interpreter/:\n" + "\n".join(hits)


@pytest.mark.skipif(not GAME_WORDS_TOOL.exists(), reason="../shared/tools/game_words.py is not beside the checkout")
def test_shared_game_words_tool_finds_nothing():
    run = subprocess.run([sys.executable, str(GAME_WORDS_TOOL), str(ENGINE)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("0 game words in code under " + str(ENGINE))
