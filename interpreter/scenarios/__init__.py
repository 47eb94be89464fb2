"""Scenario files: rule tests for designers (DESIGN.md "Scenario files", docs/scenarios.md).

A scenario loads a ruleset (with options, inline cards and decks), puts a game into a stated
position (`given`: arranged card by card, or the ruleset's own set-up with rigged orders), takes
decisions (`when`; a step may check the state right after it) and checks the result (`then`);
or it expects the load, or a rule, to fail (`expect_error`). `run_scenario` returns a
`ScenarioResult` listing every mismatch; it raises only for a scenario file that is itself
malformed, or for a ruleset, deck or card text refused that it does not expect (a
`CardrulesError` naming the file and line).

The modules, in the order a run uses them: `plan` (reading the file; every check read against
the rules before anything runs), `loading` (rules, decks, the error expected), `position` (an
arranged `given`), `rigging` (`given: {setup: run}`), `steps` (`when`), `paths` and
`expectations` (what a check reads and how it compares), `runner` (the whole run).
"""

from ..engine.serialize import readable
from .loading import _RULES_CACHE
from .runner import ScenarioResult, check_scenario, run_scenario, scenario_files

__all__ = ["run_scenario", "check_scenario", "scenario_files", "ScenarioResult", "readable", "_RULES_CACHE"]
