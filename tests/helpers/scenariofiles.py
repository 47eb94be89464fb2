"""Shipped scenarios edited for a test: a copy with some text changed, the line a fragment is on,
the one failure a scenario run reports."""

from __future__ import annotations

from pathlib import Path

from interpreter.scenarios import run_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def variant(tmp_path: Path, shipped: str, *edits: tuple[str, str], name: str = "s.yaml") -> Path:
    """The shipped scenario with each (old, new) edit made once (old must be there), written into
    tmp_path; ruleset files it names relative to its folder are made absolute."""
    text = (SCENARIOS / shipped).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, f"{old!r} is not in {shipped}"
        text = text.replace(old, new, 1)
    text = text.replace("../../../rulesets/", f"{ROOT}/rulesets/")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, fragment: str, whole: bool = False) -> int:
    """The 1-based line of the first line of the file holding fragment (or being it, but for
    its indentation)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if (line.strip() == fragment) if whole else (fragment in line):
            return number
    raise AssertionError(f"{fragment!r} is not in {path}")


def only_failure(path: Path) -> str:
    """The one failure of a scenario run (the test fails if there are none or several)."""
    result = run_scenario(path)
    assert len(result.failures) == 1, result.failures
    return result.failures[0]
