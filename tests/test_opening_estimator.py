"""Issue 33: one estimator of a card's opening-hand effect within its deck (report/opening.py):
the balance report's card table (ranking and flags) and `compare`'s per-card figures give the same
figure for the same records: the same strata, weights, interval and test."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.report import compare_stats
from interpreter.report.effects import card_effects

PLANTED = Path(__file__).parent / "data" / "planted" / "planted.yaml"


def _records(games: int, seed: int) -> list[dict]:
    """Decks A (cards X, Y) and B (Z, W) in both seatings; X reaches the opening hand far more
    often from seat 2 than from seat 1, and seat 1 wins more: strata of very unequal shares, so
    that weights by players and Cochran-Mantel-Haenszel weights give different figures."""
    rng = random.Random(seed)
    records = []
    for i in range(games):
        a_seat = 1 if i % 2 == 0 else 2
        x_share = 0.15 if a_seat == 1 else 0.85
        x_in_hand = rng.random() < x_share
        a_wins = rng.random() < (0.55 if a_seat == 1 else 0.35) + (0.2 if x_in_hand else 0.0)
        a = {"seat": a_seat, "won": a_wins, "deck": {"X": 1, "Y": 2}, "deck_name": "A",
             "opening": {"X": 1, "Y": 1} if x_in_hand else {"Y": 1}, "drawn": {}}
        b_opening = {"Z": 1, "W": 1} if rng.random() < 0.5 else {"W": 1}
        b = {"seat": 3 - a_seat, "won": not a_wins, "deck": {"Z": 1, "W": 2}, "deck_name": "B",
             "opening": b_opening, "drawn": {}}
        records.append({"seed": i, "winner": a_seat if a_wins else 3 - a_seat, "aborted": False,
                        "agents": ["random", "random"], "decks": ["A", "B"] if a_seat == 1 else ["B", "A"],
                        "players": sorted([a, b], key=lambda p: p["seat"])})
    return records


def test_the_report_and_compare_give_the_same_figure_for_the_same_records():
    records = _records(400, 5)
    variant = _records(400, 6)
    report = {e.name: e for e in card_effects(records)}
    rows = {r["base_name"]: r for r in compare_stats(records, variant).rows() if r["kind"] == "card"}
    for card in ("X", "Z"):
        effect, row = report[card], rows[card]
        assert effect.estimate is not None
        assert (row["base_effect"], row["base_effect_low"], row["base_effect_high"]) == pytest.approx(
            (effect.estimate, effect.low, effect.high), abs=1e-12)
    # the figure is the Cochran-Mantel-Haenszel one: per seat (the stratum), w = n1 n0 / (n1 + n0)
    strata: dict[int, tuple[list[int], list[int]]] = {1: ([], []), 2: ([], [])}
    for record in records:
        for player in record["players"]:
            if player["deck_name"] == "A":
                strata[player["seat"]][0 if "X" in player["opening"] else 1].append(int(player["won"]))
    weights = {s: len(a) * len(b) / (len(a) + len(b)) for s, (a, b) in strata.items()}
    expected = sum(weights[s] * (sum(a) / len(a) - sum(b) / len(b)) for s, (a, b) in strata.items()) / sum(
        weights.values())
    assert report["X"].estimate == pytest.approx(expected, abs=1e-12)


def test_the_estimator_tests_no_difference_with_the_pooled_variance():
    """One stratum, 3 of 4 won with the card and 1 of 4 without: +50 points; z = 0.5 / sqrt(w p (1 - p)) / w
    with w = 2 and p = 1/2."""
    from interpreter.report.opening import opening_effect

    units = [("s", True, 1.0)] * 3 + [("s", True, 0.0)] + [("s", False, 1.0)] + [("s", False, 0.0)] * 3
    found = opening_effect(units)
    assert found.estimate == pytest.approx(0.5)
    assert found.z == pytest.approx(0.5 / (2 * 0.25) ** 0.5 * 2)
    assert opening_effect([("s", True, 1.0)]).reason == "in every opening hand of its deck"


def test_simulate_report_and_compare_give_the_same_card_figures(tmp_path, capsys, monkeypatch):
    """`simulate --report` (decks in their seats) and `compare` play the same seeds; the base side's
    per-card opening-hand effects are the report's, card by card."""
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", str(PLANTED), "--games", "200", "--no-swap-seats", "--report", "rep", "--json"]) == 0
    capsys.readouterr()
    assert main(["compare", str(PLANTED), "--replace", "Spark=Frost Imp", "--games", "200", "--json"]) == 0
    rows = {r["base_name"]: r for r in json.loads(capsys.readouterr().out)["rows"] if r["kind"] == "card"}
    report = json.loads((tmp_path / "rep" / "report.json").read_text(encoding="utf-8"))
    compared = 0
    for card in report["cards"]:
        effect = card["effect"]
        if effect is None or effect["estimate"] is None:
            continue
        row = rows[card["name"]]
        assert (row["base_effect"], row["base_effect_low"], row["base_effect_high"]) == pytest.approx(
            (effect["estimate"], effect["low"], effect["high"]), abs=1e-12), card["name"]
        compared += 1
    assert compared == 7
