"""Running a whole scenario (`run_scenario`), or checking it without playing (`check_scenario`).

Order: read the file (schema); load the rules and decks (a load error is the scenario's end: it
passes only if `expect_error` names it); read every check against the rules; build the game (an
arranged position, the set-up with rigged orders, or a plain new game) and start it; take the
steps; check `then`. A rule error while the game runs is a failure of its own kind (or the error
`expect_error` names).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.rules import Rules
from ..errors import CardrulesError, RulesError, RuntimeRuleError
from ..rules.decks import Deck
from .loading import ExpectedError, rules_for, scenario_decks
from .plan import Scenario, make_plan, read_scenario
from .position import build_given, start
from .rigging import RUN, Rig, rig_shuffles, rigs_for, shuffle_rigs, start_rigged, unused
from .steps import Run, failed_checks, run_steps


@dataclass
class ScenarioResult:
    file: str
    cites: list[str]
    failures: list[str] = field(default_factory=list)
    decisions: int = 0
    rule_error: bool = False  # a rule failed while the scenario ran (not a check)

    @property
    def passed(self) -> bool:
        return not self.failures


def _needs_decks(data: dict) -> bool:
    given = data.get("given")
    return given is None or given.get("setup") == RUN or given.get("rest_of_deck") is not None


def _load(scenario: Scenario, expected: ExpectedError | None) -> tuple[Rules, list[Deck] | None] | CardrulesError:
    """(rules, decks), or the load error that ends the scenario when it expects an error (an
    error it does not expect is raised)."""
    data, marks, file = scenario.data, scenario.marks, scenario.file
    try:
        rules = rules_for(data, file, marks)
        decks = scenario_decks(data, file, marks, rules)
        if decks is None and _needs_decks(data):
            decks = rules.default_decks() or None  # (a ruleset without decks deals none)
    except CardrulesError as err:
        if expected is None:
            raise
        return err
    return rules, decks


def run_scenario(path: str | Path) -> ScenarioResult:
    """Run one scenario file. Malformed files (and load errors not expected) raise
    CardrulesError; failed checks and rule errors are returned."""
    scenario = read_scenario(path)
    data, marks = scenario.data, scenario.marks
    result = ScenarioResult(scenario.file, list(data.get("cites") or []))
    expected = ExpectedError.of(data, marks)
    loaded = _load(scenario, expected)
    if isinstance(loaded, CardrulesError):
        problem = expected.problem(loaded, "at load") if expected is not None else None
        result.failures += [problem] if problem else []
        return result
    rules, decks = loaded
    plan = make_plan(scenario, rules)
    seed = int(data.get("seed", 0))
    given = data.get("given")
    rigs: list[Rig] = []
    if given is None or given.get("setup") == RUN:
        game = rules.empty_state(seed=seed, decks=decks)
        rigs = rigs_for(rules, given, decks, marks) if given is not None else []
        run = Run(game, {}, explicit=bool(data.get("explicit")))
        log_from, id_from = len(game.log_entries), game.next_id
        _started(run, lambda: start_rigged(game, rigs, marks))
    else:
        game = rules.empty_state(seed=seed, decks=[Deck("given", scenario.file, ()) for _ in range(rules.deck_count)],
                                made=False)
        run = Run(game, build_given(game, given, marks, decks).labels, explicit=bool(data.get("explicit")))
        rigs = shuffle_rigs(rules, given, marks)
        rig_shuffles(game, rigs, marks)  # (shuffles counted from the start of play)
        log_from, id_from = len(game.log_entries), game.next_id
        _started(run, lambda: start(game, given, marks))
    if run.rule_error is None:
        run.failures += unused(rigs, marks)
        run_steps(run, plan.steps, log_from, id_from)
    if run.rule_error is None:
        run.failures += unused(rigs, marks, listed=True)
        run.failures += failed_checks(run, plan.checks, log_from, "then ")
    result.failures, result.decisions = run.failures, run.decisions
    _rule_error(result, run, expected)
    return result


def _started(run: Run, begin: Callable[[], None]) -> None:
    """Start the game; a rule error on the way stops the run there."""
    try:
        begin()
    except RuntimeRuleError as err:
        run.rule_error, run.rule_error_at = err, "the start"


def _rule_error(result: ScenarioResult, run: Run, expected: ExpectedError | None) -> None:
    """A rule error is a failure, unless it is the one expected; an expected one that never
    came is a failure too."""
    err = run.rule_error
    if expected is not None:
        problem = expected.missing() if err is None else expected.problem(err, f"in {run.rule_error_at}")
        result.failures += [problem] if problem else []
    elif err is not None:
        result.rule_error = True
        result.failures.append(f"{run.rule_error_at}: rule error: {err}")


def check_scenario(path: str | Path, loaded: tuple | None = None) -> Rules | None:
    """Check a scenario file without playing it: schema, ruleset with options and inline cards,
    decks, every check, and the `given` position. Returns the rules it uses (None when a load
    error it expects ends it); raises CardrulesError when malformed. `loaded`: the file's
    (data, marks) when its YAML is loaded already."""
    scenario = read_scenario(path, loaded)
    data, marks = scenario.data, scenario.marks
    loaded = _load(scenario, ExpectedError.of(data, marks))
    if isinstance(loaded, CardrulesError):
        return None
    rules, decks = loaded
    make_plan(scenario, rules)
    given = data.get("given")
    if given is not None and given.get("setup") == RUN:
        rigs_for(rules, given, decks, marks)
    elif given is not None:
        game = rules.empty_state(seed=0, decks=[Deck("given", scenario.file, ()) for _ in range(rules.deck_count)],
                                made=False)
        build_given(game, given, marks, decks)
        shuffle_rigs(rules, given, marks)
    return rules


def scenario_files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(path.rglob("*.yaml")))
        elif path.is_file():
            out.append(path)
        else:
            raise RulesError(f"no such scenario file or folder: {p}")
    return out
