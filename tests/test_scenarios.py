"""Every scenario file under tests/scenarios/ (rule tests written as data) passes, and every rule
id of the shipped games is cited by at least one scenario: the first three games' ids are listed in
RULES.md, the later games' (Hearts, Harvest, Spades, Expedition) in docs/games/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.rules.yamlload import load_yaml
from interpreter.scenarios import run_scenario

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(SCENARIOS.rglob("*.yaml"))
RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
GAME_DOCS = Path(__file__).resolve().parents[1] / "docs" / "games"
# where each game's rule ids are listed (`- ID text` lines)
RULE_LISTS = {"initiative": RULES_MD, "lanes": RULES_MD, "bases": RULES_MD,
              "hearts": GAME_DOCS / "hearts.md", "harvest": GAME_DOCS / "harvest.md",
              "spades": GAME_DOCS / "spades.md", "expedition": GAME_DOCS / "expedition.md"}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
def test_scenario(path: Path):
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


def rule_ids(prefix: str, source: Path = RULES_MD) -> list[str]:
    text = source.read_text(encoding="utf-8")
    return sorted(set(re.findall(rf"^- ({prefix}-\d+\.\d+) ", text, re.MULTILINE)))


def cited(folder: str) -> set[str]:
    out: set[str] = set()
    for path in sorted((SCENARIOS / folder).glob("*.yaml")):
        data, _marks = load_yaml(path)
        out.update(data.get("cites") or [])
    return out


@pytest.mark.parametrize("game,prefix", [("initiative", "I"), ("lanes", "L"), ("bases", "B"), ("hearts", "H"),
                                         ("harvest", "D"), ("spades", "S"), ("expedition", "E")])
def test_every_rule_id_is_cited(game, prefix):
    source = RULE_LISTS[game]
    if not source.exists():
        pytest.skip(f"{source} is not beside the checkout")
    ids = rule_ids(prefix, source)
    assert len(ids) > 10
    citations = cited(game)
    missing = [i for i in ids if i not in citations]
    assert not missing, f"{game}: rule ids without a scenario: {missing}"
