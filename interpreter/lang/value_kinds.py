"""`ValueKinds`, the kind inference of the code generator (`CodeGenerator`, codegen.py), on the
rules it shares with the checker's (`KindRules`, kinds.py): what a value of the lowered form
(lang/ir.py) surely is, `none` never: lists (new ones, of cards in the game, of players), texts,
players, and lists that can repeat no option. Each answer lets the generated Python skip a check
or a copy.

What does not depend on a scope (the checker's kind, a new list, a text, a draw from the random
generator) is worked out once per expression node and kept with the IR (`Facts`,
`ValueKinds.facts`), for every emitter (native, resumable, rollout) that reads it; what names hold
(players, lists, lists without repeats) is asked of each scope, from the bindings of a lowered
block (`player_names`, `list_names`, `distinct_names`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import ir
from .builtins import RANDOM as RANDOM_BUILTINS
from .codegen_scope import Scope, may_share
from .ir_analysis import local_bindings
from .kinds import KindRules, called, int_written, is_join, is_selection, name_of, text_written


def _written(e: Any) -> int | str | None:
    """The integer or text written in the code that an expression is, or None."""
    found = int_written(e)
    return found if found is not None else text_written(e)


def builds_new_list(e: ir.Expr) -> bool:
    """A list written out, a selection, a comprehension (of one clause: the code of several is
    a list too, not known to be here)."""
    kind = type(e)
    return kind in (ir.ListOf, ir.Select) or kind is ir.Comprehension and len(e.clauses) == 1


@dataclass(frozen=True)
class Facts:
    """What the kind inference says of one lowered expression wherever it stands (the lowering
    has resolved its names, so no scope changes it): kept alongside the IR (`ValueKinds.facts`)."""

    kind: str | None  # the checker's kind (`Kinds.of`): None when the code does not say
    new_list: bool  # it always gives a new Python list (`ValueKinds.new_list`)
    text: bool  # it always gives a text (`ValueKinds.is_text`)
    draws: bool  # working it out may draw from the game's random generator


class ValueKinds(KindRules):
    """The analyses of `CodeGenerator`: what values of the lowered form surely are, `none` never
    (see the module docstring). `self.names`: the compiler's name table; `self.lowering`: the
    compiler's lowering (a rule function's body is followed in its lowered form); `self._visiting`
    and `self._facts`: set by `CodeGenerator`. What does not depend on the scope is worked out once
    per lowered expression (`facts`), the rest (players, lists held by names, lists without
    repeats) asked of a scope."""

    _facts: dict[int, tuple[ir.Expr, Facts]]

    def _function_body(self, name: str, lowered: bool = True) -> tuple[Any, Any]:
        fn = self.lowering.definition(self.names.functions[name])
        return fn.value, fn.body

    def facts(self, e: ir.Expr) -> Facts:
        """The facts of a lowered expression: worked out once per node (from its children's), on
        first ask, and kept alongside the IR (by node, which the table holds) for every emitter:
        native, resumable and rollout read the same blocks' IR."""
        found = self._facts.get(id(e))
        if found is None:
            found = self._facts[id(e)] = (e, self._facts_of(e))
        return found[1]

    def _facts_of(self, e: ir.Expr) -> Facts:
        kinds = self.names.kinds
        func = e.name if type(e) is ir.Call else None
        draws = any(self._child_draws(child) for child in ir.children(e))
        if func is not None and not draws:
            draws = (self._through_body("draws", func, self._draws, False, self._block_draws)
                     if func in self.names.functions else func in RANDOM_BUILTINS)
        if builds_new_list(e):
            new_list = True
        elif func is not None:
            new_list = (self._through_body("new list", func, self.new_list, False) if func in self.names.functions
                        else func in self.names.zones or self._builtin_gives(func) == "list")
        else:
            new_list = is_join(e) and (self.facts(e.left).new_list or self.facts(e.right).new_list)
        if func is not None:
            text = func not in self.names.functions and self._builtin_gives(func) == "text"
        else:
            text = text_written(e) is not None or is_join(e) and self.facts(e.left).text and self.facts(e.right).text
        return Facts(kinds.of(e) if kinds is not None else None, new_list, text, draws)

    def _child_draws(self, node: ir.Node) -> bool:
        if isinstance(node, ir.Expr):
            return self.facts(node).draws
        return any(self._child_draws(child) for child in ir.children(node))  # (a comprehension's clause)

    def _block_draws(self, block: tuple[ir.Stmt, ...]) -> bool:
        """Whether running a block may draw from the game's random generator (a rule function's)."""
        return any(self.facts(n).draws for n in ir.walk(block) if isinstance(n, ir.Expr))

    def _keeps_items(self, e: ir.Call) -> bool:
        """A call of a built-in whose list holds items of its first argument only (`take(L, n)`)."""
        return bool(e.args) and self._builtin_fact(called(e), "keeps_items")

    def new_list(self, e: ir.Expr) -> bool:
        """Whether an expression always gives a new Python list (no copy or conversion needed)."""
        return self.facts(e).new_list

    def is_list(self, e: ir.Expr, scope: Scope | None = None) -> bool:
        """Whether an expression always gives a Python list (new or not)."""
        name = name_of(e)
        if name is not None:
            return (name == "players" and (scope is None or name not in scope.names)
                    or scope is not None and name in scope.lists)
        return self.new_list(e)

    def is_text(self, e: ir.Expr) -> bool:
        return self.facts(e).text

    def is_card_list(self, e: ir.Expr, scope: Scope) -> bool:
        """Whether an expression always gives a list of cards in the game: a zone's cards, a
        selection from such a list, several of them joined, the first few of one, a function's
        name that holds one (see `Scope.card_lists`)."""
        name = name_of(e)
        if name is not None:
            return name in scope.card_lists
        func = called(e)
        if func is not None:
            if func in self.names.zones:
                return True
            if func in self.names.functions:
                return self._through_body("card list", func, lambda body: self.is_card_list(body, Scope(False)),
                                          False)
            return self._keeps_items(e) and self.is_card_list(e.args[0], scope)
        if is_selection(e):
            return self.is_card_list(e.source, scope)
        return is_join(e) and self.is_card_list(e.left, scope) and self.is_card_list(e.right, scope)

    def _is_card(self, e: ir.Expr, scope: Scope) -> bool:
        name = name_of(e)
        return name is not None and name in scope.cards and name in scope.names

    def _is_handle(self, e: ir.Expr, scope: Scope) -> bool:
        """Whether an expression is a name that holds a card handle (see `Scope.handles`)."""
        name = name_of(e)
        return name is not None and name in scope.handles

    # ------------------------------------------------------------------ names that hold players
    def is_player_list(self, e: ir.Expr, scope: Scope) -> bool:
        """Whether an expression always gives a list of players (`players`, `others(p)`, a
        selection from them)."""
        name = name_of(e)
        if name is not None:
            return name == "players" and name not in scope.names
        func = called(e)
        if func is not None:
            return func not in self.names.functions and self._builtin_fact(func, "gives_players")
        return is_selection(e) and self.is_player_list(e.source, scope)

    def is_player(self, e: ir.Expr, scope: Scope) -> bool:
        """Whether an expression always gives a player (never none): a name that only ever holds
        one, `players[K]` for a seat that exists, `next_player(...)`, the first of `others(...)`
        when there are several players, a function that gives one of these."""
        name = name_of(e)
        if name is not None:
            return name in scope.players
        if type(e) is ir.GetIndex:
            seat = int_written(e.index)
            return (name_of(e.obj) == "players" and "players" not in scope.names
                    and seat is not None and 1 <= seat <= self.names.player_count)
        func = called(e)
        if func is not None:
            if func in self.names.functions:
                return self._through_body("player", func, lambda body: self.is_player(body, Scope(False)), False)
            if func == "first" and len(e.args) == 1 and called(e.args[0]) is not None:
                return (called(e.args[0]) == "others" and "others" not in self.names.functions
                        and self.names.player_count >= 2)
            return self._builtin_gives(func) == "player"
        return False

    def player_names(self, body: tuple[ir.Stmt, ...], params=(), given: frozenset[str] = frozenset()) -> frozenset[str]:
        """The local names of a lowered block that hold a player wherever they are used: every
        `let`, assignment and `for` that binds the name gives a player (parameters are not known,
        except those `given` a player, as long as the block binds them only to players)."""
        return self._names_holding(body, params, lambda v, scope: v is not None and (
            self.is_player_list(v[1], scope) if isinstance(v, tuple) else self.is_player(v, scope)),
            lambda known: Scope(False, players=known), given)

    def list_names(self, body: tuple[ir.Stmt, ...], params=()) -> frozenset[str]:
        """The local names of a lowered block that always hold a list: every `let` and assignment
        that binds the name gives one (a selection, a list, a zone's cards; parameters and loop
        variables are not known)."""
        return self._names_holding(body, params, lambda v, scope: (
            v is not None and not isinstance(v, tuple) and self.is_list(v, scope)),
            lambda known: Scope(False, lists=known))

    # ------------------------------------------------------------------ lists without repeats
    def distinct_names(self, body: tuple[ir.Stmt, ...], params=()) -> dict[str, frozenset]:
        """The local names of a lowered block that always hold a list without repeated options,
        with the tags of what their items are drawn from (see `distinct_tags`): every `let` and
        `=` that binds the name gives such a list (parameters and loop variables are not known)."""
        bindings = local_bindings(body)
        known: dict[str, frozenset] = {}
        for _round in range(4):  # (a name bound from another: known once that one is)
            scope = Scope(False, distinct=known)
            found = {}
            for name, values in bindings.items():
                if name in params or any(v is None or isinstance(v, tuple) for v in values):
                    continue
                tags = [self.distinct_tags(v, scope) for v in values]
                if all(t is not None for t in tags):
                    found[name] = frozenset().union(*tags)
            if found == known:
                break
            known = found
        return known

    def distinct_tags(self, e: ir.Expr, scope: Scope) -> frozenset | None:
        """Tags of what a list's items are drawn from, when the list can repeat no option (None
        when it might): a `choose` from it needs no check for repeats. Items of lists whose tags
        never meet (`may_share`) are never the same option, so their concatenation repeats none.

        A zone's cards never repeat (a card is in one place); a selection from a list, or the
        first or last few of it, keeps that; so do the abilities of cards that never repeat, the
        players, and a list written out of different constants or `labelled` constants."""
        name = name_of(e)
        if name is not None:
            if name == "players" and name not in scope.names:
                return frozenset({("players",)})
            return scope.distinct.get(name)
        if is_selection(e):
            return self.distinct_tags(e.source, scope)
        if is_join(e):
            left, right = self.distinct_tags(e.left, scope), self.distinct_tags(e.right, scope)
            if left is None or right is None or any(may_share(a, b) for a in left for b in right):
                return None
            return left | right
        if type(e) is ir.IfExpr:  # (one of the two lists, whole)
            then, orelse = self.distinct_tags(e.then, scope), self.distinct_tags(e.orelse, scope)
            return None if then is None or orelse is None else then | orelse
        if type(e) is ir.ListOf:
            tags = [self._item_tag(item, scope) for item in e.items]
            if None in tags or any(may_share(a, b) for i, a in enumerate(tags) for b in tags[i + 1:]):
                return None
            return frozenset(tags)
        func = called(e)
        if func is None:
            return None
        if func in self.names.zones:
            constants = tuple((i, _written(a)) for i, a in enumerate(e.args) if _written(a) is not None)
            return frozenset({("zone", func, constants)})
        if func in self.names.functions:
            params = self.names.functions[func].params
            return self._through_body("distinct", func, lambda value: self.distinct_tags(value, Scope(False)), None,
                                      lambda block: self._distinct_block(block, params))
        if self._keeps_items(e):
            return self.distinct_tags(e.args[0], scope)
        if func == "abilities" and len(e.args) == 1:
            cards = self.distinct_tags(e.args[0], scope)
            if cards is None or any(t[0] != "zone" for t in cards):
                return None
            return frozenset(("abilities", *t) for t in cards)
        if self._builtin_fact(func, "gives_players"):
            return frozenset({("players",)})
        return None

    def _distinct_block(self, block: tuple[ir.Stmt, ...], params: tuple[str, ...]) -> frozenset | None:
        """`distinct_tags` of what a function's block gives: those of every value it returns
        (with what its `let`s hold)."""
        scope = Scope(False, distinct=self.distinct_names(block, params))
        tags: frozenset = frozenset()
        for node in ir.walk(block):
            if type(node) is ir.Return:
                found = self.distinct_tags(node.value, scope)
                if found is None:
                    return None
                tags |= found
        return tags or None

    def _item_tag(self, item: ir.Expr, scope: Scope) -> tuple | None:
        """The tag of one item of a list written out: a constant, a `labelled` constant (both by
        their option id), a player."""
        if _written(item) is not None:
            return ("id", str(_written(item)))
        if (called(item) == "labelled" and "labelled" not in self.names.functions
                and item.args and _written(item.args[0]) is not None):
            return ("id", str(_written(item.args[0])))
        if self.is_player(item, scope):
            return ("players",)
        return None

    @staticmethod
    def _names_holding(body: tuple[ir.Stmt, ...], params, gives: Callable, scope_of: Callable,
                       given: frozenset[str] = frozenset()) -> frozenset[str]:
        """The local names whose every binding `gives` the kind of value, in a scope where the
        names still assumed to hold it do (dropped one round at a time until none is left);
        parameters only if `given` the kind of value."""
        bindings = local_bindings(body)
        known = frozenset(set(bindings) - set(params)) | given
        while True:
            scope = scope_of(known)
            keep = frozenset(n for n in known if all(gives(v, scope) for v in bindings.get(n, ())))
            if keep == known:
                return known
            known = keep
