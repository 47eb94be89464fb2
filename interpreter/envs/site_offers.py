"""What each decision site of a ruleset can offer, worked out from its rule code (docs/envs.md
"Actions"), so that the fixed action space gives a site ids only for those: the kinds of element
(card, ability, player) and the plain values its options can be.

A site's options are the items of its `choose`'s source. The analysis follows the source's shape:
a list written out (its items: literals are those values, `labelled(v, ...)` is v, another item is
what its kind says), `a + b` (both), a selection `all x in S where ...` (S), `if .. then a else b`
(both), a local name (every value the enclosing code binds it to), a call of a rule function
(what its body gives), and otherwise the language's kind inference (`Kinds.items`: the cards of a
zone, the players). Where it cannot say (a loop variable, a parameter, a list of lists, a
built-in whose items it does not know), the site may offer anything: it keeps every id. The
answer is a superset of what the site can offer, never less: an option always has an id."""

from __future__ import annotations

from ..lang import ir
from ..lang.ir_analysis import local_bindings
from ..lang.lower import LoweredRuleset, lowered

ANY = None  # what a site may offer when the code does not say: anything
KIND_TOKENS = {"card": "card", "player": "player", "ability": "ability"}
_BLOCKS = ("body", "then", "orelse", "target")  # (the fields of lowered nodes that hold statements)


def site_offers(ruleset, sites) -> list[frozenset | None]:
    """Per decision site (in `sites` order): a frozenset of "card", "ability", "player",
    ("value", (type name, value)) and ("any", type name), or ANY. Read from the lowered code
    (lang/lower.py), as written."""
    from ..rules.checker import value_kinds

    defs = ruleset.definitions
    low = lowered(ruleset, defs)
    kinds = value_kinds(ruleset, defs)
    kinds.lowered_function = low.functions.__getitem__
    analysis = _Analysis(kinds, low.functions)
    found: dict[tuple, frozenset | None] = {}
    for container in _containers(low):
        bindings = _bindings(container)
        local = frozenset(bindings) | frozenset(getattr(container, "params", ()) or ())
        for node in ir.walk(container):
            if type(node) is ir.Ask and node.kind != "may":
                key = (node.span.file, node.span.line, node.span.column)
                offers = analysis.offers(node.options, bindings, local)
                found[key] = ANY if key in found and found[key] != offers else offers
    return [found.get((s.span.file, s.span.line, s.span.column), ANY) for s in sites]


def _containers(low: LoweredRuleset) -> list:
    """The pieces of code a local name is bound within: each definition of the code and card
    files, the set-up, each phase."""
    return [*low.written, *low.steps.values()]


def _bindings(container) -> dict[str, list]:
    found: dict[str, list] = {}
    for node in ir.walk(container):
        for field in _BLOCKS:
            block = getattr(node, field, None)
            if isinstance(block, tuple) and block and isinstance(block[0], ir.Stmt):
                for name, values in local_bindings(block).items():
                    found.setdefault(name, []).extend(values)
    if isinstance(container, tuple):  # (the set-up, a phase: a block of their own)
        for name, values in local_bindings(container).items():
            found.setdefault(name, []).extend(values)
    return found


class _Analysis:
    def __init__(self, kinds, functions: dict[str, ir.Function]) -> None:
        self.kinds = kinds
        self.functions = functions
        self._active: set[int] = set()

    def offers(self, e: ir.Expr, bindings: dict, local: frozenset) -> frozenset | None:
        """What the items of the list `e` can be."""
        if id(e) in self._active:  # (a name bound from itself, a recursive function)
            return ANY
        self._active.add(id(e))
        try:
            return self._offers(e, bindings, local)
        finally:
            self._active.discard(id(e))

    def _offers(self, e: ir.Expr, bindings: dict, local: frozenset) -> frozenset | None:
        kind = type(e)
        if kind is ir.ListOf:
            return _union(self.item(i, bindings, local) for i in e.items)
        if kind is ir.BinOp and e.op == "+":
            return _union((self.offers(e.left, bindings, local), self.offers(e.right, bindings, local)))
        if kind is ir.Select:
            return self.offers(e.source, bindings, local)
        if kind is ir.IfExpr:
            return _union((self.offers(e.then, bindings, local), self.offers(e.orelse, bindings, local)))
        if kind is ir.Local and e.name in local:
            return _union(self.offers(v, bindings, local) if isinstance(v, ir.Expr) else ANY
                          for v in bindings.get(e.name, [None]))
        if kind is ir.Call and e.name in self.functions and not e.kwargs:
            return self._function(e.name, lambda body, b, lo: self.offers(body, b, lo))
        found = self.kinds.items(e, local)
        return frozenset({KIND_TOKENS[found]}) if found in KIND_TOKENS else ANY

    def item(self, e: ir.Expr, bindings: dict, local: frozenset) -> frozenset | None:
        """What one item written in a list can be."""
        if type(e) is ir.Const:
            return frozenset({("value", (type(e.value).__name__, e.value))})
        if type(e) is ir.Call and e.name == "labelled" and e.args:
            return self.item(e.args[0], bindings, local)
        if type(e) is ir.Local and e.name in local:
            if id(e) in self._active:
                return ANY
            self._active.add(id(e))
            try:
                return _union(self.item(v, bindings, local) if isinstance(v, ir.Expr) else ANY
                              for v in bindings.get(e.name, [None]))
            finally:
                self._active.discard(id(e))
        kind = self.kinds.of(e, local)
        if kind in KIND_TOKENS:
            return frozenset({KIND_TOKENS[kind]})
        if kind in ("text", "int"):
            return frozenset({("any", "str" if kind == "text" else "int")})
        if kind == "bool":
            return frozenset({("value", ("bool", True)), ("value", ("bool", False))})
        return ANY

    def _function(self, name: str, of_body) -> frozenset | None:
        fn = self.functions[name]
        key = id(fn)
        if key in self._active:
            return ANY
        self._active.add(key)
        try:
            params = frozenset(fn.params)
            if fn.value is None:
                bindings: dict[str, list] = {}
                for n, values in local_bindings(fn.body).items():
                    bindings.setdefault(n, []).extend(values)
                local = params | frozenset(bindings)
                returns = [n.value for n in ir.walk(fn.body) if type(n) is ir.Return]
                return _union(of_body(r, bindings, local) for r in returns) if returns else ANY
            return of_body(fn.value, {}, params)
        finally:
            self._active.discard(key)


def _union(parts) -> frozenset | None:
    out: set = set()
    for part in parts:
        if part is ANY:
            return ANY
        out |= part
    return frozenset(out)


def describe_offers(offers: frozenset | None) -> str:
    if offers is ANY:
        return "anything"
    shown = sorted(o if isinstance(o, str) else f"{o[0]} {o[1]!r}" for o in offers)
    return ", ".join(shown)

