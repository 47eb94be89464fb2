"""What the page draws, as plain JSON: one player's observation laid out by the ruleset's zone
declarations, the moves of their decision, the cards as the ruleset displays them.

Everything here reads an observation (`game.observation(seat)`) or the ruleset, never the state:
a card the viewer may not see never reaches this module. Distinct moves, card display, prompts
and event lines come from `interpreter.presentation`, shared with the terminal.
"""

from __future__ import annotations

import re
from typing import Any

from ..presentation import (
    card_display,
    decision_title,
    distinct_moves,
    event_text,
    pick_of,
    printed_text,
    value_text,
)
from ..presentation.results import outcome_words, scores_words

__all__ = ["card_face", "event_text", "option_card_ids", "option_places", "result_text", "table_view", "zone_layout"]

# observation globals every game has; shown in the header, not among the game's own values
BUILTIN_GLOBALS = ("turn", "phase", "active")
_CARD_ID = re.compile(r"(?:^|\+)[ca](\d+)")  # card ids in an option id: c12, c3+c7, a12.1
# the place of a card its chooser may not see, in an option id: hand.p1.3 (engine/decisions.py)
_PLACE = re.compile(r"[A-Za-z_]\w*(?:\.\w+)*\.\d+")
_ABILITY_ID = re.compile(r"a\d+\.\d+")


def option_places(option_id: str) -> list[str]:
    """The places an option id names (cards its chooser may not see): 'hand.p1.3' -> ['hand.p1.3']."""
    return [t for t in str(option_id).split("+") if _PLACE.fullmatch(t) and not _ABILITY_ID.fullmatch(t)]


def option_card_ids(option_id: str) -> list[int]:
    """The ids of the cards (or of the cards of abilities) an option id names: 'c3+c7' -> [3, 7]."""
    return [int(m) for m in _CARD_ID.findall(str(option_id))]


def _words(name: str) -> str:
    return str(name).replace("_", " ")


def card_face(card: dict, rules: Any, zone: str | None = None) -> dict:
    """A face-up card as the page draws it: id, name, type and its display lines (the
    attributes the ruleset displays in `zone`, `presentation.card_display`), and its printed
    rules text (`text`) if it has one."""
    lines = [_words(k) if v is True else f"{_words(k)} {value_text(v)}"
             for k, v in card_display(card, rules, zone).items()]
    face = {"id": card.get("id"), "name": str(card.get("name", "?")), "type": card.get("type"), "lines": lines}
    text = printed_text(card.get("name"), rules)
    if text:  # (the card's printed rules text: the page shows it on the face and as its tooltip)
        face["text"] = text
    if "position" in card:
        face["position"] = card["position"]
    return face


def zone_layout(obs: dict, rules: Any, open_piles: bool = False) -> list[dict]:
    """The zones in the ruleset's declared order, each owner's together (shared first, then the
    other players, the viewer last). A zone the viewer sees card by card is laid out as its
    declaration says: a row when ordered, a pile (cards overlapping) when not, one per declared
    row; a zone it sees as a count is a face-down pile with its revealed cards. With
    `open_piles` (the full view of a replay) a face-down pile lists every card it holds."""
    viewer = obs.get("viewer")
    zones_of = obs.get("zones") or {}
    owners = sorted(zones_of, key=lambda o: (o != "shared", o == f"P{viewer}", o))
    out = []
    for owner in owners:
        contents = zones_of[owner]
        for name, spec in rules.zones.items():
            rows = [(row, f"{name}.{row}") for row in spec.rows] if spec.rows else [(None, name)]
            parts = []
            for row, label in rows:
                if label not in contents:
                    continue
                content = contents[label]
                if isinstance(content, dict) and spec.visibility == "others" and owner == f"P{viewer}":
                    part = {"row": row, "kind": "backs", "count": content.get("count", 0),
                            "cards": _backs(content, rules, label, viewer)}
                elif isinstance(content, dict):
                    revealed = [card_face(c, rules, label) for c in content.get("revealed") or []]
                    part = {"row": row, "kind": "hidden", "count": content.get("count", 0), "cards": revealed,
                            "open": open_piles}
                else:
                    part = {"row": row, "kind": "row" if spec.ordered else "pile", "count": len(content),
                            "cards": [card_face(c, rules, label) for c in content]}
                parts.append(part)
            if parts:
                out.append({"owner": owner, "zone": name, "label": _words(name), "visibility": spec.visibility,
                            "rows": parts})
    return out


