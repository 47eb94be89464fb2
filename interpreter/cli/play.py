"""`cardrules play`: one game, printed as it goes, optionally logged as JSON Lines.

Lines printed: "turn N" at each turn start, each event through the ruleset's template
(`events:`; a null template is not printed; an event without a template is printed as
"name: key=value, ..."), each decision as "P1 chooses: <label>", and the result.

When a human plays, the printed lines are masked for them: a card they may not see (a card in a
zone their observation shows as a count) is printed as "a hidden card", another player's
decision about such cards, or with a private prompt (`observation: {private_prompts}`), as
"P2 chooses (hidden)", and an event no human witnessed (its declared `visibility`) is not
printed.

When a person plays, the lines are held and shown above their table at their next decision
(`HumanAgent.hear`: the compact table of interpreter.presentation.terminal), and the rest after
the game's last decision.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any

from .. import GAME
from ..agents import HumanQuit, answer_of, make_agent, view_of
from ..engine.game import on_automatic_choice
from ..lang.values import AbilityRef, CardRef, PlayerRef
from ..logs import write_log
from ..presentation.cards import ability_text, fill_label
from ..presentation.results import outcome_words, scores_words
from ..presentation.summary import event_line as format_event
from ..rules.observing import witness_argument
from .common import agent_seed, split_names


# ---------------------------------------------------------------- readable lines
def value_text(value: Any, hidden: set[int] = frozenset(), names: dict[int, str] | None = None) -> str:
    """An event argument as text: a card by name (a token by its label, from `names`: see
    `Printer.note_tokens`), an ability by its card's name and its label or number, never an id."""
    if isinstance(value, CardRef):
        return "a hidden card" if value.id in hidden else (names or {}).get(value.id, value.defn.name)
    if isinstance(value, AbilityRef):
        if value.card.id in hidden:
            return "a hidden card"
        return ability_text(value.card.defn.name, value.index + 1, value.ability.label, len(value.card.defn.activated))
    if isinstance(value, PlayerRef):
        return f"P{value.seat}"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v, hidden, names) for v in value) if value else "nothing"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "nobody"
    return str(value)


def event_line(events: dict[str, str | None], name: str, args: dict, hidden: set[int] = frozenset(),
               names: dict[int, str] | None = None) -> str | None:
    """The printed line of an event, or None when its template is null."""
    return format_event(events, name, args, {k: value_text(v, hidden, names) for k, v in args.items()})


def result_line(result, team_names: Sequence[str] | None = None) -> str:
    """The printed result: who won (a player, a team, everyone together) or lost together, or
    a draw, with the reason and the turns; a scoring game's scores after it. An unfinished
    game's reason says so ("unfinished: the cap of N decisions was reached")."""
    turns = f"after {result.turns} turn{'s' if result.turns != 1 else ''}"
    d = result.to_dict()
    scores = scores_words(d, team_names)
    return f"result: {outcome_words(d, team_names)} {turns}" + (f"; {scores}" if scores else "")


def _cards_in(value: Any) -> list[CardRef]:
    if isinstance(value, CardRef):
        return [value]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _cards_in(v)]
    return []


def hidden_card_ids(game, seat: int) -> set[int]:
    """Ids of the cards that `seat` may not see (in a zone hidden from them, not revealed)."""
    return {c.id for c in game.cards.values() if not game.visible(c, seat)}


