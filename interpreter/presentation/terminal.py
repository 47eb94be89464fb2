"""The table as a terminal draws it (rich): compact, with what changed since the player last looked.

One `TerminalTable` per watcher (a human seat, or a replay): `draw(obs, log, moves)` prints a rule
with the turn and phase, the log lines since the last drawing (other seats' decisions in bold),
each player's attributes and zones (hidden zones as counts on one line, piles grouped as
"Name ×2", rows in order), the rest of the game's values, then the numbered moves. Items that
changed since the previous drawing for the same seat are marked with "*" (and coloured on a
terminal). Lines are soft-wrapped: the terminal wraps them, so each printed line is one item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.text import Text

from .cards import printed_text, value_text
from .moves import Move, decision_title
from .picks import Pick
from .summary import changes, grouped, state_summary

CHANGED = "bold yellow"
OTHERS = "bold"
MARK = "*"


def console_for(out: TextIO) -> Console:
    """A rich console writing to `out`: no markup read from game text, no wrapping of our own."""
    return Console(file=out, soft_wrap=True, highlight=False, markup=False, emoji=False)


def _item(text: str, changed: bool) -> Text:
    return Text(text + MARK, style=CHANGED) if changed else Text(text)


def _join(items: list[Text], sep: str = " · ") -> Text:
    out = Text()
    for i, item in enumerate(items):
        if i:
            out.append(sep)
        out.append_text(item)
    return out


def _zone_line(zone: dict, changed: dict) -> Text | None:
    """'name: A · B ×2' for a zone seen card by card; None for an empty one."""
    name = zone["key"].replace(".", " ").replace("_", " ")
    if not zone["cards"]:
        return None
    if zone["layout"] == "pile":
        items = [_item(card["text"] + (f" ×{n}" if n > 1 else ""), card["id"] in changed["cards"])
                 for card, n in grouped(zone["cards"])]
    else:
        items = [_item(card["text"], card["id"] in changed["cards"]) for card in zone["cards"]]
    head = Text(f"{name}: ")
    if zone["hidden"]:
        head = _item(f"{name} {zone['count']} hidden, revealed", (zone["owner"], zone["key"]) in changed["zones"])
        head.append(": ")
    return head + _join(items)


def _counts_line(zones: list[dict], changed: dict) -> Text | None:
    """'deck 25 · hand 5 hidden' for the hidden zones without revealed cards."""
    items = [_item(f"{z['key'].replace('.', ' ').replace('_', ' ')} {z['count']}",
                   (z["owner"], z["key"]) in changed["zones"]) for z in zones]
    return _join(items) + Text(" hidden") if items else None


def state_lines(summary: dict, changed: dict) -> list[Text]:
    """The summary as lines: each owner (the others first, shared, then the viewer) with its
    attributes, then its zones; then the game's own values."""
    viewer = summary["viewer"]
    owners: dict[str, list[dict]] = {}
    for zone in summary["zones"]:
        owners.setdefault(zone["owner"], []).append(zone)
    attributes = {f"P{p['seat']}": p for p in summary["players"]}
    order = [o for o in attributes if o != f"P{viewer}"] + ["shared"] + [f"P{viewer}"]
    lines = []
    for owner in order:
        if owner not in owners and owner not in attributes:
            continue
        head = Text(owner + (" (you)" if owner == f"P{viewer}" else ""), style="bold")
        player = attributes.get(owner)
        if player is not None:
            items = [_item(f"{k.replace('_', ' ')} {value_text(v)}", (player["seat"], k) in changed["players"])
                     for k, v in player["attributes"].items() if v not in (None, [], "")]
            if items:
                head.append(": ")
                head.append_text(_join(items))
        zones = owners.get(owner, [])
        body = [_counts_line([z for z in zones if z["hidden"] and not z["cards"] and z["count"]], changed)]
        body += [_zone_line(zone, changed) for zone in zones]
        body = [Text("  ") + line for line in body if line is not None]
        if player is not None or body:  # (an owner of nothing to show is left out)
            lines += [head, *body]
    extra = [_item(f"{k.replace('_', ' ')} {value_text(v)}", k in changed["globals"])
             for k, v in summary["globals"].items()]
    if summary.get("active"):
        extra.insert(0, Text(f"active {summary['active']}"))
    if extra:
        lines.append(Text("game: ") + _join(extra))
    return lines


def move_lines(moves: Sequence[Move], title: str, seat, rules=None) -> list[Text]:
    """'P1, title:' and the numbered moves; with `rules`, then the printed text (`text = "..."`)
    of each card the moves are about, once per name, on dim lines: '  Stab: Deal 2 damage...'."""
    width = len(str(len(moves)))
    lines = [Text(f"P{seat}, {title}:", style="bold")]
    lines += [Text(f"  {n:>{width}}) {move.label}") for n, move in enumerate(moves, start=1)]
    names = dict.fromkeys(card.get("name") for move in moves for card in move.cards) if rules is not None else {}
    for name in names:
        text = printed_text(name, rules)
        if text:
            lines.append(Text(f"  {name}: {text}", style="dim"))
    return lines


def pick_lines(pick: Pick, title: str, seat) -> list[Text]:
    """'P1, title (pick up to 6 by number):' and the numbered cards that may be picked."""
    wanted = f"exactly {pick.most}" if pick.least == pick.most else \
        f"{pick.least} to {pick.most}" if pick.least else f"up to {pick.most}"
    width = len(str(len(pick.cards)))
    lines = [Text(f"P{seat}, {title} (pick {wanted} by number):", style="bold")]
    lines += [Text(f"  {n:>{width}}) {card.label}") for n, card in enumerate(pick.cards, start=1)]
    return lines


class TerminalTable:
    """Draws one seat's observations one after another, remembering the last per seat."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self.last: dict[int, dict] = {}

    def draw(self, out: TextIO, obs: dict, log: Sequence[tuple[str, bool]] = (),
             moves: Sequence[Move] | None = None, note: str = "", since: str = "your last move",
             log_since: str | None = None) -> None:
        """Print the observation's table to `out`: the log since the last drawing (each line with
        whether another seat acted in it), the state with what changed marked, the moves (if
        given: the decision's title and the numbered moves). `note`: said after the rule;
        `since`: what the marks (and the log, unless `log_since`) are since, in words."""
        console = console_for(out)
        summary = state_summary(obs, self.rules)
        seat = summary["viewer"]
        first = seat not in self.last
        changed = changes(self.last.get(seat), summary)
        self.last[seat] = summary
        head = f"turn {summary['turn']} · phase {summary['phase'] or '-'} · you are P{seat}"
        console.print()
        console.rule(head + (f" · {note}" if note else ""), style="dim")
        if log:
            console.print(Text("so far:" if first else f"since {log_since or since}:", style="dim"))
            for line, others in log:
                console.print(Text(line, style=OTHERS if others else ""))
        for line in state_lines(summary, changed):
            console.print(line)
        if any(changed.values()):
            console.print(Text(f"({MARK} changed since {since})", style="dim"))
        if moves is not None:
            for line in move_lines(moves, decision_title(obs, self.rules), seat, self.rules):
                console.print(line)
