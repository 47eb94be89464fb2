"""Running the steps of `when`, and evaluating checks.

A step may take a decision (checking first who decides, the options and the prompt), label the
cards it created or that its events name, and check the state right after its consequences
(`then` in the step). A step's events and created cards are those since the previous step (for
the first step, since the game started). A rule error while a step runs ends the steps; the
runner reports it (or finds it expected).

A choice with one option is not asked: the engine takes it. The run is told of each (`Run.taken`),
so that a step that fails because it names such a choice says so; with `explicit: true` every
choice with one option is asked instead, and the steps must take it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..engine.decisions import Pending
from ..engine.state import GameState
from ..errors import CardrulesError, GameStateError, IllegalDecisionError, RuntimeRuleError
from ..lang.values import CardRef
from .expectations import Reading, event_matches, shown
from .paths import ReadProblem
from .plan import Check, Step


@dataclass(frozen=True)
class Taken:
    """A choice with one option that the engine took without asking."""

    seat: int  # (0: no player was named to ask)
    prompt: str
    label: str
    option_id: str
    value: Any
    span: Any  # where in the rules the choice is written, or None

    def said(self) -> str:
        who = f"P{self.seat}'s" if self.seat else "a"
        at = f" ({self.span})" if self.span is not None else ""
        return f"{who} decision {self.prompt!r}{at} had one option, {self.label!r}"


@dataclass
class Run:
    """A scenario being played: its game, labelled cards, failures, and a rule error if one
    stopped it (with where: 'when[2]', 'the start'); the choices with one option the engine took
    (`taken`; from `taken_from` on, those since the previous step's decision), or, `explicit`, had
    asked."""

    game: GameState
    labels: dict[str, CardRef]
    failures: list[str] = field(default_factory=list)
    rule_error: RuntimeRuleError | None = None
    rule_error_at: str = ""
    decisions: int = 0
    explicit: bool = False
    taken: list[Taken] = field(default_factory=list)
    taken_from: int = 0

    def __post_init__(self) -> None:
        self.game.one_option = self._one_option

    def _one_option(self, game: GameState, pending: Pending) -> bool:
        if self.explicit:
            return True  # (asked: the steps take it)
        option = pending[0]
        self.taken.append(Taken(pending.seat, pending.prompt, option.label, option.id, option.value, pending.span))
        return False


def failed_checks(run: Run, checks: list[Check], events_from: int, prefix: str) -> list[str]:
    """The failures of these checks now: '{prefix}{path}: what is wrong (file:line:col)'."""
    reading = Reading(run.game, run.labels, events_from)
    failures = []
    for check in checks:
        try:
            problem = check.expected.problem(reading.value(check.path), reading)
        except ReadProblem as err:
            problem = err.message
        except CardrulesError as err:  # an attribute an expected card lacks
            problem = err.message
        if problem:
            failures.append(f"{prefix}{check.path.text}: {problem} ({check.span})")
    return failures


def run_steps(run: Run, steps: list[Step], log_from: int, id_from: int) -> None:
    """Take each step in turn; stop at the first that cannot go on."""
    game = run.game
    for step in steps:
        failed, mark = len(run.failures), len(run.taken)
        went_on = _decide(run, step)
        if len(run.failures) > failed:  # (told of the choices taken since the previous decision)
            _told_of_taken(run, step, failed, run.taken[run.taken_from:mark])
        run.taken_from = mark
        if not went_on:
            return
        _label(run, step, log_from, id_from)
        run.failures += failed_checks(run, step.checks, log_from, f"{step.where} then ")
        log_from, id_from = len(game.log_entries), game.next_id


def _told_of_taken(run: Run, step: Step, failed: int, taken: list[Taken]) -> None:
    """A step's decision failed after the engine took choices with one option: if the step names
    one of them, say so instead (the usual cause); else add them to its failures."""
    if not taken:
        return
    choice = step.raw.get("choose")
    named = next((t for t in taken if _names(run, choice, t)), None)
    head = f"{step.where} ({step.span})"
    if named is not None:
        run.failures[failed:] = [
            f"{head}: {choice!r} was never asked: {named.said()}, so the engine took it without asking, before "
            f"this step. Leave this step out (a step with only `then` can check the state there), or write "
            f"`explicit: true` at the top of the scenario to have every decision asked, one option or not"]
        return
    listed = "; ".join(t.said() for t in taken)
    run.failures[failed:] = [f"{text} (before this step the engine took {len(taken)} decision"
                             f"{'s' if len(taken) > 1 else ''} with one option without asking: {listed})"
                             for text in run.failures[failed:]]


def _names(run: Run, choice: Any, taken: Taken) -> bool:
    """Whether a step's `choose` names the option of a choice taken by the engine."""
    if isinstance(choice, str) and choice.startswith("$") and choice[1:] in run.labels:
        return type(taken.value) is CardRef and taken.value.id == run.labels[choice[1:]].id
    return isinstance(choice, str) and choice in (taken.label, taken.option_id)


_DECIDING = ("choose", "error", "player", "options", "includes", "excludes", "prompt")


def _decide(run: Run, step: Step) -> bool:
    """The step's decision, if it has one; False when the steps cannot go on."""
    game, raw, fail = run.game, step.raw, run.failures.append
    head = f"{step.where} ({step.span})"
    if not any(key in raw for key in _DECIDING):
        return True  # (only checks and labels)
    pending = game.pending
    if pending is None:
        fail(f"{head}: no decision is pending (the game "
             f"{'is over: ' + game.result.reason if game.result else 'is not waiting'})")
        return False
    if "player" in raw and int(str(raw["player"]).lstrip("P")) != pending.seat:
        fail(f"{head}: expected P{raw['player']} to decide, but P{pending.seat} decides '{pending.prompt}'")
        return False
    offered = [o.label for o in pending]
    if "options" in raw and offered != raw["options"]:
        fail(f"{head}: options offered {offered}, expected {raw['options']}")
    for label in raw.get("includes") or []:
        if label not in offered:
            fail(f"{head}: {label!r} is not offered; options: {offered}")
    for label in raw.get("excludes") or []:
        if label in offered:
            fail(f"{head}: {label!r} is offered but must not be")
    if "prompt" in raw and raw["prompt"] != pending.prompt:
        fail(f"{head}: prompt is {pending.prompt!r}, expected {raw['prompt']!r}")
    if "choose" not in raw:
        return True
    choice = raw["choose"]
    if isinstance(choice, str) and choice.startswith("$") and choice[1:] in run.labels:
        card = run.labels[choice[1:]]  # (an option of a card the chooser cannot see is named by its place)
        choice = next((o.id for o in pending if type(o.value) is CardRef and o.value.id == card.id), f"c{card.id}")
    if "error" in raw:
        return _refused(run, step, choice)
    try:
        game.apply(choice)
        run.decisions += 1
    except (IllegalDecisionError, GameStateError) as err:
        fail(f"{head}: {err.message}")
        return False
    except RuntimeRuleError as err:
        run.rule_error, run.rule_error_at = err, f"{step.where} ({step.span})"
        return False
    except CardrulesError as err:
        fail(f"{head}: {err}")
        return False
    return True


def _refused(run: Run, step: Step, choice) -> bool:
    """A decision that must be refused, with a message holding `error`, the state unchanged."""
    game, wanted = run.game, step.raw["error"]
    head = f"{step.where} ({step.span})"
    before = json.dumps(game.to_json(), sort_keys=True)
    try:
        game.apply(choice)
    except (IllegalDecisionError, GameStateError) as err:
        if str(wanted) not in err.message:
            run.failures.append(f"{head}: refused with {err.message!r}, expected a message containing {wanted!r}")
        if json.dumps(game.to_json(), sort_keys=True) != before:
            run.failures.append(f"{head}: the refused decision changed the state")
        return True
    except RuntimeRuleError as err:
        run.rule_error, run.rule_error_at = err, f"{step.where} ({step.span})"
        return False
    run.failures.append(f"{head}: {choice!r} was accepted; expected it to be refused ({wanted!r})")
    return False


def _label(run: Run, step: Step, log_from: int, id_from: int) -> None:
    """Label the cards the step created (`created:`, in order of creation) and the cards its
    events name (`label:`)."""
    game = run.game
    if step.created:
        made = [game.cards[i] for i in range(id_from, game.next_id) if i in game.cards]
        left = list(made)
        for j, entry in enumerate(step.created):
            name = entry.get("card")
            card = next((c for c in left if name is None or c.defn.name == name), None)
            if card is None:
                what = f"a {name!r}" if name else "a card"
                run.failures.append(f"{step.where} created[{j}]: the step created no more than {len(made)} cards "
                                    f"{shown(made)}, not {what} for ${entry['as']} ({step.span})")
                continue
            left.remove(card)
            run.labels[str(entry["as"])] = card
    if step.label:
        events = [(e[1], e[2]) for e in game.log_entries[log_from:] if e[0] == "event"]
        reading = Reading(game, run.labels, log_from)
        for name, spec in step.label.items():
            want = {k: v for k, v in spec.items() if k != "arg"}
            found = next((e for e in events if event_matches(e, want, reading)), None)
            value = found[1].get(spec.get("arg", "card")) if found is not None else None
            if type(value) is not CardRef:
                why = ("no such event in this step" if found is None
                       else f"its {spec.get('arg', 'card')!r} is {shown(value)!r}, not a card")
                run.failures.append(f"{step.where} label.{name}: cannot label ${name} from {want}: {why} "
                                    f"({step.span})")
                continue
            run.labels[name] = value
