"""Scenarios without traps (issue 35): a decision the engine took because it had one option is
named as such when a step tries to take it, and `explicit: true` has every decision asked; a
failed `events` check shows the events' arguments; `{expr: ...}` where a plain value belongs is
refused at load; `decision.options.count`; `events_so_far`; rigged later shuffles.
"""

from __future__ import annotations

from pathlib import Path

from interpreter.scenarios import run_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"


def variant(tmp_path: Path, shipped: str, *edits: tuple[str, str], name: str = "s.yaml") -> Path:
    """The shipped scenario with each (old, new) edit made once, written into tmp_path."""
    text = (SCENARIOS / shipped).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, f"{old!r} is not in {shipped}"
        text = text.replace(old, new, 1)
    text = text.replace("../../../rulesets/", f"{ROOT}/rulesets/")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def written(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, fragment: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if fragment in line:
            return number
    raise AssertionError(f"{fragment!r} is not in {path}")


def only_failure(path: Path) -> str:
    result = run_scenario(path)
    assert len(result.failures) == 1, result.failures
    return result.failures[0]


# ---------------------------------------------------------------- 4. events with their arguments
def test_a_failed_events_check_shows_the_arguments_of_the_events(tmp_path):
    path = variant(tmp_path, "initiative/card-stab-top.yaml",
                   ("{event: damaged, target: Soldier, amount: 2}", "{event: damaged, target: Soldier, amount: 3}"))
    line = line_of(path, "  events:")
    assert only_failure(path) == (
        "then events: expected event {'event': 'damaged', 'target': 'Soldier', 'amount': 3} (in order) not found "
        "after event 1 (resolving(player='P1', card='Stab $a', part='top')); events were: "
        "1. resolving(player='P1', card='Stab $a', part='top'), 2. damaged(target='Soldier $s', amount=2), "
        "3. died(card='Soldier $s'), 4. resolution(), "
        "5. resolving(player='P1', card='Summon Monster $b', part='bottom'), "
        f"6. summoned(card='Monster', player='P1'), 7. resolution() ({path}:{line}:3)")
