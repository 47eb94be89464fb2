"""Every figure a report cannot compute says why: a table's bare "—" becomes "— (a)", and the
table's note lists "(a) why" once per reason.

The reason is read from the table, the column's header and the row's other cells (a win rate with
no player-games in its group, an opening-hand effect whose card was in every opening hand of its
deck or in none, an IWD missing its GIH or GNS side, a first player no game names); a column this
module does not know gets the generic reason (no game gave the figure). `no_hand` (the records
have no opening hand and no draw at all) names the cause of the missing opening-hand and GIH
figures: no hand zone. `min_sample` is the run's minimum sample, which the Robustness section's
cards need to be measured.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import replace

from .documents import Section, Table
from .sharedpage import SCORE_CARDS, SCORE_EFFECT, SCORE_WITH, SCORE_WITHOUT
from .tables import NONE

NO_HAND = ("no card was ever in a hand: the ruleset has no zone the records read as the hand (see the header's "
           "hand zone; declare statistics.hand), or it is empty when the first turn begins and never receives a card")
GENERIC = "no game gave this figure (no player-game in its group)"

NOT_IN_DECK = "the card was never in a deck when the first turn began (made during the game, or only offered)"
IN_EVERY_HAND = ("the card was in every opening hand of its deck: no game of its deck without it in the opening "
                 "hand to compare with")
IN_NO_HAND = "the card was in no opening hand: no game with it in the opening hand to compare with"
NEVER_BOTH = ("the card was never both in and out of the opening hand in games of the same deck, seat, opponents "
              "and agents: no group where the shuffle decided")
NO_VARIANCE = ("no test: in the groups compared every game was won, or every one lost (no variance under no "
               "difference)")
CARD_REASONS = {
    "GD WR": NOT_IN_DECK,
    "GIH WR": "the card was never seen (never in an opening hand, never drawn)",
    "Played": "the card was never played",
    "WR played": "the card was never played",
    "Taken first": "the card was never offered",
    "Mean pick": "the card was never picked",
    "WR picked": "the card was never picked",
}
# the card table's columns that come from the opening-hand effect (effects.py)
EFFECT = "OH effect within deck (95%)"
WITH, WITHOUT = "WR in OH", "WR not in OH"
TESTED = ("z", "q (BH)", "Flagged")
NEEDED = "Games for a +5 pp flag"
CELL_REASONS = {
    "First player wins": "no finished game names a first player (the turns have no active player)",
    "First-player advantage over an even share": "no finished game names a first player (the turns have no "
                                                 "active player)",
    "Length in turns": "no finished game",
    "Decisions": "no finished game",
    "Draws": "no finished game",
    "Timeouts": "no finished game",
    "Lead changes, mean": "the ruleset has no score to lead by (evaluate: or statistics.score)",
}


def _missing(row: Mapping[str, str], header: str) -> bool:
    return row.get(header, NONE).startswith(NONE)


def _no_effect(row: Mapping[str, str], no_hand: bool) -> str:
    """Why a card has no opening-hand effect, read from its win rates with and without it in the
    opening hand (both missing: no deck held it)."""
    if _missing(row, WITH) and _missing(row, WITHOUT):
        return NOT_IN_DECK
    if no_hand:
        return NO_HAND
    if _missing(row, WITH):
        return IN_NO_HAND
    if _missing(row, WITHOUT):
        return IN_EVERY_HAND
    return NEVER_BOTH


def _card_reason(header: str, row: Mapping[str, str], no_hand: bool) -> str:
    if header in (EFFECT, NEEDED) or header in TESTED and _missing(row, EFFECT):
        return _no_effect(row, no_hand)
    if header in TESTED:  # (an effect without a test)
        return NO_VARIANCE
    if header == WITH:
        return NOT_IN_DECK if _missing(row, WITHOUT) else NO_HAND if no_hand else IN_NO_HAND
    if header == WITHOUT:
        return NOT_IN_DECK if _missing(row, WITH) else IN_EVERY_HAND
    if header == "Decks":
        return NOT_IN_DECK if _missing(row, WITH) and _missing(row, WITHOUT) else \
            "the records name no deck (the ruleset gives its players no named decks)"
    if header == "GIH WR" and no_hand:
        return NO_HAND
    if header == "IWD (descriptive)":
        if _missing(row, "GIH WR"):
            return NO_HAND if no_hand else "needs GIH WR: the card was never seen"
        return ("the card was seen (in the opening hand or drawn) in every game that had it in the deck: no game "
                "where it went unseen to compare with")
    if header == "WR by turn first drawn":
        if _missing(row, WITH) and _missing(row, WITHOUT):
            return NOT_IN_DECK
        if no_hand:
            return NO_HAND
        return ("the card was never drawn in the games where it was not in the opening hand" if not _missing(row, WITHOUT)
                else "the card was in every opening hand of its deck: never drawn later")
    return CARD_REASONS.get(header, GENERIC)


def _info_reason(header: str) -> str:
    """A card's type or an attribute of `statistics.attributes` (the columns before Decks)."""
    if header == "Type":
        return "the ruleset defines no card of this name"
    return f"the card's definition gives no {header.lower()}"


