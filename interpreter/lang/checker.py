"""Check card and rule code against what a ruleset declares, before anything is compiled.

Finds unknown names (locals, zones, procedures, functions, keywords, attributes, events, card
names, types) with did-you-mean hints, wrong arity, zones written with the arguments of another
kind of zone, `choose` where no decision can be taken, `break` outside a loop, assignments to
things that cannot be set, and values of a known wrong type (see kinds.py) written into a global
or an attribute. All errors of a load are
collected and reported together, each with file:line:col.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field

from ..errors import NO_SPAN, RuleWarning, Span, ValidationError, did_you_mean
from . import ast
from .analysis import gives_value  # noqa: F401  (what `Context.value_procedures` holds)
from .builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from .builtins import PROCEDURES as BUILTIN_PROCEDURES
from .code_members import CodeCallChecks, code_call
from .effect_checks import check_duration, check_effects_statement
from .kinds import KIND_WORDS, PROPERTY_KINDS, Held, Kinds, held_words
from .param_kinds import CONTRARY, FixedBy, builtin_argument_problems
from .printer import to_source
from .resultchecks import ResultChecks
from .reveal_to import reveal_target_problems
from .runtime import CONTEXT_NAMES, TYPE_NAMES
from .values import CARD_PROPERTIES

BUILTIN_EVENTS = {"turn_start": ("turn", "player"), "phase_start": ("phase",), "moved": ("card", "from", "to")}
WRITABLE_PROPERTIES = {"part", "controller"}


@dataclass
class Context:
    """Everything a ruleset declares that code may name."""

    zones: dict[str, tuple[bool, tuple[str, ...]]]  # name -> (per player, rows)
    procedures: dict[str, tuple[str, ...]]
    functions: dict[str, tuple[str, ...]]
    keywords: dict[str, tuple[str, ...]]
    attributes: set[str]  # card and player attributes
    globals: set[str]
    options: set[str]
    events: dict[str, set[str]] = field(default_factory=dict)  # event -> argument names
    card_names: set[str] = field(default_factory=set)
    card_types: set[str] = field(default_factory=set)
    # the kinds of values, and what each global ("game", name) and attribute ("attribute", name)
    # holds with where it is declared: a value of a known wrong kind is refused
    kinds: Kinds | None = None
    held: dict[tuple[str, str], tuple[Held, Span | None]] = field(default_factory=dict)
    # the procedures that give a value (`return EXPR` in their body): callable in expressions
    value_procedures: set[str] = field(default_factory=set)
    # the parameters of procedures and functions whose kind their body fixes (param_kinds.py)
    parameter_kinds: dict[str, dict[str, FixedBy]] = field(default_factory=dict)
    # the team attributes (`teams: {attributes}`); None: the ruleset declares no teams
    team_attributes: set[str] | None = None
    held_by_others: set[str] = field(default_factory=set)  # attributes of players and cards
    # the card attributes that hold code (type function or condition) -> their parameters
    code_attributes: dict[str, tuple[str, ...]] = field(default_factory=dict)


# The statements a function's block may hold: it works out a value and changes nothing.
FUNCTION_STATEMENTS = (ast.Let, ast.Assign, ast.If, ast.For, ast.Repeat, ast.While, ast.Break, ast.Return)



class Checker(CodeCallChecks, ResultChecks):
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.errors: list[ValidationError] = []
        self.warnings: list[RuleWarning] = []  # what loads but likely means something else
        # what a `return` means in the code being checked: "procedure", "function", "replacement"
        # (of a procedure that gives a value), or None (it has no place there)
        self._returns: str | None = None
        self._decisions_ok = True  # False in a function's block: no decision, no procedure call
        self._branches = 0  # > 0 inside a branch of `if ... then ... else`

    def error(self, message: str, span: Span, hint: str = "") -> None:
        self.errors.append(ValidationError(message, span, hint))

    # --------------------------------------------------------------- entry points
    def procedure(self, p: ast.Procedure) -> None:
        self._returns = "procedure"
        try:
            self.block(p.body, set(p.params), loop=0, effects=True)
        finally:
            self._returns = None

    def function(self, fn: ast.Function) -> None:
        if not isinstance(fn.body, ast.BlockValue):
            self.expr(fn.body, set(fn.params), choose_ok=False)
            return
        self._returns, self._decisions_ok = "function", False
        try:
            self.block(fn.body.body, set(fn.params), loop=0, effects=False)
        finally:
            self._returns, self._decisions_ok = None, True

    def keyword_def(self, k: ast.KeywordDef) -> None:
        for a in k.abilities:
            self.ability(a, set(k.params))

    def card(self, c: ast.CardDef) -> None:
        for kw in c.keywords:
            self.keyword_use(kw.name, kw.args, kw.span)
        for a in c.abilities:
            self.ability(a, set())
        for p in c.parts:
            self.block(p.body, set(), loop=0, effects=True)
            for a in p.abilities:
                self.ability(a, set())

    def code(self, body: tuple[ast.Stmt, ...], scope: set[str] | None = None) -> None:
        self.block(body, set(scope or ()), loop=0, effects=True)

    def condition(self, e: ast.Expr, scope: set[str] | None = None) -> None:
        self.expr(e, set(scope or ()), choose_ok=False)

    # --------------------------------------------------------------- abilities
    def keyword_use(self, name: str, args, span: Span) -> None:
        if name not in self.ctx.keywords:
            self.error(f"unknown keyword {name!r}{did_you_mean(name, self.ctx.keywords)}", span,
                       "keywords: " + ", ".join(sorted(self.ctx.keywords)))
            return
        params = self.ctx.keywords[name]
        if len(args) != len(params):
            need = f"a parameter ({', '.join(params)})" if len(params) == 1 else f"{len(params)} parameters"
            self.error(f"keyword {name!r} takes {need if params else 'no parameter'}, "
                       f"got {len(args)}", span)

    def ability(self, a, scope: set[str]) -> None:
        if isinstance(a, ast.Static):
            for eff in a.effects:
                if isinstance(eff, ast.StaticModify):
                    self.modify_target(eff.target, scope, False)
                    self.expr(eff.amount, scope, choose_ok=False)
                else:
                    if eff.keyword not in scope:  # a keyword parameter names its keyword at run time
                        self.keyword_use(eff.keyword, eff.args, eff.span)
                    self.expr(eff.target, scope, choose_ok=False)
                if eff.condition is not None:
                    self.expr(eff.condition, scope, choose_ok=False)
        elif isinstance(a, ast.Triggered):
            if a.event not in self.ctx.events and a.event not in BUILTIN_EVENTS:
                self.error(f"no event {a.event!r} is ever emitted"
                           f"{did_you_mean(a.event, [*self.ctx.events, *BUILTIN_EVENTS])}", a.span)
            self._ability_body(a, scope)
        elif isinstance(a, ast.Replacement):
            if a.event not in self.ctx.procedures:
                self.error(f"'instead of' needs a procedure; {a.event!r} is not one"
                           f"{did_you_mean(a.event, self.ctx.procedures)}", a.span)
            self._returns = "replacement" if a.event in self.ctx.value_procedures else None
            try:
                self._ability_body(a, scope)
            finally:
                self._returns = None
        else:
            if a.cost is not None:
                self.expr(a.cost, scope, choose_ok=False)
            if a.target is not None:
                self.block(a.target, set(scope), loop=0, effects=True)
            self._ability_body(a, scope)

    def _ability_body(self, a, scope: set[str]) -> None:
        if a.condition is not None:
            self.expr(a.condition, scope, choose_ok=False)
        self.block(a.body, set(scope), loop=0, effects=True)

    def modify_target(self, target: ast.Expr, scope: set[str], choose_ok: bool) -> None:
        if not isinstance(target, ast.Attribute):
            self.error("'modify' needs an attribute to change, like self.attack", target.span)
            return
        self.modified_global(target, scope)
        self.expr(target, scope, choose_ok)

    def modified_global(self, target: ast.Attribute, scope: set[str]) -> None:
        """`modify game.NAME ...`: modifiers change what reading a card's or a player's attribute
        gives; a global is read as it is stored, so a modifier on one would do nothing."""
        if isinstance(target.obj, ast.Name) and target.obj.id == "game" and "game" not in scope:
            self.error(f"'modify' works on an attribute of a card or a player, not on a global: "
                       f"game.{target.name} always reads its stored value", target.span,
                       f"set it instead: game.{target.name} += ..., and back when the effect should end")

    # --------------------------------------------------------------- statements
    def block(self, body, scope: set[str], loop: int, effects: bool) -> None:
        for s in body:
            self.stmt(s, scope, loop)

    def stmt(self, s: ast.Stmt, scope: set[str], loop: int) -> None:
        e = self.expr
        if self._returns == "function" and not isinstance(s, FUNCTION_STATEMENTS):
            self.error("a function only works out a value: this statement changes the game or takes a decision; "
                       "write it in a procedure (which may give a value with 'return')", s.span,
                       "a function's block holds let, =, if, for, repeat, while, break and return")
            return
        if self._returns == "function" and isinstance(s, ast.Assign) and not isinstance(s.target, ast.Name):
            self.error("a function only works out a value: it cannot set an attribute or a global", s.span,
                       "write it in a procedure (which may give a value with 'return')")
            return
        if isinstance(s, ast.Return):
            e(s.value, scope)
            if self._returns is None:
                self.error("'return' gives a value only in a procedure, a function or the replacement of a "
                           "procedure that gives one; to end this code, write 'stop'", s.span)
            return
        if isinstance(s, ast.Let):
            e(s.value, scope)
            if s.name in CONTEXT_NAMES:
                self.error(f"{s.name!r} is a built-in name; choose another", s.span)
            scope.add(s.name)
        elif isinstance(s, ast.Assign):
            e(s.value, scope)
            self.glued_sign(s)
            t = s.target
            if isinstance(t, ast.Attribute):
                self.written(t, s.op, s.value, scope)
            if isinstance(t, ast.Name):
                if t.id in CONTEXT_NAMES:
                    self.error(f"cannot assign to {t.id!r}", t.span)
                elif t.id not in scope:
                    self.error(f"unknown name {t.id!r}{did_you_mean(t.id, scope)}", t.span,
                               f"introduce it first with 'let {t.id} = ...'")
            elif isinstance(t, ast.Attribute):
                if isinstance(t.obj, ast.Name) and t.obj.id == "options":
                    self.error("options are fixed for a game; they cannot be set", t.span)
                elif isinstance(t.obj, ast.Name) and t.obj.id == "event":
                    self.error("event arguments cannot be set", t.span)
                elif t.name in CARD_PROPERTIES and t.name not in WRITABLE_PROPERTIES:
                    self.error(f"'{t.name}' is a built-in property that cannot be set", t.span)
                e(t, scope)
            else:
                self.error("only a name or an attribute (x.attr) can be assigned", t.span)
        elif isinstance(s, ast.CallStmt):
            c = s.call
            if not isinstance(c, ast.Call):
                self.error("a statement must do something: a call, an assignment or a keyword statement",
                           s.span)
                return
            self.call(c, scope, statement=True)
        elif isinstance(s, ast.If):
            for br in s.branches:
                e(br.condition, scope)
                self.block(br.body, set(scope), loop, True)
            if s.orelse is not None:
                self.block(s.orelse, set(scope), loop, True)
        elif isinstance(s, ast.For):
            e(s.iterable, scope)
            self.block(s.body, scope | {s.var}, loop + 1, True)
        elif isinstance(s, ast.Repeat):
            e(s.count, scope)
            self.block(s.body, set(scope), loop + 1, True)
        elif isinstance(s, ast.While):
            e(s.condition, scope)
            self.block(s.body, set(scope), loop + 1, True)
        elif isinstance(s, ast.Move):
            e(s.card, scope)
            self.zone_ref(s.zone, scope, need_one=True)
            if s.position is not None:
                e(s.position, scope)
        elif isinstance(s, ast.Create):
            e(s.card_name, scope)
            if isinstance(s.card_name, ast.StrLit) and s.card_name.value not in self.ctx.card_names:
                self.error(f"no card named {s.card_name.value!r}"
                           f"{did_you_mean(s.card_name.value, self.ctx.card_names)}", s.card_name.span)
            self.zone_ref(s.zone, scope, need_one=True)
            for a in s.attrs:
                if a.name not in self.ctx.attributes:
                    self.error(f"unknown attribute {a.name!r}{did_you_mean(a.name, self.ctx.attributes)}", a.span)
                else:
                    self.written(ast.Attribute(ast.Name("self"), a.name), "=", a.value, scope)
                e(a.value, scope)
            if s.bind:
                scope.add(s.bind)
        elif isinstance(s, ast.Shuffle):
            self.zone_ref(s.zone, scope, need_one=True)
        elif isinstance(s, ast.Emit):
            for a in s.args:
                e(a.value, scope)
        elif isinstance(s, ast.Attach):
            e(s.card, scope)
            e(s.target, scope)
        elif isinstance(s, (ast.Detach, ast.Delete)):
            e(s.card, scope)
        elif isinstance(s, ast.ModifyUntil):
            self.modify_target(s.target, scope, True)
            e(s.amount, scope)
            check_duration(self, s, scope)
        elif isinstance(s, ast.GrantUntil):
            if s.keyword not in scope:
                self.keyword_use(s.keyword, s.args, s.span)
            e(s.target, scope)
            check_duration(self, s, scope)
        elif isinstance(s, (ast.Silence, ast.RemoveEffects)):
            check_effects_statement(self, s, scope)
        elif isinstance(s, ast.May):
            self.prompt_fields(s.label, scope, s.span)
            if s.chooser is not None:
                e(s.chooser, scope)
            self.block(s.body, set(scope), loop, True)
            if s.orelse is not None:
                self.block(s.orelse, set(scope), loop, True)
        elif isinstance(s, ast.Break):
            if loop == 0:
                self.error("'break' outside a loop", s.span)
        elif isinstance(s, (ast.Win, ast.Lose)):
            e(s.player, scope)
            self.one_player(s.player, scope, "win" if isinstance(s, ast.Win) else "lose")
            if s.reason_value is not None:  # (a reason that shows values)
                e(s.reason_value, scope)
        elif isinstance(s, ast.Tie) and s.reason_value is not None:
            e(s.reason_value, scope)

    def written(self, target: ast.Attribute, op: str, value: ast.Expr, scope: set[str]) -> None:
        """A value whose kind the code says must fit the type of the global or attribute it is
        written into (`+=` and `-=` of a number add a number)."""
        if self.ctx.kinds is None:
            return
        kind = self.ctx.kinds.of(value, scope)
        if kind is None or kind == "none":
            return
        obj = target.obj
        if isinstance(obj, ast.Name) and obj.id in ("options", "event"):
            return
        game = isinstance(obj, ast.Name) and obj.id == "game"
        slot = self.ctx.held.get(("game" if game else "attribute", target.name))
        if slot is not None:
            held, span = slot
            what, declared, where = held.what, held.declared, f" at {span}" if span is not None else ""
        elif target.name in WRITABLE_PROPERTIES and not game:
            what, declared, where = f"'{target.name}'", frozenset([PROPERTY_KINDS[target.name]]), ""
        else:
            return
        if op == "=":
            if kind in declared:
                return
            message = f"cannot set {what} to {KIND_WORDS[kind]}"
        elif declared == {"int"} and kind != "int":
            message = f"cannot {'add' if op == '+=' else 'subtract'} {KIND_WORDS[kind]} {'to' if op == '+=' else 'from'} {what}"
        else:
            return
        self.error(f"{message}: it holds {held_words(declared)}", value.span,
                   f"{what} is declared{where}" if where else "")

    def glued_sign(self, s: ast.Assign) -> None:
        """`x =- 2` sets x to -2 but reads like a typo of `x -= 2`: a warning at the `=` (with a
        space, `x = -2`, nothing is said)."""
        if s.op != "=" or s.op_span is NO_SPAN:
            return
        first = s.value
        while isinstance(first, ast.BinOp):  # (`x =- 2 * y`: the sign is the first operand's)
            first = first.left
        if isinstance(first, ast.Neg) and (first.span.line, first.span.column) == (s.op_span.line,
                                                                                  s.op_span.end_column):
            self.warnings.append(RuleWarning(
                f"'=-' sets {to_source(s.target)} to {to_source(s.value)}; did you mean '-=', which subtracts?",
                s.op_span, "write '-=' to subtract, or '= -' with a space to set a negative value"))

    def argument_kinds(self, c: ast.Call, what: str, params: tuple[str, ...], scope: set[str]) -> None:
        """An argument whose kind the code says must suit the parameter it is passed as, where
        the callee's body fixes that parameter's kind (param_kinds.py)."""
        fixed = self.ctx.parameter_kinds.get(c.func)
        if not fixed or self.ctx.kinds is None:
            return
        pairs = [*zip(params, c.args), *((a.name, a.value) for a in c.kwargs)]
        for param, arg in pairs:
            use = fixed.get(param)
            if use is None:
                continue
            kind = self.ctx.kinds.of(arg, scope)
            if kind in CONTRARY[use.kind]:
                self.error(f"{what} {c.func!r} takes {KIND_WORDS[use.kind]} as {param!r}, not {KIND_WORDS[kind]}: "
                           f"{use.reason(param)}", arg.span)

    def prompt_fields(self, text: str | None, scope: set[str], span: Span) -> None:
        """`{name}` and `{name.attr}` in a prompt must name a value in scope."""
        if not text or "{" not in text:
            return
        try:
            fields = [f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None]
        except ValueError as err:
            self.error(f"the prompt {text!r} has a stray brace ({err}); write {{{{ or }}}} for one", span)
            return
        for field_name in fields:
            head, *attrs = field_name.split(".")
            if not head.isidentifier():
                self.error(f"the prompt {text!r} shows {{{field_name}}}: write a name, like {{card}}", span)
            elif head not in scope and head not in CONTEXT_NAMES:
                self.error(f"the prompt {text!r} shows {{{head}}}, but {head!r} has no value here"
                           f"{did_you_mean(head, [*scope, *CONTEXT_NAMES])}", span)
            for attr in attrs:
                if attr not in self.ctx.attributes and attr not in CARD_PROPERTIES:
                    self.error(f"unknown attribute {attr!r} in the prompt {text!r}"
                               f"{did_you_mean(attr, [*self.ctx.attributes, *CARD_PROPERTIES])}", span)

    def until(self, event: str, span: Span) -> None:
        if event not in self.ctx.events and event not in BUILTIN_EVENTS:
            self.error(f"'until {event}': no event {event!r} is ever emitted"
                       f"{did_you_mean(event, [*self.ctx.events, *BUILTIN_EVENTS])}", span)

    def zone_ref(self, z: ast.Expr, scope: set[str], need_one: bool) -> None:
        if isinstance(z, ast.Name) and z.id in self.ctx.zones and z.id not in scope:
            self.error(self.zone_usage(z.id), z.span)
            return
        if not (isinstance(z, ast.Call) and z.func in self.ctx.zones):
            name = z.func if isinstance(z, ast.Call) else (z.id if isinstance(z, ast.Name) else "")
            self.error(f"expected a zone, such as hand(you){did_you_mean(name, self.ctx.zones) if name else ''}",
                       z.span, "zones: " + ", ".join(sorted(self.ctx.zones)))
            return
        self.zone_call(z, scope, need_one)

    def zone_usage(self, name: str) -> str:
        """What kind of zone a name is, and how code names one of its kind."""
        per_player, rows = self.ctx.zones[name]
        row = f'"{rows[0]}"' if rows else ""
        if per_player and rows:
            return f"{name!r} is a zone of each player, made of rows: write {name}(p, {row})"
        if per_player:
            return f"{name!r} is a zone of each player: write {name}(p)"
        if rows:
            return f"{name!r} is a shared zone made of rows: write {name}({row}) with no player"
        return f"{name!r} is a shared zone: write {name}() with no player"

    def zone_call(self, z: ast.Call, scope: set[str], need_one: bool) -> None:
        per_player, rows = self.ctx.zones[z.func]
        want = int(per_player) + int(bool(rows))
        kinds = [self.ctx.kinds.of(a, scope) if self.ctx.kinds is not None else None for a in z.args]
        if len(z.args) > want:  # (a player for a shared zone, most often)
            self.error(self.zone_usage(z.func), z.span)
        elif per_player and z.args and kinds[0] not in (None, "none", "player"):
            self.error(self.zone_usage(z.func), z.args[0].span, f"the first argument of {z.func}(...) is its player")
        elif not per_player and rows and z.args and kinds[0] == "player":
            self.error(self.zone_usage(z.func), z.args[0].span)
        elif need_one and len(z.args) < want:
            if per_player and rows and len(z.args) == 1:
                self.error(f"zone {z.func!r} is made of rows ({', '.join(rows)}): say which here, like "
                           f'{z.func}(p, "{rows[0]}")', z.span)
            else:
                self.error(self.zone_usage(z.func), z.span,
                           f"{z.func}() with no player is every player's cards, and only an expression may read it"
                           if per_player else "")
        if rows and len(z.args) == want and isinstance(z.args[-1], ast.StrLit) and z.args[-1].value not in rows:
            row = z.args[-1]
            self.error(f"zone {z.func!r} has no row {row.value!r}{did_you_mean(row.value, rows)}", row.span,
                       "rows: " + ", ".join(rows))
        for a in z.args:
            self.expr(a, scope)

    # --------------------------------------------------------------- expressions
    def call(self, c: ast.Call, scope: set[str], statement: bool, choose_ok: bool = True) -> None:
        ctx = self.ctx
        called = code_call(c, ctx.functions)
        if called is not None:  # `c.NAME(...)`: a card's code
            self.code_call(c, called, scope, choose_ok)
            return
        for a in c.args:
            self.expr(a, scope, choose_ok)
        for a in c.kwargs:
            self.expr(a.value, scope, choose_ok)
        name = c.func
        if name in ctx.procedures:
            if not statement and name not in ctx.value_procedures:
                self.error(f"procedure {name!r} does something and has no value: call it as a statement",
                           c.span, f"to use a value from it, end it with 'return VALUE' (procedure {name} ... "
                                   "{ ... return x })")
            elif not statement and not (choose_ok and self._decisions_ok):
                self.error(f"procedure {name!r} can only be called in an effect's statements (not in functions, "
                           "static abilities, conditions or filters)", c.span)
            elif not statement and self._branches:
                self.error(f"procedure {name!r} cannot be called inside 'if ... then ... else': it would run "
                           "before the test, whichever branch is taken", c.span,
                           "write an if statement: if C { let x = ... } else { ... }")
            params = ctx.procedures[name]
            if len(c.args) > len(params):
                self.error(f"procedure {name!r} takes {len(params)} argument(s) ({', '.join(params)}), "
                           f"got {len(c.args)}", c.span)
            given = set(params[: len(c.args)])
            for a in c.kwargs:
                if a.name not in params:
                    self.error(f"procedure {name!r} has no parameter {a.name!r}{did_you_mean(a.name, params)}",
                               a.span)
                given.add(a.name)
            missing = [p for p in params if p not in given]
            if missing:
                self.error(f"procedure {name!r} is missing {', '.join(missing)}", c.span)
            self.argument_kinds(c, "procedure", params, scope)
            return
        if c.kwargs:
            self.error(f"{name!r} takes no named arguments", c.span)
        if name in ctx.functions:
            params = ctx.functions[name]
            if len(c.args) != len(params):
                self.error(f"function {name!r} takes {len(params)} argument(s), got {len(c.args)}", c.span)
            self.argument_kinds(c, "function", params, scope)
        elif name in ctx.zones:
            self.zone_call(c, scope, need_one=False)
        elif name in BUILTIN_FUNCTIONS:
            builtin = BUILTIN_FUNCTIONS[name]
            if name in ("team", "members"):
                self.team_use(c, scope)
            lo, hi = builtin.arity
            if not lo <= len(c.args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                self.error(f"{name!r} takes {want} argument(s), got {len(c.args)}", c.span)
            if self.ctx.kinds is not None:
                for message, span in builtin_argument_problems(c, builtin, self.ctx.kinds, scope):
                    self.error(message, span)
        elif name in BUILTIN_PROCEDURES:
            if not statement:
                self.error(f"{name!r} does something and has no value: call it as a statement", c.span)
            lo, hi = BUILTIN_PROCEDURES[name].arity
            if not lo <= len(c.args) <= hi:
                self.error(f"{name!r} takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), got {len(c.args)}",
                           c.span)
            if name == "reveal" and len(c.args) == 2 and self.ctx.kinds is not None:
                for message, span, hint in reveal_target_problems(c.args[1], self.ctx.kinds, scope):
                    self.error(message, span, hint)
        else:
            known = [*ctx.procedures, *ctx.functions, *ctx.zones, *BUILTIN_FUNCTIONS, *BUILTIN_PROCEDURES]
            self.error(f"unknown procedure, function or zone {name!r}{did_you_mean(name, known)}", c.span)

    def expr(self, e: ast.Expr | None, scope: set[str], choose_ok: bool = True) -> None:
        if e is None:
            return
        ctx = self.ctx
        if isinstance(e, ast.Name):
            if e.id == "teams" and e.id not in scope:
                self.team_use(e, scope)
            if e.id in scope or e.id in CONTEXT_NAMES or e.id in ctx.keywords:
                return
            if e.id in ctx.zones:
                per_player = ctx.zones[e.id][0]
                self.error(self.zone_usage(e.id), e.span,
                           f"{e.id}() with no player is every player's cards together" if per_player else "")
                return
            known = [*scope, *CONTEXT_NAMES]
            hint = f"call it: {e.id}(...)" if e.id in ctx.procedures or e.id in ctx.functions else ""
            self.error(f"unknown name {e.id!r}{did_you_mean(e.id, known)}", e.span, hint)
        elif isinstance(e, ast.Attribute):
            self.expr(e.obj, scope, choose_ok)
            if isinstance(e.obj, ast.Name) and e.obj.id == "game":
                known = {*ctx.globals, "turn", "phase", "active"}
                if e.name not in known:
                    self.error(f"no global game.{e.name}{did_you_mean(e.name, known)}", e.span,
                               "globals are declared under 'globals:' in the ruleset")
            elif isinstance(e.obj, ast.Name) and e.obj.id == "options":
                if e.name not in ctx.options:
                    self.error(f"no option {e.name!r}{did_you_mean(e.name, ctx.options)}", e.span)
            elif isinstance(e.obj, ast.Name) and e.obj.id == "event":
                return
            elif e.name in ctx.code_attributes:
                self.error(f"{e.name!r} is code on a card: call it with its arguments", e.span,
                           f"write {to_source(e.obj)}.{e.name}({', '.join(ctx.code_attributes[e.name])})")
            elif e.name not in ctx.attributes and e.name not in CARD_PROPERTIES:
                self.error(f"unknown attribute {e.name!r}"
                           f"{did_you_mean(e.name, [*ctx.attributes, *CARD_PROPERTIES])}", e.span)
            else:
                self.team_attribute(e, scope)
        elif isinstance(e, ast.Index):
            self.expr(e.obj, scope, choose_ok)
            self.expr(e.index, scope, choose_ok)
        elif isinstance(e, ast.Call):
            self.call(e, scope, statement=False, choose_ok=choose_ok)
        elif isinstance(e, ast.ListLit):
            for i in e.items:
                self.expr(i, scope, choose_ok)
        elif isinstance(e, (ast.Comprehension, ast.Select)):
            self.expr(e.source, scope, choose_ok)
            inner = scope | {e.var}
            if isinstance(e, ast.Comprehension):
                self.expr(e.element, inner, False)
                self.expr(e.condition, inner, False)
            else:
                self.expr(e.where, inner, False)
                self.expr(e.order_by, inner, False)
        elif isinstance(e, ast.MultiComprehension):
            inner = set(scope)
            for clause in e.clauses:
                self.expr(clause.source, inner, choose_ok if inner == scope else False)
                inner = inner | {clause.var}
                self.expr(clause.condition, inner, False)
            self.expr(e.element, inner, False)
        elif isinstance(e, ast.Conditional):
            self.expr(e.test, scope, choose_ok)
            self._branches += 1
            try:
                self.expr(e.then, scope, choose_ok)
                self.expr(e.orelse, scope, choose_ok)
            finally:
                self._branches -= 1
        elif isinstance(e, ast.BlockValue):
            self.error("a block has a value only as a function's body", e.span)
        elif isinstance(e, ast.Choose):
            self.prompt_fields(e.label, scope, e.span)
            if self._branches and choose_ok and self._decisions_ok:
                self.error("'choose' is not allowed inside 'if ... then ... else': it would be asked before the "
                           "test, whichever branch is taken", e.span,
                           "write an if statement: if C { let x = choose ... } else { ... }")
            elif not choose_ok or not self._decisions_ok:
                self.error("'choose' is not allowed here: a decision can only be taken in an effect's "
                           "statements (not in functions, static abilities, conditions or filters)", e.span)
            self.expr(e.source, scope, choose_ok)
            self.expr(e.count, scope, choose_ok)
            self.expr(e.chooser, scope, choose_ok)
        elif isinstance(e, ast.BinOp):
            self.expr(e.left, scope, choose_ok)
            self.expr(e.right, scope, choose_ok)
        elif isinstance(e, (ast.Not, ast.Neg)):
            self.expr(e.operand, scope, choose_ok)
        elif isinstance(e, ast.IsType):
            self.expr(e.operand, scope, choose_ok)
            if e.type_name not in TYPE_NAMES and e.type_name not in ctx.card_types:
                known = [*TYPE_NAMES, *ctx.card_types]
                self.error(f"unknown type {e.type_name!r}{did_you_mean(e.type_name, known)}", e.span,
                           "types: " + ", ".join(sorted(known)))
