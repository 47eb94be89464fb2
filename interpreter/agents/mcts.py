"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration draws a determinized game from the acting player's view (`view.determinize`:
what they may not see drawn anew, hidden picks of others included), walks one shared tree down
it by UCT, adds one node, judges it (a playout to the end, or `depth` decisions then the
ruleset's score, or the user's `evaluator`) and backs each player's value (0..1,
`searchvalues.values`) up. Every node is scored for the player who took the decision leading
to it, so any number of players, and any decision of any of them, is searched the same way. An
edge's UCT term counts the iterations in which it was available, not its parent's visits. The
option of the root visited most is chosen.

Edges are options by what they are, never by their label (`option_key`): the same play under
different draws of the unseen is one edge, two different plays with one label are two.

Tree reuse: the subtree under the chosen option is kept; when the same player's next decision
follows from it (the next decision the tree met there is this one: the same decider, the same
number of decisions taken), the search goes on from it, its statistics carried over.

Seeded: the same seed, game and parameters (and the same decisions before, with reuse) give the
same choice, unless `time` cuts searches short. `last_search` keeps the last search's statistics.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from .. import GAME, by_count
from ..lang.values import AbilityRef, CardRef, Labelled, PlayerRef
from .base import DecisionView
from .greedy import best_option
from .registry import AgentSpecError, Param
from .searchvalues import Evaluator, judged_by, load_evaluator, values


class _Node:
    __slots__ = ("seat", "children", "visits", "total", "available", "prior", "priors", "next_at")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who took the decision that leads here (its results are theirs)
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.prior = 0.0  # the evaluator's prior of the option leading here (0 without one)
        self.priors: dict[Hashable, float] | None = None  # the evaluator's priors of the options below
        # (decider, number of decisions taken, turn) of the next decision met below; None: it varied
        self.next_at: tuple | None | bool = False  # (False: not met yet)


class _Cut(Exception):
    """A playout reached its depth."""


@dataclass(frozen=True)
class SearchStats:
    """One search: iterations, seconds, per root option (index, id, label, visits, mean result)
    in the view's order, and the visits carried over from the previous search (tree reuse)."""

    iterations: int
    seconds: float
    options: tuple[tuple[int, str, str, int, float], ...]
    reused: int = 0

    def to_dict(self) -> dict:
        return {"iterations": self.iterations, "seconds": self.seconds, "reused": self.reused,
                "options": [{"index": i, "id": k, "label": label, "visits": v, "mean": m}
                            for i, k, label, v, m in self.options]}


def option_key(game, value: Any, searcher: int, decider: int) -> Hashable:
    """What an option is, as the searching player can tell it, in a determinized `game`: the
    key of its tree edge. A card the searcher sees is itself (its id: visible cards keep their
    ids in every determinization); a card hidden from the searcher is, in the searcher's own
    decision, the place it points at (zone and position: all it can tell of it), and in another
    player's decision, its card name (copies of one card played unseen are one play to the
    searcher). Players, abilities, lists and plain values by what they are; never by a label."""
    t = type(value)
    if t is CardRef:
        if game.visible(value, searcher):
            return ("card", value.id)
        if decider == searcher:
            return ("place", *game.where(value))
        return ("unseen", value.defn.name)
    if t is PlayerRef:
        return ("player", value.seat)
    if t is Labelled:
        return option_key(game, value.value, searcher, decider)
    if t is AbilityRef:
        return ("ability", option_key(game, value.card, searcher, decider), value.index)
    if t is list or t is tuple:
        return tuple(option_key(game, v, searcher, decider) for v in value)
    return (t.__name__, value)