def _robust_reason(row: Mapping[str, str], min_sample: int) -> str:
    measure = row.get("Measure", "")
    if measure == "opening-hand effect":
        return (f"not measured on that side: fewer than {min_sample} player-games held the card in their deck (the "
                "minimum sample), or it was in every opening hand of its deck or in none (no opening-hand effect)")
    if next(iter(row.values()), "") == "first player":
        return "not measured on that side: no finished game names a first player"
    return "not measured on that side: no finished game"


def _score_card_reason(header: str, row: Mapping[str, str], no_hand: bool) -> str:
    """Why a card of the score effects' table lacks a figure (its mean scores say which case)."""
    if header == "Decks":
        return "the records name no deck (the ruleset gives its players no named decks)"
    if header in ("z", "q (BH)", "Flagged") and not _missing(row, SCORE_EFFECT):
        return NO_VARIANCE.replace("every game was won, or every one lost", "every game had the same score")
    if no_hand:
        return NO_HAND
    if _missing(row, SCORE_WITH):
        return IN_NO_HAND
    if _missing(row, SCORE_WITHOUT):
        return IN_EVERY_HAND
    return NEVER_BOTH


def _reason(table: Table, header: str, row: Mapping[str, str], no_hand: bool, min_sample: int) -> str:
    first = next(iter(row.values()), "")
    if table.title == SCORE_CARDS:
        return _score_card_reason(header, row, no_hand)
    if table.title.startswith("Mean score by"):
        return ("fewer than two finished games: no spread" if header == "SD"
                else "no finished game gave it a score")
    if table.title == "Win rate by team":
        return "no finished game"
    if table.title == "Cards":
        if "Decks" in table.headers and table.headers.index(header) < table.headers.index("Decks"):
            return _info_reason(header)
        return _card_reason(header, row, no_hand)
    if table.title.startswith("Robustness"):
        return _robust_reason(row, min_sample)
    if table.title == "Win rate by seat":
        return "no finished game had this seat" if header.startswith("Win") else "no agent is recorded for this seat"
    if table.title == "Aborted games":
        return "the error names no rule (an agent's error, or a worker process lost)"
    if table.title == "End reasons":
        return "the game recorded no end reason"
    if table.title.startswith("Counters"):
        return "the counter was not recorded for this seat"
    return CELL_REASONS.get(first, GENERIC)


def explain_missing(table: Table, no_hand: bool, min_sample: int = 30) -> Table:
    """The table with each bare "—" marked by a letter that its note explains."""
    letters: dict[str, str] = {}
    rows = []
    for cells in table.rows:
        named = dict(zip(table.headers, cells))
        out = list(cells)
        for i, (header, cell) in enumerate(zip(table.headers, cells)):
            if cell != NONE or i == 0:
                continue
            why = _reason(table, header, named, no_hand, min_sample)
            letter = letters.setdefault(why, string.ascii_lowercase[len(letters) % 26])
            out[i] = f"{NONE} ({letter})"
        rows.append(tuple(out))
    if not letters:
        return table
    said = "Not computed: " + "; ".join(f"({letter}) {why}" for why, letter in letters.items()) + "."
    return replace(table, rows=tuple(rows), note=f"{table.note} {said}".strip())


def explain_all(sections: list[Section], no_hand: bool, min_sample: int = 30) -> list[Section]:
    return [explain_missing(s, no_hand, min_sample) if isinstance(s, Table) else s for s in sections]
