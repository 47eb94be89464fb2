"""Every figure a report cannot compute says why: a table's bare "—" becomes "— (a)", and the
table's note lists "(a) why" once per reason.

The reason is read from the table and the column (a win rate with no player-games in its group,
an IWD missing its GIH or GNS side, a first player no game names); a column this module does not
know gets the generic reason (no game gave the figure). `no_hand` (the records have no opening
hand and no draw at all) names the cause of the missing OH, GIH and IWD figures: no hand zone.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import replace

from .documents import Section, Table
from .tables import NONE

NO_HAND = ("no card was ever in a hand: the ruleset has no zone the records read as the hand (see the header's "
           "hand zone; declare statistics.hand), or it is empty when the first turn begins and never receives a card")
GENERIC = "no game gave this figure (no player-game in its group)"

CARD_REASONS = {
    "GD WR": "the card was never in a deck when the first turn began (made during the game, or only offered)",
    "OH WR": "the card was never in an opening hand",
    "GIH WR": "the card was never seen (never in an opening hand, never drawn)",
    "GNS WR": "the card was seen in every game that had it in the deck (it starts in the hand, or is always "
              "drawn): no game without it to compare with",
    "WR played": "the card was never played",
    "Taken first": "the card was never offered",
    "Mean pick": "the card was never picked",
    "WR picked": "the card was never picked",
}
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


def _card_reason(header: str, row: Mapping[str, str], no_hand: bool) -> str:
    if header in ("OH WR", "GIH WR") and no_hand:
        return NO_HAND
    if header == "IWD":
        if row.get("GIH WR", "").startswith(NONE):
            return NO_HAND if no_hand else "needs GIH WR: the card was never seen"
        if row.get("GNS WR", "").startswith(NONE):
            return ("needs GNS WR: the card was seen in every game that had it in the deck, so there is no game "
                    "without it to compare with")
        return "below the minimum sample, or no game on one side"
    return CARD_REASONS.get(header, GENERIC)


def _reason(table: Table, header: str, row: Mapping[str, str], no_hand: bool) -> str:
    first = next(iter(row.values()), "")
    if table.title == "Cards":
        return _card_reason(header, row, no_hand)
    if table.title.startswith("Robustness"):
        return ("not measured on that side: a card below the minimum sample or never unseen, or no finished "
                "game")
    if table.title == "Win rate by seat":
        return "no finished game had this seat" if header.startswith("Win") else "no agent is recorded for this seat"
    if table.title == "Aborted games":
        return "the error names no rule (an agent's error, or a worker process lost)"
    if table.title == "End reasons":
        return "the game recorded no end reason"
    if table.title.startswith("Counters"):
        return "the counter was not recorded for this seat"
    return CELL_REASONS.get(first, GENERIC)


def explain_missing(table: Table, no_hand: bool) -> Table:
    """The table with each bare "—" marked by a letter that its note explains."""
    letters: dict[str, str] = {}
    rows = []
    for cells in table.rows:
        named = dict(zip(table.headers, cells))
        out = list(cells)
        for i, (header, cell) in enumerate(zip(table.headers, cells)):
            if cell != NONE or i == 0:
                continue
            why = _reason(table, header, named, no_hand)
            letter = letters.setdefault(why, string.ascii_lowercase[len(letters) % 26])
            out[i] = f"{NONE} ({letter})"
        rows.append(tuple(out))
    if not letters:
        return table
    said = "Not computed: " + "; ".join(f"({letter}) {why}" for why, letter in letters.items()) + "."
    return replace(table, rows=tuple(rows), note=f"{table.note} {said}".strip())


def explain_all(sections: list[Section], no_hand: bool) -> list[Section]:
    return [explain_missing(s, no_hand) if isinstance(s, Table) else s for s in sections]
