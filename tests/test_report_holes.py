"""Issue 33.5: no silent holes. Where `statistics:` cannot tell the hand zone (two per-player zones
visible to their owner alone: tests/data/setaside), loading warns at the zone's place, names the
zone it reads and how to declare another, and the records read that zone; every figure a report
cannot compute says why."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.report import write_report

SETASIDE = Path(__file__).parent / "data" / "setaside" / "setaside.yaml"


def test_two_owner_only_zones_give_a_located_warning_naming_the_choice():
    rules = load(str(SETASIDE))
    warnings = [w for w in rules.warnings if w.message.startswith("statistics:")]
    assert len(warnings) == 1
    warning = warnings[0]
    assert (Path(warning.span.file).resolve(), warning.span.line, warning.span.column) == (SETASIDE.resolve(), 7, 3)
    assert "zones 'hand', 'set_aside' are each per player and visible to their owner alone" in warning.message
    assert "it reads 'hand' (declared first, at " in warning.message
    assert warning.hint.startswith("declare the hand to choose: 'statistics: {hand: hand}' keeps this choice")
    assert "'statistics: {hand: set_aside}' reads 'set_aside' instead" in warning.hint
    assert rules.statistics.hand == "hand"


def test_declaring_the_hand_silences_the_warning_and_is_read(tmp_path):
    variant = tmp_path / "declared.yaml"
    variant.write_text("extends: initiative\nname: declared\nzones:\n  set_aside: {per: player, visibility: owner}\n"
                       "statistics:\n  hand: set_aside\n", encoding="utf-8")
    rules = load(str(variant))
    assert rules.statistics.hand == "set_aside" and rules.statistics.hand_source == "set_aside (statistics.hand)"
    assert not [w for w in rules.warnings if w.message.startswith("statistics:")]


def test_shipped_games_name_their_hand_without_a_warning():
    for game in ("lanes", "initiative", "bases", "hearts", "harvest"):
        rules = load(game)
        assert rules.statistics.hand == "hand", game
        assert not [w for w in rules.warnings if w.message.startswith("statistics:")], game


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_validate_prints_the_warning_with_its_place(capsys):
    code, out, err = run(capsys, "validate", str(SETASIDE))
    assert code == 0
    assert re.search(r"setaside\.yaml:7:3: warning: statistics: zones 'hand', 'set_aside'", out + err)


def test_the_report_reads_the_chosen_hand_and_says_so(capsys, tmp_path):
    report = tmp_path / "report"
    code, out, err = run(capsys, "simulate", str(SETASIDE), "--games", "30", "--json", "--report", str(report),
                         "--records", str(tmp_path / "games.jsonl"))
    assert code == 0, err
    assert "setaside.yaml:7:3: warning: statistics: zones 'hand', 'set_aside'" in err  # said before the games
    text = (report / "report.md").read_text(encoding="utf-8")
    assert re.search(r"^> Caution: \S*setaside\.yaml:7:3: statistics: zones 'hand', 'set\\_aside'", text, re.M)
    assert ("- **Hand zone**: hand (the first declared of hand, set\\_aside, all visible to their owner alone: "
            "declare statistics.hand to choose)") in text
    # the records read the hand: opening hands are there, so OH and GIH are computed
    cards = text.split("## Cards\n", 1)[1].split("\n## ", 1)[0]
    first_row = [c.strip() for c in cards.splitlines()[4].strip("|").split("|")]
    assert re.fullmatch(r"\d+\.\d% \[.*\]", first_row[3]) and re.fullmatch(r"\d+\.\d% \[.*\]", first_row[4])


def _table_cells(markdown: str) -> list[str]:
    return [cell.strip() for line in markdown.splitlines() if line.startswith("| ")
            for cell in re.split(r"(?<!\\)\|", line)[1:-1]]


def _records(with_hand: bool) -> list[dict]:
    records = []
    for i in range(12):
        winner = 1 + i % 2
        players = [{"seat": s, "agent": "greedy", "won": winner == s, "deck": {"Alpha": 1, "Beta": 1},
                    "opening": {"Alpha": 1, "Beta": 1} if with_hand else {}, "drawn": {}, "played": {},
                    "picked": {}, "counters": {}} for s in (1, 2)]
        records.append({"seed": i, "ruleset": "toy", "title": "Toy", "options": {}, "agents": ["greedy", "greedy"],
                        "winner": winner, "draw": False, "aborted": False, "reason": "Goal", "rule": None,
                        "timeout": False, "first_player": None, "turns": 3, "decisions": 9, "lead_changes": None,
                        "players": players, "offers": []})
    return records


@pytest.mark.parametrize("with_hand, reasons", [
    (False, ["no card was ever in a hand: the ruleset has no zone the records read as the hand"]),
    (True, ["the card was seen in every game that had it in the deck", "the card was never played"]),
])
def test_no_figure_is_a_bare_dash(tmp_path, with_hand, reasons):
    write_report(_records(with_hand), tmp_path / "r", title="Toy", meta={}, min_sample=5)
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    cells = _table_cells(text)
    assert "—" not in cells
    assert any(re.fullmatch(r"— \([a-z]\)", c) for c in cells)
    cards = text.split("## Cards\n", 1)[1].split("\n## ", 1)[0]
    for reason in reasons:
        assert reason in cards
    assert "no finished game names a first player (the turns have no active player)" in text
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert "<td>—</td>" not in page
