"""`compare`'s cards: a card is flagged only when its own figure (its opening-hand effect within
its deck) changed beyond chance, after Holm's correction; the other cards of a changed deck, whose
games-in-deck win rate moves with the deck's, are context. A replaced card is one row with CARD's
figures on the base side and OTHER's on the variant side. Every interval carries its level."""

from __future__ import annotations

import json
import random
import re

import pytest

from interpreter.cli.main import main
from interpreter.report import compare_stats

GAMES = 1500
DECK_1 = {"Strong": 2, "Plain": 2, "Filler": 2}
DECK_2 = {"Other": 2, "Spare": 2}


def _player(seat: int, won: bool, deck: dict, opening: dict) -> dict:
    return {"seat": seat, "agent": "random", "won": won, "deck": deck, "opening": opening, "drawn": {},
            "played": {}, "picked": {}, "counters": {}}


def _sides(replace_with: str | None = None) -> tuple[list[dict], list[dict]]:
    """Seat 1's deck holds Strong, Plain and Filler; the variant makes Strong worth 30 points when in
    the opening hand (or, with `replace_with`, puts that card in its place). Both sides share each
    seed's shuffle and luck (common random numbers)."""
    rng = random.Random(33)
    base, variant = [], []
    for seed in range(1, GAMES + 1):
        opening = {name: 1 for name in (*DECK_1, *DECK_2) if rng.random() < 0.4}
        luck = rng.random()
        strong_in_hand = "Strong" in opening
        base_win = luck < 0.5
        variant_win = luck < (0.8 if strong_in_hand else 0.5)
        for records, won, name in ((base, base_win, "Strong"), (variant, variant_win, replace_with or "Strong")):
            deck_1 = {name if card == "Strong" else card: n for card, n in DECK_1.items()}
            hand_1 = {name if card == "Strong" else card: 1 for card in DECK_1 if card in opening}
            hand_2 = {card: 1 for card in DECK_2 if card in opening}
            records.append({"seed": seed, "winner": 1 if won else 2, "aborted": False, "agents": ["random", "random"],
                            "players": [_player(1, won, deck_1, hand_1), _player(2, not won, DECK_2, hand_2)]})
    return base, variant


def test_only_the_changed_card_is_flagged_not_its_deck_mates():
    base, variant = _sides()
    rows = {r["name"]: r for r in compare_stats(base, variant).rows()}
    # the deck's win rate rose, so every card of it rose in games-in-deck win rate, well beyond chance
    for name in ("Strong", "Plain", "Filler"):
        assert rows[name]["difference"] > 0.05 and rows[name]["low"] > 0
    # ... but only Strong's own figure changed: it is the one flagged
    assert [name for name, r in rows.items() if r["kind"] == "card" and r["significant"]] == ["Strong"]
    assert rows["Strong"]["flagged"]
    strong = rows["Strong"]
    assert strong["change_paired"] and strong["change"] == pytest.approx(
        strong["variant_effect"] - strong["base_effect"])
    assert strong["change"] > 0.2 and strong["change_p"] < 1e-6
    assert rows["Plain"]["change_p"] is not None and not rows["Plain"]["flagged"]
    assert {r["level"] for r in rows.values()} == {0.95}


def test_a_replaced_card_is_one_row_with_each_sides_card():
    base, variant = _sides(replace_with="Newcomer")
    comparison = compare_stats(base, variant, replace=[("Strong", "Newcomer")])
    rows = {r["name"]: r for r in comparison.rows()}
    assert "Strong" not in rows and "Newcomer" not in rows
    row = rows["Strong → Newcomer"]
    assert (row["base_name"], row["variant_name"]) == ("Strong", "Newcomer")
    # Strong's figures on the base side, Newcomer's on the variant side: counted by hand
    assert (row["base_wins"], row["base_games"]) == (sum(r["winner"] == 1 for r in base), GAMES)
    assert (row["variant_wins"], row["variant_games"]) == (sum(r["winner"] == 1 for r in variant), GAMES)
    with_it = [r["winner"] == 1 for r in variant if "Newcomer" in r["players"][0]["opening"]]
    without = [r["winner"] == 1 for r in variant if "Newcomer" not in r["players"][0]["opening"]]
    assert row["variant_effect"] == pytest.approx(sum(with_it) / len(with_it) - sum(without) / len(without))
    assert row["flagged"]


def test_a_card_always_in_the_opening_hand_says_why_it_has_no_test():
    base, variant = _sides()
    for record in base + variant:
        for player in record["players"]:
            player["opening"] = dict(player["deck"])
    rows = {r["name"]: r for r in compare_stats(base, variant).rows()}
    assert rows["Plain"]["change"] is None and rows["Plain"]["no_test"] == "in every opening hand of its deck"
    assert not any(r["flagged"] for r in rows.values())


def test_holm_steps_down():
    from interpreter.report.intervals import holm

    # m = 4: 0.01 <= 0.05/4, 0.016 <= 0.05/3, then 0.03 > 0.05/2 stops; None is not tested
    assert holm([0.03, 0.01, None, 0.016, 0.04], 0.05) == [False, True, False, True, False]
    assert holm([0.02, 0.02], 0.05) == [True, True]
    assert holm([], 0.05) == []


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_every_interval_is_labelled_with_its_level(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # (the table's headers whole on one line, at any terminal's width)
    args = ("compare", "initiative", "--replace", "Sneak Attack=Twist Fate", "--games", "20", "--until-significant")
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    main_difference, sequential = data["main"], data["main"]["sequential"]
    assert main_difference["level"] == 0.95 and sequential["repeated_level"] == 0.95
    assert sequential["boundary"] == "obrien-fleming" and sequential["looks_planned"] == 10
    assert all(r["level"] == 0.95 for r in data["rows"])
    row = next(r for r in data["rows"] if r["name"] == "Sneak Attack → Twist Fate")
    assert (row["base_name"], row["variant_name"]) == ("Sneak Attack", "Twist Fate")
    assert "Holm" in data["card_flags"]
    code, out, err = run(capsys, *args, "--report", str(tmp_path / "ab"))
    assert code == 0, err
    text = " ".join(out.split())
    # the headline: the repeated interval and the fixed-sample one, each with its level
    assert re.search(r"95% repeated interval \[[-+]\d+\.\d, [-+]\d+\.\d\] \(fixed-sample 95% interval \[", text)
    assert "O'Brien-Fleming boundary, 10 looks, overall two-sided alpha 0.05" in text
    assert "95% interval" in text and "change, 95% interval" in text
    markdown = (tmp_path / "ab" / "report.md").read_text(encoding="utf-8")
    for header in ("Difference (95%)", "Base WR (95%)", "OH effect change (95%, not adjusted)", "Base GD WR (95%)"):
        assert header in markdown
    assert "95% repeated interval" in markdown and "Holm" in markdown
    assert "95% repeated interval" in (tmp_path / "ab" / "index.html").read_text(encoding="utf-8")
