"""Reading a scenario file, and what it checks worked out before anything runs.

`read_scenario` loads the YAML and checks it against the schema. `make_plan` reads, against the
loaded rules, every check of `then` (at the top and in the steps of `when`) and every labelling
of a step: a path, an expected value, an event or a label that the ruleset or the scenario cannot
have is an error at it in the file (with did-you-mean), not a failed check found later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RulesError, Span, did_you_mean
from ..lang.checker import BUILTIN_EVENTS
from ..rules.checker import checked_context
from ..rules.schema import validate
from ..rules.yamlload import load_yaml
from .expectations import Expected, compile_expression, parse_expected
from .paths import PathError, StatePath, parse_path


@dataclass
class Scenario:
    data: dict
    marks: Any
    file: str


def read_scenario(path: str | Path, loaded: tuple | None = None) -> Scenario:
    """The scenario file, checked against rulesets/schema/scenario.schema.json (`loaded`: its
    (data, marks) when its YAML is loaded already)."""
    file = str(path)
    data, marks = loaded if loaded is not None else load_yaml(Path(path))
    validate(data, marks, "scenario", file)
    return Scenario(data, marks, file)


@dataclass
class Check:
    """One entry of a `then`: a path and what it must be, where it is written."""

    path: StatePath
    expected: Expected
    span: Span


@dataclass
class Step:
    """One step of `when`: its decision (as written), its labellings and its checks."""

    index: int
    raw: dict
    span: Span
    checks: list[Check] = field(default_factory=list)
    created: list[dict] = field(default_factory=list)  # [{as: NAME, card: CARD?}] by order of creation
    label: dict[str, dict] = field(default_factory=dict)  # NAME -> {event: E, arg: A, ARG: value...}

    @property
    def where(self) -> str:
        return f"when[{self.index}]"


@dataclass
class Plan:
    steps: list[Step]
    checks: list[Check]  # the top-level `then`


def declared_labels(data: dict) -> set[str]:
    """Every label the scenario gives: `as:` in `given`, `created:` and `label:` in steps."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("as"), str) and "card" in value:
                found.add(value["as"])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(data.get("given"))
    for step in data.get("when") or []:
        if isinstance(step, dict):
            found.update(str(entry["as"]) for entry in step.get("created") or [])
            found.update(str(name) for name in step.get("label") or {})
    return found


class _Planner:
    def __init__(self, scenario: Scenario, rules) -> None:
        self.scenario = scenario
        self.marks = scenario.marks
        self.rules = rules
        self.labels = declared_labels(scenario.data)
        # (the events the code emits, as the rules were checked: not walked again per scenario)
        events = {name: set(args) for name, args in checked_context(rules.ruleset).events.items()}
        for name, args in BUILTIN_EVENTS.items():
            events.setdefault(name, set()).update(args)
        self.events = events

    def error(self, message: str, path: tuple, key: bool = False) -> RulesError:
        return RulesError(message, self.marks.span(path, key=key))

    def checks(self, then: dict, where: tuple) -> list[Check]:
        prefix = "then " if len(where) == 1 else f"when[{where[1]}] then "
        out = []
        for key, raw in then.items():
            text = str(key)
            try:
                path = parse_path(text, self.rules, self.labels)
            except PathError as err:
                raise self.error(f"{prefix}{text}: {err.message}", (*where, key), key=True) from None
            try:
                expected = parse_expected(path, raw, self.rules, self.labels,
                                          lambda expr, at, k=key: self.expression(expr, (*where, k, *at)))
            except PathError as err:
                raise self.error(f"{prefix}{text}: {err.message}", (*where, key, *err.at), key=err.key) from None
            if path.kind in ("events", "not_events"):  # (and their `_so_far` forms)
                for i, item in enumerate(raw):
                    self.event(item, (*where, key, i), f"{prefix}{text}: ")
            out.append(Check(path, expected, self.marks.span((*where, key))))
        return out

    def expression(self, text: str, at: tuple):
        line, column, _style = self.marks.value_origin(at)
        return compile_expression(self.rules, text, self.scenario.file, line, column, self.labels)

    def event(self, item: Any, at: tuple, prefix: str, extra: tuple[str, ...] = ()) -> None:
        """An event a check or a label names: an event of the rules, with arguments it has."""
        name = item if isinstance(item, str) else item.get("event")
        if not isinstance(name, str):  # the schema refuses it; a list or mapping is unhashable below
            raise self.error(f"{prefix}an event is named by text, not {type(name).__name__} {name!r}",
                             at if isinstance(item, str) else (*at, "event"))
        if name not in self.events:
            raise self.error(f"{prefix}no event {name!r} is emitted by {self.rules.name}"
                             f"{did_you_mean(str(name), self.events)}", at if isinstance(item, str) else (*at, "event"))
        if isinstance(item, dict):
            args = self.events[name]
            for key in item:
                if key != "event" and key not in extra and args and key not in args:
                    raise self.error(f"{prefix}event {name!r} has no argument {key!r}{did_you_mean(str(key), args)} "
                                     f"(it has {', '.join(sorted(args))})", (*at, key), key=True)

    def step(self, index: int, raw: Any) -> Step:
        where = ("when", index)
        raw = raw if isinstance(raw, dict) else {"choose": raw}
        step = Step(index, raw, self.marks.span(where))
        step.checks = self.checks(raw.get("then") or {}, (*where, "then"))
        step.created = list(raw.get("created") or [])
        for name, spec in (raw.get("label") or {}).items():
            self.event(spec, (*where, "label", name), f"when[{index}] label.{name}: ", extra=("arg",))
            step.label[str(name)] = spec
        return step


def make_plan(scenario: Scenario, rules) -> Plan:
    """The checks and steps of a scenario, read against its rules (errors located in the file)."""
    data = scenario.data
    planner = _Planner(scenario, rules)
    if data.get("expect_error") is not None and data.get("then"):
        raise planner.error("a scenario that expects an error checks no `then`: the error ends it",
                            ("then",), key=True)
    steps = [planner.step(i, raw) for i, raw in enumerate(data.get("when") or [])]
    return Plan(steps, planner.checks(data.get("then") or {}, ("then",)))

