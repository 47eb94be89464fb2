"""A human at a terminal: shows their observation readably, the prompt and the numbered options.

The human agent sees exactly what `game.observation(seat)` holds: the zones they may see card by
card (their own and the public ones), the other zones as counts, the attributes they may see. Input is a number (as listed, from 1), an
option id or an option label; bad input is answered with a clear message and asked again;
`q` or the end of input (Ctrl-D) raises `HumanQuit`.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from .base import DecisionView, HumanQuit

SKIP_CARD_KEYS = ("id", "name", "type")
BUILTIN_GLOBALS = ("turn", "phase", "active")


def _words(name: str) -> str:
    return str(name).replace("_", " ")


def fmt(value: Any) -> str:
    """A value of an observation as short text: cards by name, lists comma-separated."""
    if isinstance(value, dict):
        if "card" in value:
            if value["card"] == "hidden":
                return "(hidden card)"
            return str(value.get("name", f"card {value['card']}"))
        return ", ".join(f"{_words(k)} {fmt(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(fmt(v) for v in value) if value else "-"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "-"
    return str(value)


def card_text(view: dict) -> str:
    """'Name: attr 1, flag, ...' for a card view; empty and false attributes are left out."""
    parts = []
    for key, value in view.items():
        if key in SKIP_CARD_KEYS or value is None or value is False or value == "" or value == []:
            continue
        parts.append(_words(key) if value is True else f"{_words(key)} {fmt(value)}")
    name = str(view.get("name", "?"))
    return f"{name}: {', '.join(parts)}" if parts else name


def render_observation(obs: dict) -> str:
    """The observation of one player as readable text (several lines, no trailing newline)."""
    viewer = obs.get("viewer")
    you = f"P{viewer}"
    lines = [f"== turn {obs.get('turn')} · phase {obs.get('phase') or '-'} · you are {you} =="]
    glob = obs.get("globals") or {}
    shown = [f"{_words(k)} {fmt(v)}" for k, v in glob.items() if k not in BUILTIN_GLOBALS]
    if glob.get("active") is not None:
        shown.insert(0, f"active player {fmt(glob['active'])}")
    if shown:
        lines.append("game: " + "; ".join(shown))
    for player in obs.get("players") or []:
        name = f"P{player.get('seat')}"
        attrs = [f"{_words(k)} {fmt(v)}" for k, v in player.items() if k != "seat"]
        lines.append(f"{name}{' (you)' if name == you else ''}: " + ("; ".join(attrs) or "-"))
    for owner, zones in (obs.get("zones") or {}).items():
        lines.append(f"{owner}{' (you)' if owner == you else ''} zones:")
        empty = []
        for label, content in zones.items():
            if isinstance(content, dict):  # hidden: a count, maybe some revealed cards
                count = content.get("count", 0)
                if not count:
                    empty.append(label)
                    continue
                lines.append(f"  {_words(label)}: {count} card{'s' if count != 1 else ''} (hidden)")
                for card in content.get("revealed") or []:
                    lines.append(f"    revealed: {card_text(card)}")
            elif not content:
                empty.append(label)
            else:
                lines.append(f"  {_words(label)} ({len(content)}):")
                for card in content:
                    lines.append(f"    {card_text(card)}")
        if empty:
            lines.append(f"  empty: {', '.join(_words(e) for e in empty)}")
    return "\n".join(lines)


class HumanAgent:
    """Asks a person at a terminal. `input`/`output` default to stdin/stdout (tests pass their own)."""

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None,
                 show_observation: bool = True) -> None:
        self.input = input
        self.output = output
        self.show_observation = show_observation

    # streams are looked up when used, so a replaced sys.stdin/sys.stdout is honoured
    def _out(self) -> TextIO:
        return self.output if self.output is not None else sys.stdout

    def _in(self) -> TextIO:
        return self.input if self.input is not None else sys.stdin

    def say(self, text: str = "") -> None:
        out = self._out()
        out.write(text + "\n")
        out.flush()

    def show_options(self, view: DecisionView) -> None:
        self.say(f"P{view.seat}, {view.prompt}:")
        width = len(str(len(view.options)))
        for number, option in enumerate(view.options, start=1):
            extra = f"  [{option.id}]" if option.id != option.label else ""
            self.say(f"  {number:>{width}}) {option.label}{extra}")

    def act(self, view: DecisionView):
        if self.show_observation:
            self.say()
            self.say(render_observation(view.observation))
        self.show_options(view)
        n = len(view.options)
        while True:
            out = self._out()
            out.write(f"choose 1-{n} (or an option id or label; ? lists the options, q quits): ")
            out.flush()
            line = self._in().readline()
            if line == "":
                self.say()
                raise HumanQuit("input closed")
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise HumanQuit("quit")
            if text in ("?", "help"):
                self.show_options(view)
                continue
            option, problem = self.match(view, text)
            if option is not None:
                return option
            self.say(problem)

    @staticmethod
    def match(view: DecisionView, text: str):
        """(option, None) for a valid answer, else (None, a message saying what is accepted)."""
        options = view.options
        n = len(options)
        if not text:
            return None, f"please type a number from 1 to {n}, an option id or its label"
        if text.isdigit():
            number = int(text)
            if 1 <= number <= n:
                return options[number - 1], None
            return None, f"{number} is not in the list: type a number from 1 to {n}"
        for option in options:
            if option.id == text:
                return option, None
        for option in options:
            if option.label == text:
                return option, None
        folded = [o for o in options if o.label.casefold() == text.casefold()]
        if len(folded) == 1:
            return folded[0], None
        starts = [o for o in options if o.label.casefold().startswith(text.casefold())]
        if len(starts) == 1:
            return starts[0], None
        if len(starts) > 1:
            return None, (f"{text!r} matches {len(starts)} options ({', '.join(o.label for o in starts[:4])}"
                          f"{', ...' if len(starts) > 4 else ''}): type its number")
        return None, f"{text!r} is not an option: type a number from 1 to {n}, an option id or its label"
