"""Game vocabulary in Python code: the words interpreter/ must not say.

Two kinds of word are a game's: the distinctive words of each shipped game (`DISTINCTIVE`, kept
by hand: ordinary English like "lane" or "mana" that only that game would make a name of), and
the words of the names a ruleset declares (zones, attributes, globals, options, events, card
types, rows, procedures, functions, keywords, cards) that are not ordinary English or
programming words (tests/helpers/ordinary_words.txt). A new game that declares ordinary words
(`rank`, `passed`, `record`) adds nothing to forbid; one that declares a word of its own (a card
called "Cinderscale") does.

`forbidden_words(rules)` gives the words of some loaded rulesets; `game_words_in(folder, words)`
finds them in the identifiers and string literals (not comments or docstrings) of the Python
files under a folder.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable
from pathlib import Path

ORDINARY_FILE = Path(__file__).with_name("ordinary_words.txt")

# Each shipped game's distinctive words: forbidden in interpreter/ even where ordinary English.
DISTINCTIVE: dict[str, tuple[str, ...]] = {
    "lanes": ("lane", "lanes", "bridge", "bastion", "fort", "fortress", "mana", "aerial", "berserk", "aquatic",
              "catalyst", "perforation", "demolisher", "sprint", "splash", "incantation", "incantations",
              "creature", "creatures"),
    "initiative": ("initiative", "monster", "monsters", "soldier", "soldiers", "creature", "creatures", "stab",
                   "bandage", "bless", "curse", "dispell", "leech", "leeches", "enchantment", "enchantments"),
    "bases": ("influence", "surrounding", "surroundings", "centre", "ally", "allies", "maneuver", "maneuvers",
              "skirmish"),
    "hearts": ("hearts", "heart", "trick", "tricks", "suit", "suits", "spades", "clubs", "diamonds", "moon"),
    "spades": ("spades", "trick", "tricks", "suit", "suits", "nil", "bags", "bagged", "trumps"),
    "expedition": ("expedition", "flare", "flares", "captain", "signalled", "trick", "tricks", "suit", "suits"),
    "harvest": ("harvest", "province", "provinces", "duchy", "estate", "estates", "copper", "kingdom",
                "treasure", "treasures", "curse", "lender", "hamlet", "workshop"),
}

MIN_LENGTH = 3  # shorter pieces of names ("s" of "Ma's", "of") say nothing of a game


def ordinary_words() -> frozenset[str]:
    lines = ORDINARY_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def words_of(text: str) -> list[str]:
    """The lower-case words of a name or a text: `draw_cards` and `DrawCards` are draw, cards."""
    return re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text).lower())


def declared_names(rules) -> set[str]:
    """Every name a loaded ruleset declares, its cards' names among them."""
    rs = rules.ruleset
    names = {*rs.zones, *rs.player_attributes, *rs.globals, *rs.card_types, *rs.option_specs, *rs.events}
    for zone in rs.zones.values():
        names.update(zone.rows)
    for card_type in rs.card_types.values():
        names.update(card_type.attributes)
    defs = rules.definitions
    names.update(defs.procedures, defs.functions, defs.keywords, defs.cards)
    return names


def forbidden_words(rules_list: Iterable, games: Iterable[str] = DISTINCTIVE) -> set[str]:
    """The distinctive words of these shipped games, and the words of what these rulesets
    declare that are not ordinary."""
    ordinary = ordinary_words()
    found = {word for game in games for word in DISTINCTIVE.get(game, ())}
    for rules in rules_list:
        for name in declared_names(rules):
            found.update(w for w in words_of(name) if len(w) >= MIN_LENGTH and w not in ordinary)
    return found


def code_texts(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each identifier and each string literal that is not a docstring."""
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


def game_words_in(folder: Path, forbidden: set[str]) -> list[str]:
    """Each use of a forbidden word in the Python files under `folder`: "path:line: 'word' in ..."."""
    hits = []
    for path in sorted(folder.rglob("*.py")):
        for line, text in code_texts(path):
            for word in dict.fromkeys(w for w in words_of(text) if w in forbidden):
                hits.append(f"{path.relative_to(folder.parent)}:{line}: {word!r} in {text[:60]!r}")
    return hits
