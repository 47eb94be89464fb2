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
    for game in ("lanes", "initiative", "bases", "hearts", "harvest", "spades", "expedition"):
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
    rows = _card_rows(text)
    assert rows and all(re.fullmatch(r"\d+\.\d% \[.*\]", row["GIH WR"]) for row in rows)
    assert any(re.fullmatch(r"\d+\.\d% \[.*\]", row["WR in OH"]) for row in rows)
    assert any(re.fullmatch(r"[+-]\d+\.\d pp \[.*\]", row["OH effect within deck (95%)"]) for row in rows)


def _card_rows(markdown: str) -> list[dict[str, str]]:
    """The card table's rows, each cell by its column's header."""
    cards = markdown.split("## Cards\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in cards.splitlines() if line.startswith("| ")]
    headers = [c.strip() for c in re.split(r"(?<!\\)\|", lines[0])[1:-1]]
    return [dict(zip(headers, (c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]))) for line in lines[1:]]


def _reasons(markdown: str) -> dict[str, str]:
    """The card table note's "Not computed" reasons by letter."""
    cards = markdown.split("## Cards\n", 1)[1].split("\n## ", 1)[0]
    said = cards.split("Not computed: ", 1)[1].strip()
    return dict(re.findall(r"\(([a-z])\) (.*?)(?=; \([a-z]\) |\.$)", said))


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
    (True, ["the card was in every opening hand of its deck", "the card was never played",
            "the card was seen (in the opening hand or drawn) in every game that had it in the deck"]),
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


IN_EVERY_HAND = ("the card was in every opening hand of its deck: no game of its deck without it in the opening "
                 "hand to compare with")


@pytest.mark.parametrize("with_hand, expected", [
    (True, {"Decks": "the records name no deck (the ruleset gives its players no named decks)",
            "OH effect within deck (95%)": IN_EVERY_HAND, "z": IN_EVERY_HAND, "q (BH)": IN_EVERY_HAND,
            "Flagged": IN_EVERY_HAND, "WR not in OH": IN_EVERY_HAND, "Games for a +5 pp flag": IN_EVERY_HAND,
            "IWD (descriptive)": "the card was seen (in the opening hand or drawn) in every game that had it in "
                                 "the deck: no game where it went unseen to compare with",
            "WR by turn first drawn": "the card was in every opening hand of its deck: never drawn later",
            "WR played": "the card was never played"}),
    (False, {"Decks": "the records name no deck (the ruleset gives its players no named decks)",
             **{h: "no card was ever in a hand: the ruleset has no zone the records read as the hand (see the "
                   "header's hand zone; declare statistics.hand), or it is empty when the first turn begins and "
                   "never receives a card"
                for h in ("OH effect within deck (95%)", "z", "q (BH)", "Flagged", "WR in OH",
                          "Games for a +5 pp flag", "GIH WR", "IWD (descriptive)", "WR by turn first drawn")},
             "WR played": "the card was never played"}),
])
def test_each_card_column_says_its_own_reason(tmp_path, with_hand, expected):
    """The card table's columns (issue 33.2's opening-hand effect and its test, the descriptive
    figures) each get the exact reason their figure is missing, never the generic one."""
    write_report(_records(with_hand), tmp_path / "r", title="Toy", meta={}, min_sample=5)
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    reasons = _reasons(text)
    for row in _card_rows(text):
        got = {header: reasons[m.group(1)] for header, cell in row.items()
               if (m := re.fullmatch(r"— \(([a-z])\)", cell))}
        assert got == expected, row["Card"]


def test_an_untested_effect_and_a_small_sample_say_why(tmp_path):
    """An effect whose groups were all won (no variance: no z, q or flag), and a Robustness card
    below the minimum sample, name those reasons."""
    records = _records(True)
    for i, record in enumerate(records):  # Alpha in seat 1's opening hand every other game; seat 1 always wins
        record["winner"] = 1
        for player in record["players"]:
            player["won"] = player["seat"] == 1
            player["opening"] = {"Alpha": 1, "Beta": 1} if i % 2 == 0 else {"Beta": 1}
    write_report(records, tmp_path / "r", title="Toy", meta={}, min_sample=30,
                 robust_agents=["turn", "turn"], robust_records=records)
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    alpha = next(row for row in _card_rows(text) if row["Card"].startswith("Alpha"))
    assert alpha["OH effect within deck (95%)"].startswith("+0.0 pp")
    untested = {_reasons(text)[re.fullmatch(r"— \(([a-z])\)", alpha[h]).group(1)] for h in ("z", "q (BH)", "Flagged")}
    assert untested == {"no test: in the groups compared every game was won, or every one lost (no variance "
                        "under no difference)"}
    assert ("not measured on that side: fewer than 30 player-games held the card in their deck (the minimum "
            "sample), or it was in every opening hand of its deck or in none (no opening-hand effect)") in text


def test_a_game_whose_hands_face_out_reads_its_others_zone_as_the_hand():
    # tests/data/sharedhands holds its hands in a zone of visibility `others` and has no owner-only zone
    rules = load(str(SETASIDE.parent.parent / "sharedhands" / "sharedhands.yaml"))
    assert rules.statistics.hand == "hand"
    assert rules.statistics.hand_source == "hand (the only per-player zone seen by all but its owner)"
    assert not [w for w in rules.warnings if w.message.startswith("statistics:")]