def _backs(content: dict, rules: Any, label: str, viewer: Any) -> list[dict]:
    """The viewer's own zone of `visibility: others` (seen by every player but them): a card
    back at each place, its id the place as options name it (`hand.p1.3`), so that a move
    about that place marks it; a card revealed to the viewer face up at its place."""
    faces = {c.get("position"): card_face(c, rules, label) for c in content.get("revealed") or []}
    return [faces.get(i) or {"back": True, "id": f"{label}.p{viewer}.{i}", "position": i}
            for i in range(1, int(content.get("count", 0)) + 1)]


def _move(move: Any, options: list[dict]) -> dict:
    """A move for the page: `cards` the cards its option is about, `copies` the other cards
    (copies of those) that stand for the same move."""
    ids = [c.get("id") for c in move.cards]
    first = [i for i in option_card_ids(options[move.option]["id"]) if i in ids]
    first += option_places(options[move.option]["id"])  # (the backs of the viewer's own hidden places)
    return {"label": move.label, "option": move.option, "cards": first, "copies": [i for i in ids if i not in first]}


def _pick(obs: dict, rules: Any) -> dict | None:
    """An unordered pick of cards for the page (`presentation.pick_of`): the cards to toggle
    (id, label) and each option's set of card ids (sorted) with its index; the page confirms a
    picked set only when it is one of them."""
    pick = pick_of(obs, rules)
    if pick is None:
        return None
    return {"kind": pick.kind, "least": pick.least, "most": pick.most,
            "cards": [{"id": c.id, "label": c.label} for c in pick.cards],
            "sets": [{"cards": sorted(ids), "option": option} for ids, option in pick.sets.items()]}


def result_text(result: dict | None, team_names: list[str] | None = None) -> str | None:
    """The result as the table shows it (presentation/results.py): who won, the reason, the
    turns; a scoring game's scores after it."""
    if not result:
        return None
    turns = result.get("turns")
    after = f" after {turns} turn{'s' if turns != 1 else ''}" if turns is not None else ""
    scores = scores_words(result, team_names)
    return f"{outcome_words(result, team_names)}{after}" + (f"; {scores}" if scores else "")


def table_view(obs: dict, rules: Any, open_piles: bool = False) -> dict:
    """The drawable part of one observation: header values, players, zones, decision, result."""
    glob = obs.get("globals") or {}
    decision = obs.get("decision")
    viewer = obs.get("viewer")
    shown_decision = None
    if decision is not None:
        moves = distinct_moves(obs, rules) if decision.get("player") == viewer and decision.get("options") else []
        shown_decision = {
            "player": decision.get("player"),
            "prompt": decision_title(obs, rules) if decision.get("prompt") else None,
            "yours": decision.get("player") == viewer and bool(moves),
            "moves": [_move(m, decision["options"]) for m in moves],
        }
        pick = _pick(obs, rules) if moves else None
        if pick is not None:  # (an unordered pick of cards: toggles and a confirmation on the page)
            shown_decision["pick"] = pick
    return {
        "turn": obs.get("turn"),
        "phase": obs.get("phase"),
        "active": value_text(glob.get("active")) if glob.get("active") is not None else None,
        "globals": [[_words(k), value_text(v)] for k, v in glob.items() if k not in BUILTIN_GLOBALS],
        "players": [{"seat": p.get("seat"),
                     "attributes": [[_words(k), value_text(v)] for k, v in p.items() if k != "seat"]}
                    for p in obs.get("players") or []],
        "zones": zone_layout(obs, rules, open_piles),
        "decision": shown_decision,
        "result": obs.get("result"),
        "result_text": result_text(obs.get("result"), [t["name"] for t in obs.get("teams") or ()]),
    }
