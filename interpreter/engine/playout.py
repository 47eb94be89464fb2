"""Playing a game out: each decision answered by a function as the rules ask it.

`PlayingOut` is a part of `GameState`. `play_out(decide)` runs the rules with `decide` answering each
decision where it is asked (`Decisions` calls `_answer_now`), instead of suspending them until
`apply`; the code is still the resumable form, so a failing `decide` leaves the game waiting at
that decision. With `fast=True` the rules run in their rollout form (interpreter/lang/rollout.py):
a `choose` there is `ask_one` or `ask_now`, which return the answer; a `run`, `use` or `aim`
runs its block at once (`roll_part`, `roll_ability`), and the frames an event pushes are run
right after it by `descend`. Nothing can resume that form half-way, so a failing
`decide` leaves a game that cannot go on (`broken`). `play_from_start` does the same for a game
that has not started, its main program in the rollout form too (`Rules.play_out`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import GameStateError, RuntimeRuleError
from ..lang.runtime import Frame
from ..lang.values import Labelled, PlayerRef
from .decisions import Pending, distinct_values

if TYPE_CHECKING:
    from .state import GameState

# Python errors that rule code raises where a rule is wrong: reported at the rule (`GameState._located`).
# RecursionError: calls without end that nest as Python calls (a function that calls itself, rule
# code in its rollout form), reported by `PlayingOut.too_deep`.
RULE_ERRORS = (TypeError, KeyError, AttributeError, IndexError, ValueError, ZeroDivisionError, NameError,
               RecursionError)


class ByCount:
    """A deciding function that reads nothing of the game but who decides and how many options
    there are: `choose(seat, n)` gives the index of its answer (0 <= index < n). A random agent
    and a search's random playouts are such functions; a play-out asks them without making the
    decision's object (`ask_one`). Called as `decide(game)`, as any deciding function, it reads
    the decision due (`Game.decision()`), so it serves wherever one is taken."""

    __slots__ = ("choose",)

    def __init__(self, choose: Callable[[int, int], int]) -> None:
        self.choose = choose

    def __call__(self, game) -> int:
        seat, options = game.decision()
        return self.choose(seat, len(options))

    def __repr__(self) -> str:
        return f"ByCount({self.choose!r})"


def by_count(choose: Callable[[int, int], int]) -> ByCount:
    """A deciding function for `play_out` from `choose(seat, number of options) -> index`: see
    `ByCount`."""
    return ByCount(choose)


class _Abandoned(Exception):
    """Raised through rule code in its rollout form when `decide` failed (see `play_out`)."""


class _Capped(Exception):
    """Raised through rule code in its rollout form when a decision is due past the game's cap
    of decisions: the game has ended unfinished (`stop_unfinished`)."""


class PlayingOut:
    """Mixin of GameState: `play_out` and what the rollout form of rule code calls."""

    def play_out(self, decide: Callable[[GameState], Any], fast: bool = False) -> int:
        """Play on to the end of the game, `decide(game)` answering each decision as it comes
        (with anything `apply` takes; `decision()` and `observation()` give what is asked).

        The same game as `while not game.is_over: game.apply(decide(game))`, but the rules do
        not stop at each decision: they call `decide` and go on, which is faster (random
        playouts, simulations). If `decide` raises, or gives an illegal answer, that error is
        raised here and the game waits at that decision, as after `decision()`. Returns the
        number of decisions taken.

        `fast=True` is faster still: the rules run as plain Python (their rollout form, written
        on first use), with nothing kept to resume them by. The game is the same, but if `decide`
        fails, the game is left unfinished and cannot go on (`broken` says why): for games that
        are thrown away if that happens, such as simulations and the playouts of a search."""
        if self.broken:
            raise GameStateError(self._no_decision("it cannot be played out"))
        return self._playing_out(decide, fast, self._answer_pending)

    def _answer_pending(self) -> None:
        while self.pending is not None:
            self.apply(self.decide(self))  # (a decider by count reads the decision: `ByCount`)
            self.answered += 1
            interrupted, self._interrupted = self._interrupted, None
            if interrupted is not None:
                raise interrupted

    def play_from_start(self, decide: Callable[[GameState], Any], frame: Frame) -> int:
        """`play_out(decide, fast=True)` of a game that has not started: `frame` is its main
        program's, at the start of the set-up (or where it goes on after its seed-free start:
        `Rules.play_out`), and the main program runs in its rollout form too."""
        self.frames.append(frame)

        def main() -> None:
            self.steps_left = self.rules.step_budget
            try:
                self.rules.compiler.main_rollout(self, frame)
            except RULE_ERRORS as err:  # (as `_run` reports them)
                raise self._located(err, self.frames[-1]) from None
            if self.result is None:
                self.finish(reason="the rules ended without a result")

        return self._playing_out(decide, True, main)

    def roll_turns(self, f: Frame) -> None:
        """The main program's resumable form at the start of a turn while `play_out(fast=True)`
        plays the game (a copy a search plays out, a game played on from a position): the rest of
        the game runs in the turns' rollout form, as if it had been played out from its start
        (`Compiler.turns_rollout`; the frame's locals hold the set-up's names). Returns once the
        game has ended."""
        self.rules.compiler.turns_rollout(self, f)

    def _playing_out(self, decide: Callable[[GameState], Any], fast: bool, play: Callable[[], None]) -> int:
        if self.decide is not None:
            raise GameStateError("play_out is already running in this game")
        if fast:
            self.rules.compiler.compile_rollout()
        self.own_rows()  # (it writes most rows: see `GameState.own_rows`)
        self.answered = 0
        if type(decide) is ByCount and self.logging is not True:  # (a logged decision names its option)
            self.choose_by_count = decide.choose
            if not self.logging and self.watcher is None:  # (nothing reads what each player saw)
                self.sight_kept = False
                if self.rules.plain_moves:  # (nor time stamps: see `stamps_kept`)
                    self.stamps_kept = False
        self.decide = decide
        self.rolling = fast
        try:
            play()
        except _Capped:
            pass
        except _Abandoned:
            interrupted, self._interrupted = self._interrupted, None
            self.broken = f"play_out(fast=True) stopped at a decision: {type(interrupted).__name__}: {interrupted}"
            self.pending = None
            self.halted = True
            raise interrupted from None
        except RecursionError as err:  # (the rollout form nests rule calls as Python calls)
            raise self.too_deep(err, self.frames[-1]) from None
        finally:
            self.decide = None
            self.choose_by_count = None
            self.rolling = False
        return self.answered

    def too_deep(self, err: RecursionError, f: Frame) -> RuntimeRuleError:
        """Calls without end that nested as Python calls, as an error at the rule statement that
        recurs most (in the procedure or function that holds it); the game cannot go on."""
        self.broken = "rule code ran too deep"
        self.halted = True
        spans = Counter(self.rules.compiler.gen.ns.spans_of(err))
        span = spans.most_common(1)[0][0] if spans else None
        card = f" (card {f.self_card.defn.name})" if f.self_card is not None else ""
        return RuntimeRuleError(f"rule code ran too deep, calls or triggered abilities without end, in "
                                f"{self._code_at(span, f)}{card}", span)

    def sight_needed(self, what: str) -> None:
        """GameStateError if what each player saw was not kept (`sight_kept`), which `what` needs."""
        if not self.sight_kept:
            raise GameStateError(f"this game was played out by count (`by_count`), unlogged and unwatched, "
                                 f"which keeps no record of what each player saw: {what} cannot be given "
                                 f"(play it out logged, or with a deciding function that reads the decision)")

    def _not_rolling(self, done: str) -> None:
        if self.rolling:  # (the rules' state lives in Python locals: no frame holds where they are)
            raise GameStateError(f"a game cannot be {done} while play_out(fast=True) plays it: "
                                       f"use play_out without fast for agents that do that")

    def _no_decision(self, what: str) -> str:
        if self.broken:
            return f"the game cannot go on ({self.broken}): {what}"
        return f"the game is over: {what}"

    def roll_part(self, card, part: str) -> None:
        """`run(card, part)` in rule code's rollout form: the part's block runs at once, in its
        rollout form (as `descend` would run the frame `run_part` pushes)."""
        frame = self.part_frame(card, part)
        if frame is not None:
            self._roll(frame)

    def roll_ability(self, ref, verb: str, target: bool) -> None:
        """`use(ability)` (`target` False) or `aim(ability)` (True) in rule code's rollout form:
        as `roll_part` for an activated ability's effect or `target` block."""
        frame = self.ability_frame(ref, verb, target)
        if frame is not None:
            self._roll(frame)

    def _roll(self, frame: Frame) -> None:
        """Run a frame's block to its end, above the running one, in its rollout form."""
        frames = self.frames
        frames.append(frame)
        frame.code.rollout(self, frame)
        if not self.halted:
            frames.pop()
            self.steps_left -= 1
            if self.steps_left < 0:
                self.out_of_steps(frame)

    def ask_now(self, kind: str, n, prompt, values: list, who, span, always_ask: bool = False):
        """A `choose` of several values, an order or a `may`, in rule code's rollout form: its
        answer, asked at once (`play_out(fast=True)`)."""
        box = self._answer_box
        self.choose(box, "", kind, n, prompt, values, who, span, always_ask)
        if self.halted:  # (`decide` failed, or the cap was reached: nothing can resume this code)
            raise _Capped if self.result is not None else _Abandoned
        return box.locals[""]

    def ask_one(self, prompt, values: list, who, span, distinct: bool = False):
        """`ask_now` of one value, the common case: `Decisions.choose_one` and `_answer_now`
        written out, as it runs for most decisions of a simulation and for every choice that
        turns out to have one option. (Sharing choose_one's first lines through a function
        costs a call per choice: 1 to 2% more instructions in the shipped games.)"""
        if len(values) < 2:  # nothing to ask
            only = values[0] if values else None
            return only.value if type(only) is Labelled else only
        candidates = values if distinct else distinct_values(values)
        if len(candidates) == 1:
            only = candidates[0]
            return only.value if type(only) is Labelled else only
        if type(who) is not PlayerRef:
            self.runtime_error("a choice needs a player: write 'by PLAYER' here", span)
        n = self.decisions + 1
        if n > self.max_decisions:
            self.stop_unfinished()
            raise _Capped
        self.decisions = n
        self.steps_left = self.rules.step_budget  # (it counts the steps between two decisions)
        choose = self.choose_by_count
        answer = None
        if choose is not None:  # (a decider by count: no decision object unless its answer is refused)
            try:
                answer = choose(who.seat, len(candidates))
            except BaseException as err:
                self._interrupted = err
                raise _Abandoned from None
            if type(answer) is int and 0 <= answer < len(candidates):
                value = candidates[answer]
                self.answered += 1
                return value.value if type(value) is Labelled else value
        pending = self.pending = Pending(who.seat, "", prompt or "choose", candidates, self, False, span)
        try:
            if choose is None:
                answer = self.decide(self)
            if type(answer) is int and self.logging is not True and 0 <= answer < len(candidates):
                value = candidates[answer]
                if type(value) is Labelled:
                    value = value.value
            else:
                value = self._answer_value(pending, answer)
        except BaseException as err:  # (nothing can resume this code: see `play_out`)
            self._interrupted = err
            raise _Abandoned from None
        # (no copy shares this decision, as `_answer_now`'s may: no game is copied while rolling)
        self.pending = None
        self.answered += 1
        return value

    def _answer_now(self, pending: Pending, f: Frame) -> bool:
        """During `play_out`: answer the decision just offered by code running in `f` and go
        on (True), or keep why it could not be answered and let the game wait at it (False)."""
        budget = self.rules.step_budget  # (it counts the steps between two decisions)
        self.steps += budget - self.steps_left
        self.steps_left = budget
        try:
            value = self._answer_value(pending, self.decide(self))
        except BaseException as err:  # (even an interrupt: it is raised once the rules have stopped)
            self._interrupted = err
            return False
        pending.taken_by(self)
        f.locals[pending.var] = value
        self.pending = None
        self.answered += 1
        return True