class MctsAgent:
    """ISMCTS over determinized copies of the game: see the module's docstring."""

    PARAMS = (
        Param("iterations", int, 200, 1, help="iterations per decision (default 200; unbounded with time only)"),
        Param("c", float, 0.7, 0.0, help="UCT exploration constant (results are 0..1)"),
        Param("time", float, None, 0.001, help="seconds per decision at most"),
        Param("playout", str, "random", choices=("random", "greedy"), help="how playouts decide"),
        Param("depth", int, 0, 0, help="decisions a playout plays before the evaluation judges it (0: to the end)"),
        Param("score", float, 0.2, 0.0, help="weight of the ruleset's score beside a finished game's result (0..1)"),
        Param("evaluator", str, None, help="module:function judging a position instead of a playout"),
        Param("reuse", str, "on", choices=("on", "off"), help="keep the subtree of the chosen option"),
    )
    SUMMARY = "information-set Monte Carlo tree search"
    searches = True

    def __init__(self, seed: int | str | None = None, iterations: int | None = None, c: float = 0.7,
                 time: float | None = None, playout: str = "random", depth: int = 0, score: float = 0.2,
                 evaluator: str | Evaluator | None = None, reuse: str | bool = "on") -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = iterations if iterations is not None else (None if time is not None else 200)
        self.c = c
        self.time = time
        self.playout = playout
        self.depth = depth
        if not 0.0 <= score <= 1.0:
            raise AgentSpecError(f"score is a weight from 0 to 1, not {score:g}")
        self.score = score
        self.evaluator_spec = evaluator if isinstance(evaluator, str) or evaluator is None else repr(evaluator)
        self.evaluator = load_evaluator(evaluator) if isinstance(evaluator, str) else evaluator
        self.reuse = reuse in ("on", True)
        self.last_search: SearchStats | None = None
        self._kept: tuple | None = None  # (rules, seat, node) kept for the next decision

    @property
    def spec(self) -> str:
        return getattr(self, "name", None) or "mcts"

    def act(self, view: DecisionView) -> int:
        options = view.options
        if len(options) == 1:
            self.last_search = None
            self._kept = None
            return 0
        root, keys = self.search(view)
        ranked = sorted(range(len(keys)), key=lambda i: (-_visits(root, keys[i]), -_mean(root, keys[i]), i))
        choice = ranked[0]
        child = root.children.get(keys[choice])
        self._kept = (view.rules, view.seat, child) if self.reuse and child is not None else None
        return choice

    def search(self, view: DecisionView) -> tuple[_Node, list[Hashable]]:
        """Run the iterations from the view; the root node and the keys of the view's options
        (also summed up in `last_search`)."""
        rng = self.rng
        seat = view.seat
        start = time.perf_counter()
        first = view.determinize(rng)
        keys = [option_key(first, first.pending.value_at(i), seat, seat) for i in range(len(first.pending))]
        root = self._reused(view, first)
        reused = sum(child.visits for child in root.children.values())
        if self.evaluator is not None and root.priors is None:
            root.priors = self._judge(first.clone(), view, keys)[1]
        deadline = start + self.time if self.time is not None else math.inf
        limit = self.iterations if self.iterations is not None else math.inf
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            self._iterate(root, first if done == 0 else view.determinize(rng), rng, view)
            done += 1
        seconds = time.perf_counter() - start
        self.last_search = SearchStats(done, seconds, tuple(
            (i, o.id, o.label, _visits(root, keys[i]), _mean(root, keys[i])) for i, o in enumerate(view.options)),
            reused)
        return root, keys

    def _reused(self, view: DecisionView, game) -> _Node:
        """The node kept from the last search if this decision is the one the tree met next
        there (this player's, after as many decisions, in the same turn), else a new root."""
        kept, self._kept = self._kept, None
        if kept is not None:
            rules, seat, node = kept
            if (rules is view.rules and seat == view.seat
                    and node.next_at == (view.seat, game.decision_count, game.read(GAME, "turn"))):
                return node
        return _Node(view.seat)

    def _iterate(self, root: _Node, game, rng: random.Random, view: DecisionView) -> None:
        node = root
        path = []
        c = self.c
        searcher = view.seat
        judged = None
        while game.result is None:
            seat, options = game.decision()
            n = len(options)
            if n == 1:
                game.apply(0)
                continue
            at = (seat, game.decision_count, game.read(GAME, "turn"))
            if node.next_at is False:
                node.next_at = at
            elif node.next_at != at:
                node.next_at = None
            index_of: dict[Hashable, int] = {}
            for i in range(n):
                index_of.setdefault(option_key(game, options.value_at(i), searcher, seat), i)
            children = node.children
            untried = [k for k in index_of if k not in children]
            for k in index_of:
                child = children.get(k)
                if child is not None:
                    child.available += 1
            if untried:
                priors = node.priors
                if priors:
                    best = max(priors.get(k, 0.0) for k in untried)
                    untried = [k for k in untried if priors.get(k, 0.0) == best]
                key = untried[rng.randrange(len(untried))]
                child = children[key] = _Node(seat)
                if priors:
                    child.prior = priors.get(key, 0.0)
                game.apply(index_of[key])
                path.append(child)
                if self.evaluator is not None and game.result is None:
                    judged, child.priors = self._judge(game, view)
                break
            best_key, best = None, -math.inf
            for k in index_of:
                child = children[k]
                score = (child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                         + child.prior / (1 + child.visits))
                if score > best:
                    best_key, best = k, score
            node = children[best_key]
            game.apply(index_of[best_key])
            path.append(node)
        rewards = judged if judged is not None else self._play(game, rng)
        for child in path:
            child.visits += 1
            child.total += rewards[child.seat - 1]

    def _judge(self, game, view: DecisionView, keys: list | None = None) -> tuple[list[float], dict | None]:
        """The evaluator's values (one per seat) and priors (by option key) of a determinized game."""
        return judged_by(self.evaluator, game, view, self.spec, self.evaluator_spec, keys, option_key)

    def _play(self, game, rng: random.Random) -> list[float]:
        """Play the game on (randomly or greedily, cut at `depth`); each seat's value, 0..1."""
        if game.result is None:
            depth = self.depth or math.inf
            taken = 0
            greedy = self.playout == "greedy"

            def decide(g):
                nonlocal taken
                taken += 1
                if taken > depth:
                    raise _Cut
                return best_option(g, rng)

            def choose(_seat: int, n: int) -> int:
                nonlocal taken
                taken += 1
                if taken > depth:
                    raise _Cut
                return rng.randrange(n)

            try:  # (greedy copies the game at each decision: not fast)
                game.play_out(decide if greedy else by_count(choose), fast=not greedy)
            except _Cut:
                pass
        return values(game, self.score)

    def __repr__(self) -> str:
        return (f"MctsAgent(seed={self.seed!r}, iterations={self.iterations}, c={self.c}, time={self.time}, "
                f"playout={self.playout!r}, depth={self.depth}, score={self.score}, "
                f"evaluator={self.evaluator_spec!r}, reuse={'on' if self.reuse else 'off'})")


def _visits(root: _Node, key: Hashable) -> int:
    child = root.children.get(key)
    return child.visits if child is not None else 0


def _mean(root: _Node, key: Hashable) -> float:
    child = root.children.get(key)
    return child.total / child.visits if child is not None and child.visits else 0.0