# ---------------------------------------------------------------- the command
class Printer:
    """Prints the new log entries of a game after each decision; with `hold`, keeps the lines
    instead (`take` hands them to a human's next table, `release` prints what is left)."""

    def __init__(self, game, humans: list[int], quiet: bool, out, hold: bool = False) -> None:
        self.game = game
        self.humans = humans
        self.quiet = quiet
        self.out = out
        self.hold = hold
        self.held: list[tuple[str, bool]] = []  # (line, whether a seat not played in person acted)
        self.cursor = 0
        self.decision_text: str | None = None
        self.thought: str | None = None
        self.names: dict[int, str] = {}  # tokens by id -> their label, kept after they are gone
        on_automatic_choice(game, self.note_tokens)
        self.note_tokens()

    def note_tokens(self) -> None:
        """Remember the label of every token in the game that the people playing may see (its
        type's `label:` with the cards in it by name, e.g. 'ability of X'): an event often names a
        token as it is deleted, when its label can no longer be read. Called after each decision
        and at each choice the engine takes on its own (`on_automatic_choice`)."""
        game = self.game
        types = game.rules.ruleset.card_types
        hidden = self.hidden() if self.humans else set()
        for card in list(game.cards.values()):
            ctype = types.get(card.defn.type)
            if ctype is None or not card.defn.token or not ctype.label or card.id in hidden:
                continue
            values = {k: game.read(card, k) for k in card.defn.label_fields}
            if any(c.id in hidden for v in values.values() for c in _cards_in(v)):
                continue
            label = fill_label(ctype.label, {"name": card.defn.name, **{k: value_text(v) for k, v in values.items()}})
            if label is not None:
                self.names[card.id] = label

    def take(self) -> list[tuple[str, bool]]:
        """The held lines, handed over (and forgotten here)."""
        lines, self.held = self.held, []
        return lines

    def release(self) -> None:
        """Print the held lines."""
        for line, _others in self.take():
            self.out.write(line + "\n")
        self.out.flush()

    def hidden(self) -> set[int]:
        ids: set[int] = set()
        for seat in self.humans:
            ids |= hidden_card_ids(self.game, seat)
        return ids

    def before_decision(self, seat: int, option, thought: str | None = None) -> None:
        """Decide how the coming decision is shown (while the chosen cards are where they were);
        `thought`: a line to print after it (how long a searching agent thought)."""
        self.thought = thought
        if seat in self.humans:
            self.decision_text = ""  # the human saw their own answer
        elif self.humans and (any(c.id in self.hidden() for c in _cards_in(option.value))
                              or self.game.pending is not None and self.game.rules.is_private(self.game.pending)):
            self.decision_text = f"P{seat} chooses (hidden)"
        else:
            self.decision_text = None

    def witnessed(self, name: str, args: dict) -> bool:
        """Whether a human player witnessed this event, by its declared visibility (every event
        when nobody plays in person)."""
        seen_by = self.game.rules.ruleset.observing.event_visibility.get(name)
        if seen_by is None or not self.humans:
            return True
        argument = witness_argument(seen_by)
        who = args.get(argument) if argument else None
        return isinstance(who, PlayerRef) and who.seat in self.humans

    def flush(self) -> None:
        new = self.game.log_since(self.cursor, values=True)
        self.cursor += len(new)
        if self.quiet or not new:
            return
        self.note_tokens()
        hidden = self.hidden() if self.humans else set()
        events = self.game.rules.events
        for entry in new:
            kind = entry["type"]
            others = False
            if kind == "event":
                name, args = entry["event"], entry["args"]
                line = event_line(events, name, args, hidden, self.names) if self.witnessed(name, args) else None
            elif kind == "decision":
                others = entry["player"] not in self.humans
                if self.decision_text is not None:
                    line = self.decision_text or None
                    self.decision_text = None
                else:
                    line = f"P{entry['player']} chooses: {entry['label']}"
                if self.thought:
                    line = (line + "\n" if line else "") + self.thought
                    self.thought = None
            else:
                line = None  # the end: the result line follows
            if line is None:
                continue
            if self.hold:
                self.held += [(part, others and not part.startswith(" ")) for part in line.split("\n")]
            else:
                self.out.write(line + "\n")
        self.out.flush()


def thinking_line(agent, seat: int, name: str) -> str | None:
    """How long a searching agent thought about the decision it just took, and how far."""
    search = getattr(agent, "last_search", None)
    if search is None:
        return None
    agent.last_search = None
    return f"  ({name} thought {search.seconds:.2f} s, {search.iterations} iterations)"


def run_play(rules, seed: int | None, players_arg: str | None, log_path: str | None, quiet: bool) -> int:
    out = sys.stdout
    names = split_names(players_arg, rules.player_count, "--players", "random", rules.player_range)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    agents = [make_agent(name, seed=agent_seed(seed, seat)) for seat, name in enumerate(names, start=1)]
    humans = [seat for seat, name in enumerate(names, start=1) if name.strip().lower() == "human"]
    if not quiet:
        out.write(f"{rules.title}: seed {seed}, players {', '.join(f'P{i} {n}' for i, n in enumerate(names, 1))}\n")
    game = rules.new_game(seed=seed, log=True)
    # a person reads the lines since their last decision above their table (HumanAgent.hear)
    printer = Printer(game, humans, quiet, out, hold=bool(humans) and not quiet)
    abandoned = False
    try:
        printer.flush()
        while not game.is_over:
            view = view_of(game)
            agent = agents[view.seat - 1]
            if view.seat in humans and hasattr(agent, "hear"):
                agent.hear(printer.take())
            answer = answer_of(agent, view)
            option = view.options[answer] if type(answer) is int else answer
            printer.before_decision(view.seat, option, thinking_line(agent, view.seat, names[view.seat - 1]))
            game.apply(option)
            printer.flush()
    except HumanQuit:
        abandoned = True
    finally:
        printer.release()
        if log_path:
            write_log(log_path, game, names, "abandoned by a player" if abandoned else None)
    if abandoned:
        out.write(f"game abandoned in turn {game.read(GAME, 'turn')}\n")
    else:
        out.write(result_line(game.result, [t.name for t in game.rules.team_refs]) + "\n")
    out.flush()
    return 1 if not abandoned and game.result.unfinished else 0  # (rules that did not end: exit 1)
