"""A human at a terminal: shows their observation as a compact table, and the numbered moves.

The human agent sees exactly what `game.observation(seat)` holds: the zones they may see card by
card (their own and the public ones), the other zones as counts, the attributes they may see.
The table is drawn by `interpreter.presentation.terminal` (rich), with what changed since their
last decision marked and the log lines the game's runner handed over (`hear`); the options are
offered as distinct moves (`distinct_moves`: an unordered pick once, identical copies once).
Input is a number (as listed, from 1), an option id or a label; an unordered pick of cards
(`choose exactly/up to N`, `presentation.pick_of`) lists the cards instead of every combination,
and the answer is the numbers of the cards picked, in any order, on one line ("1 4 5"; "nothing"
for none where allowed). Bad input is answered with a clear message and asked again; `q` or the end of input (Ctrl-D) raises `HumanQuit`.
"""

from __future__ import annotations

import sys
from typing import TextIO

from ..presentation import Move, Pick, decision_title, distinct_moves, pick_of
from ..presentation.cards import value_text as fmt
from ..presentation.cards import words as _words
from ..presentation.terminal import TerminalTable, console_for, move_lines, pick_lines
from .base import DecisionView, HumanQuit

SKIP_CARD_KEYS = ("id", "name", "type")
BUILTIN_GLOBALS = ("turn", "phase", "active")


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


def moves_of(view: DecisionView) -> list[Move]:
    """The view's options as distinct moves (one move per option without the rules to read)."""
    obs = view.observation
    if view.rules is not None and (obs.get("decision") or {}).get("options"):
        return distinct_moves(obs, view.rules)
    return [Move(o.label, o.index, (o.index,)) for o in view.options]


class HumanAgent:
    """Asks a person at a terminal. `input`/`output` default to stdin/stdout (tests pass their own)."""

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None,
                 show_observation: bool = True) -> None:
        self.input = input
        self.output = output
        self.show_observation = show_observation
        self.heard: list[tuple[str, bool]] = []
        self.table: TerminalTable | None = None

    # streams are looked up when used, so a replaced sys.stdin/sys.stdout is honoured
    def _out(self) -> TextIO:
        return self.output if self.output is not None else sys.stdout

    def _in(self) -> TextIO:
        return self.input if self.input is not None else sys.stdin

    def say(self, text: str = "") -> None:
        out = self._out()
        out.write(text + "\n")
        out.flush()

    def hear(self, lines: list[tuple[str, bool]]) -> None:
        """Log lines of the game since this player's last decision, each with whether another
        seat acted in it: shown above the table at the next decision."""
        self.heard.extend(lines)

    def show_options(self, view: DecisionView, moves: list[Move] | None = None, pick: Pick | None = None) -> None:
        moves = moves_of(view) if moves is None else moves
        title = decision_title(view.observation, view.rules) if view.rules is not None else view.prompt
        console = console_for(self._out())
        for line in (pick_lines(pick, title, view.seat) if pick is not None else move_lines(moves, title, view.seat, view.rules)):
            console.print(line)

    def act(self, view: DecisionView):
        moves = moves_of(view)
        pick = pick_of(view.observation, view.rules) if view.rules is not None else None
        if self.show_observation and view.rules is not None:
            if self.table is None or self.table.rules is not view.rules:
                self.table = TerminalTable(view.rules)
            heard, self.heard = self.heard, []
            self.table.draw(self._out(), view.observation, heard, moves if pick is None else None)
            if pick is not None:
                self.show_options(view, moves, pick)
        else:
            if self.show_observation:
                self.say()
                self.say(render_observation(view.observation))
            self.show_options(view, moves, pick)
        n = len(moves)
        while True:
            out = self._out()
            if pick is not None:
                none = ", or nothing" if pick.least == 0 else ""
                out.write(f"pick by numbers from 1 to {len(pick.cards)}, e.g. 1 3{none} (? lists the cards, q quits): ")
            else:
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
                self.show_options(view, moves, pick)
                continue
            if pick is not None:
                option, problem = self.match_pick(view, text, pick)
                if option is not None:
                    return option
                if problem is not None:
                    self.say(problem)
                    continue
            option, problem = self.match(view, text, moves)
            if option is not None:
                return option
            self.say(problem)

    @staticmethod
    def match_pick(view: DecisionView, text: str, pick: Pick):
        """For a pick: (option, None) for the numbers of a picked set that is an option, (None,
        a message) for numbers that are not, (None, None) for text that is not numbers (matched
        as an option id or label then, e.g. 'nothing')."""
        words = text.replace(",", " ").split()
        if not words or not all(w.isdigit() for w in words):
            return None, None
        numbers = [int(w) for w in words]
        count = len(pick.cards)
        wrong = [k for k in numbers if not 1 <= k <= count]
        if wrong:
            return None, f"{wrong[0]} is not a card in the list: type numbers from 1 to {count}"
        twice = [k for k in set(numbers) if numbers.count(k) > 1]
        if twice:
            return None, f"card {min(twice)} is picked twice: type each number once"
        ids = [pick.cards[k - 1].id for k in numbers]
        index = pick.option_for(ids)
        if index is None:
            return None, pick.why_not(ids)
        return view.options[index], None

    @staticmethod
    def match(view: DecisionView, text: str, moves: list[Move] | None = None):
        """(option, None) for a valid answer, else (None, a message saying what is accepted): a
        move's number, an option's id, a move's or an option's label (any case, or the start of
        exactly one)."""
        options = view.options
        moves = moves_of(view) if moves is None else moves
        n = len(moves)
        if not text:
            return None, f"please type a number from 1 to {n}, an option id or its label"
        if text.isdigit():
            number = int(text)
            if 1 <= number <= n:
                return options[moves[number - 1].option], None
            return None, f"{number} is not in the list: type a number from 1 to {n}"
        for option in options:
            if option.id == text:
                return option, None
        for move in moves:
            if move.label == text:
                return options[move.option], None
        for option in options:
            if option.label == text:
                return option, None
        folded = [m for m in moves if m.label.casefold() == text.casefold()]
        if len(folded) == 1:
            return options[folded[0].option], None
        folded_options = [o for o in options if o.label.casefold() == text.casefold()]
        if len(folded_options) == 1:
            return folded_options[0], None
        starts = [m for m in moves if m.label.casefold().startswith(text.casefold())]
        if len(starts) == 1:
            return options[starts[0].option], None
        if len(starts) > 1:
            return None, (f"{text!r} matches {len(starts)} options ({', '.join(m.label for m in starts[:4])}"
                          f"{', ...' if len(starts) > 4 else ''}): type its number")
        return None, f"{text!r} is not an option: type a number from 1 to {n}, an option id or its label"
