"""Writing a balance report: the page and Markdown from synthetic records, their figures recounted
here from the records themselves, escaping, charts that exist, and all-or-nothing writing."""

from __future__ import annotations

import os
import random
import re
import sys

import pytest

from interpreter.report import ReportError, write_comparison, write_report

CARDS = ["Alpha", "Beta", "Gamma", "<script>alert(1)</script>", "Rare"]


def synthetic_records(games: int = 50, seed: int = 3, seat1_edge: float = 0.1) -> list[dict]:
    rng = random.Random(seed)
    records = []
    for game_seed in range(1, games + 1):
        aborted = game_seed % 20 == 0
        roll = rng.random()
        winner = None if aborted or roll < 0.06 else (1 if roll < 0.5 + seat1_edge else 2)
        players = []
        for seat in (1, 2):
            deck = {c: rng.randint(1, 2) for c in CARDS[:-1] if rng.random() < 0.8}
            if rng.random() < 0.1:
                deck["Rare"] = 1
            opening = {c: 1 for c in deck if rng.random() < 0.3}
            drawn = {c: 1 for c in deck if c not in opening and rng.random() < 0.4}
            players.append({"seat": seat, "agent": "random", "won": winner == seat, "deck": deck, "opening": opening,
                            "drawn": drawn, "played": {c: 1 for c in drawn}, "picked": {}, "counters": {"life": 3}})
        records.append({
            "seed": game_seed, "ruleset": "toy", "title": "Toy", "options": {"size": "small"},
            "agents": ["random", "random"], "winner": winner, "draw": not aborted and winner is None,
            "aborted": aborted, "reason": "it broke" if aborted else ("Limit" if winner is None else "Goal"),
            "rule": "toy.rules:1:2" if aborted else None, "timeout": not aborted and winner is None,
            "first_player": 1 + game_seed % 2, "turns": rng.randint(4, 25), "decisions": rng.randint(10, 90),
            "lead_changes": rng.randint(0, 2), "players": players, "offers": []})
    return records


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    records = synthetic_records()
    out = tmp_path_factory.mktemp("reports") / "toy"
    page = write_report(records, out, title="Toy balance", meta={"agents": "random vs random"}, min_sample=20)
    return records, out, page


def markdown_row(markdown: str, section: str, first_cell: str) -> dict[str, str]:
    """The cells of a Markdown table row, by header, in the section with that title."""
    block = markdown.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in block.splitlines() if line.startswith("|")]
    split = [[cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]
    headers = split[0]
    for cells in split[2:]:
        if cells[0] == first_cell:
            return dict(zip(headers, cells))
    raise AssertionError(f"no row {first_cell!r} in {section!r}")


def test_report_files_and_charts_exist(report):
    _, out, page = report
    assert page == out / "index.html"
    assert (out / "report.md").is_file()
    html = page.read_text(encoding="utf-8")
    images = re.findall(r'<img src="([^"]+)"', html)
    assert len(images) >= 3
    for name in images:
        assert "/" not in name
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http://" not in html and "https://" not in html
    assert not [p.name for p in out.parent.iterdir() if p.name.startswith(".")], "a staging folder is left"


def test_seat_win_rate_equals_a_hand_count(report):
    records, out, _ = report
    finished = [r for r in records if not r["aborted"]]
    wins = sum(1 for r in finished if r["winner"] == 1)
    row = markdown_row((out / "report.md").read_text(encoding="utf-8"), "Win rate by seat", "seat 1")
    assert row["Wins"] == str(wins)
    assert row["Finished games"] == str(len(finished))
    assert row["Win rate (95%)"].startswith(f"{100 * wins / len(finished):.1f}% [")


def test_card_gih_win_rate_equals_a_hand_count(report):
    records, out, _ = report
    seen = [p for r in records if not r["aborted"] for p in r["players"]
            if p["opening"].get("Beta", 0) > 0 or p["drawn"].get("Beta", 0) > 0]
    wins = sum(1 for p in seen if p["won"])
    row = markdown_row((out / "report.md").read_text(encoding="utf-8"), "Cards", "Beta")
    assert row["GIH WR"].startswith(f"{100 * wins / len(seen):.1f}% [")


def test_card_names_are_escaped_and_unranked_cards_marked(report):
    _, out, page = report
    html = page.read_text(encoding="utf-8")
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "<script>" not in markdown
    assert "Rare †" in markdown  # about 10% of 100 player-games: below the minimum of 20


def test_aborted_games_are_listed(report):
    records, out, _ = report
    markdown = (out / "report.md").read_text(encoding="utf-8")
    for r in records:
        if r["aborted"]:
            assert f"| {r['seed']} | it broke | toy.rules:1:2 |" in markdown


def test_a_previous_report_is_replaced(report, tmp_path):
    records, _, _ = report
    out = tmp_path / "again"
    write_report(records[:10], out, title="First", meta={})
    write_report(records, out, title="Second", meta={})
    assert "<h1>Second</h1>" in (out / "index.html").read_text(encoding="utf-8")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_folder_with_other_files_is_refused_and_left_alone(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(ReportError, match=re.escape(str(out))):
        write_report(synthetic_records(10), out, title="Toy", meta={})
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can write anywhere")
def test_an_unwritable_folder_is_a_report_error(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(ReportError, match=re.escape(str(locked / "report"))):
            write_report(synthetic_records(10), locked / "report", title="Toy", meta={})
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_missing_matplotlib_is_a_report_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ReportError, match=re.escape("pip install 'cardrules[report]'")):
        write_report(synthetic_records(10), tmp_path / "report", title="Toy", meta={})
    assert list(tmp_path.iterdir()) == []


def test_comparison_page(tmp_path):
    base = synthetic_records(40, seed=5, seat1_edge=0.0)
    variant = synthetic_records(40, seed=5, seat1_edge=0.2)
    out = tmp_path / "ab"
    page = write_comparison(base, variant, out, title="Toy A/B", meta={"changed cards": "Beta"})
    html = page.read_text(encoding="utf-8")
    assert "&lt;script&gt;" in html and "<script>" not in html
    for name in re.findall(r'<img src="([^"]+)"', html):
        assert (out / name).read_bytes()[:4] == b"\x89PNG"
    markdown = (out / "report.md").read_text(encoding="utf-8")
    # same seeds, same draws of the dice: seat 1 wins more often on the variant side only
    paired = [s for s in range(1, 41) if not base[s - 1]["aborted"] and not variant[s - 1]["aborted"]]
    base_wins = sum(base[s - 1]["winner"] == 1 for s in paired)
    variant_wins = sum(variant[s - 1]["winner"] == 1 for s in paired)
    row = markdown_row(markdown, "Win rate by seat, paired", "seat 1")
    assert row["Pairs"] == str(len(paired))
    assert row["Difference (95%)"].startswith(f"{100 * (variant_wins - base_wins) / len(paired):+.1f} pp [")
    assert "Changed cards" in markdown


def test_a_batch_without_draws_or_aborted_games_draws_its_charts(tmp_path):
    """An interval's end at a rate of 0 (no draws) lies a rounding error past it: still a chart."""
    records = [dict(r, aborted=False, winner=r["winner"] or 1, draw=False, reason="Goal", rule=None, timeout=False)
               for r in synthetic_records(games=2000)]
    page = write_report(records, tmp_path / "out", title="Toy", meta={})
    html = page.read_text(encoding="utf-8")
    assert 'src="seats.png"' in html and (tmp_path / "out" / "seats.png").is_file()
