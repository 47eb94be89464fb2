"""What a search backs up: each player's value of a position, from 0 to 1.

`values(game, weight)` judges the end of a playout by the rules: a finished game by its result
(or the ruleset's `reward:`), with the ruleset's score beside it at `weight`; a game stopped at
its cap of decisions, or a playout cut short, by the score alone. A score becomes a value by
placing: the players ranked by it, the first 1, the last 0, ties sharing their places.

`load_evaluator` and `judged_by`: a function of the user's (`mcts:evaluator=module:function`)
that judges a position instead of a playout, its answer checked.
"""

from __future__ import annotations

import importlib
import math
import os
import sys
from collections.abc import Callable, Hashable
from typing import Any

from .base import AgentError
from .registry import AgentSpecError

Evaluator = Callable[[Any, int], Any]


def placings(numbers: list[float]) -> list[float]:
    """Each number's place among them, 0..1: the highest 1, the lowest 0, ties sharing their
    places ((below + equal / 2) / (n - 1)); 0.5 for a single number."""
    n = len(numbers)
    if n == 1:
        return [0.5]
    out = []
    for v in numbers:
        below = sum(1 for w in numbers if w < v)
        equal = sum(1 for w in numbers if w == v) - 1
        out.append((below + equal / 2) / (n - 1))
    return out


def normalised(numbers: list[float], low: float | None = None, high: float | None = None) -> list[float]:
    """Each number within [low, high] as 0..1 (the range declared), or within the range of the
    numbers themselves where none is declared (the lowest 0, the highest 1); 0.5 each when the
    range is empty (all equal)."""
    lo = min(numbers) if low is None else low
    hi = max(numbers) if high is None else high
    if hi <= lo:
        return [0.5 for _ in numbers]
    return [min(1.0, max(0.0, (v - lo) / (hi - lo))) for v in numbers]


def scores(game) -> list[float] | None:
    """Each seat's score as a value, 0..1, or None without one: the placing by the ruleset's
    `statistics.score` (by default its `evaluate:`); else, in a scoring game (`score:`), the
    score normalised over the score attribute's declared `min`..`max`, or over the range the
    seats' scores span in this game where it declares neither."""
    rules = game.rules
    seats = range(1, len(game.players) + 1)
    if rules.statistics.score is not None:
        return placings([rules.score_of(game, s) for s in seats])
    declared = rules.score
    if declared is None:
        return None
    spec = (rules.teams.attributes if declared.per == "team" else rules.ruleset.player_attributes)[declared.attribute]
    numbers = list(game.scores)
    if spec.min is not None and spec.max is not None:
        return normalised(numbers, spec.min, spec.max)
    return normalised(numbers)


def values(game, weight: float) -> list[float]:
    """Each seat's value of the game where a playout stopped, 0..1 (docs/agents.md#mcts):

    - a game its rules finished: its result R, 1 for a seat among its winners (a team's win, a
      shared win: each member), 0 for one among its losers (a shared loss: everyone), 0.5 for a
      draw (with `reward:`, the players' placings by their rewards instead); where the ruleset
      has a score (`scores`), (1 - weight) * R + weight * S, S the seat's score as a value, so
      players with one result are still told apart;
    - a game stopped at its cap of decisions, or a playout cut at `depth`: S alone (0.5 each
      without a score)."""
    rules = game.rules
    seats = range(1, len(game.players) + 1)
    result = game.result
    scored = scores(game)
    if result is not None and not result.unfinished:
        if rules.declares_reward:
            mine = placings([rules.reward(game, s) for s in seats])
        else:
            mine = [result.value(s) for s in seats]
        if scored is None or weight == 0:
            return mine
        return [(1 - weight) * r + weight * s for r, s in zip(mine, scored)]
    if scored is None:
        return [0.5 for _ in seats]
    return scored


def load_evaluator(spec: str) -> Evaluator:
    """The function `module:function` names (the current folder is searched for the module
    too); AgentSpecError if it does not import or is not a function."""
    module_name, colon, function = spec.partition(":")
    module_name, function = module_name.strip(), function.strip()
    if not colon or not module_name or not function:
        raise AgentSpecError(f"evaluator is module:function, not {spec!r}")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # (whatever the user's module raises on import)
        raise AgentSpecError(f"evaluator {spec!r}: cannot import {module_name!r}: "
                             f"{type(err).__name__}: {err}") from None
    found = getattr(module, function, None)
    if found is None or not callable(found):
        raise AgentSpecError(f"evaluator {spec!r}: module {module_name!r} has no function {function!r}")
    return found


def judged_by(evaluator: Evaluator, game, view, agent: str, name: str | None, keys: list | None,
              key_of: Callable) -> tuple[list[float], dict[Hashable, float] | None]:
    """Call `evaluator(game, view.seat)` on a determinized game and check its answer: each
    seat's value and the priors of the pending decision's options (by key), or None. A bad
    answer raises AgentError naming the agent, the evaluator and the view's decision."""
    seat = view.seat
    n = len(game.players)

    def wrong(what: str) -> AgentError:
        return AgentError(f"agent {agent!r} (P{seat}): the evaluator {name} {what} at the decision {view.prompt!r}")

    try:
        answer = evaluator(game, seat)
    except Exception as err:
        raise wrong(f"raised {type(err).__name__}: {err}") from None
    priors = None
    if type(answer) is tuple and len(answer) == 2 and isinstance(answer[1], (list, dict)):
        answer, priors = answer
    if _number(answer):
        v = _checked(answer, wrong, "value")
        if n == 1:
            judged = [v]
        else:
            judged = [v if s == seat else 1.0 - v for s in range(1, n + 1)]
    elif isinstance(answer, (list, tuple)) and len(answer) == n:
        judged = [_checked(x, wrong, f"value of P{i}") for i, x in enumerate(answer, start=1)]
    elif isinstance(answer, dict) and sorted(answer, key=repr) == sorted(range(1, n + 1), key=repr):
        judged = [_checked(answer[s], wrong, f"value of P{s}") for s in range(1, n + 1)]
    else:
        raise wrong(f"returned {answer!r}: give a number from 0 to 1 (the value of P{seat}), one per "
                    f"player (a list of {n}, or a dict by seat), or (value, priors)")
    return judged, _priors(priors, game, seat, keys, key_of, wrong)


def _priors(priors, game, seat: int, keys, key_of, wrong) -> dict[Hashable, float] | None:
    if priors is None or game.pending is None:
        return None
    pending = game.pending
    m = len(pending)
    if isinstance(priors, dict):
        if not all(type(k) is int and 0 <= k < m for k in priors):
            raise wrong(f"returned priors {priors!r}: a dict of priors is by option index, 0..{m - 1}")
        items = list(priors.items())
    elif len(priors) == m:
        items = list(enumerate(priors))
    else:
        raise wrong(f"returned {len(priors)} priors for a decision of {m} options")
    out: dict[Hashable, float] = {}
    for i, p in items:
        p = _checked(p, wrong, f"prior of option {i}")
        k = keys[i] if keys is not None else key_of(game, pending.value_at(i), seat, pending.seat)
        out[k] = max(out.get(k, 0.0), p)
    return out


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and type(x) is not bool


def _checked(x: Any, wrong, what: str) -> float:
    if not _number(x) or not math.isfinite(x) or not 0.0 <= x <= 1.0:
        raise wrong(f"returned {x!r} as a {what}: it must be a number from 0 to 1")
    return float(x)
