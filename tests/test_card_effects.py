"""Decks and seats designed out of the balance report, and the strong card found first (issue 33.2,
33.3): `simulate --decks/--swap-seats/--round-robin`, records naming each seat's deck, the
opening-hand effect within the deck (report/effects.py), report.json, Benjamini-Hochberg flags.

tests/data/planted is a small duel with two fixed decks whose cards all hit for 2, but one planted
card, Ogre, that hits for 6; and two decks Giants and Dwarves, a plain matchup (Giants much
stronger)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from interpreter.backends import BatchSpec, game_seeds, play_game
from interpreter.cli.main import main
from interpreter.errors import CardrulesError

PLANTED = Path(__file__).parent / "data" / "planted"
RULESET = PLANTED / "planted.yaml"
OGRE = 'card "Ogre" : unit { cost = 1 power = 6 }'


@pytest.fixture(autouse=True)
def _wide_tables(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def simulate(tmp_path: Path, ruleset: Path, *argv: str, games: int = 800) -> dict:
    """report.json of `simulate RULESET --games N --report DIR ...`."""
    out = tmp_path / "report"
    code = main(["simulate", str(ruleset), "--games", str(games), "--report", str(out), "--json", *argv])
    assert code == 0
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_the_planted_card_comes_out_first_and_flagged(tmp_path, capsys):
    report = simulate(tmp_path, RULESET)
    first = report["cards"][0]
    assert first["name"] == "Ogre" and first["effect"]["flagged"]
    assert (first["type"], first["attributes"]) == ("unit", {"cost": 1, "power": 6})
    assert first["effect"]["low"] > 0.1 and first["effect"]["q"] < 0.001
    assert report["card_ranking"]["flags"] == {"method": "Benjamini-Hochberg", "false_discovery_rate": 0.05,
                                               "tested": 7, "flagged": ["Ogre"]}
    estimates = [c["effect"]["estimate"] for c in report["cards"]]
    assert estimates == sorted(estimates, reverse=True)  # sorted by the estimated effect
    # the seats were swapped: each seed from both seats, so each deck sat 400 times in each seat
    assert report["facts"]["Seating"] == "1 table of decks, seats swapped (each seed from every seat)"
    assert {d["name"]: {s: p["n"] for s, p in d["by_seat"].items()} for d in report["decks"]} == {
        "Ember": {"1": 400, "2": 400}, "Frost": {"1": 400, "2": 400}}
    assert report["card_ranking"]["power"]["typical_games_needed"] > 1000


def test_the_planted_card_made_ordinary_is_not_flagged(tmp_path, capsys):
    folder = tmp_path / "planted"
    shutil.copytree(PLANTED, folder)
    cards = folder / "planted.cards"
    text = cards.read_text(encoding="utf-8")
    assert OGRE in text
    cards.write_text(text.replace(OGRE, 'card "Ogre" : unit { cost = 1 power = 2 }'), encoding="utf-8")
    report = simulate(tmp_path, folder / "planted.yaml")
    assert report["card_ranking"]["flags"]["flagged"] == []
    ogre = next(c for c in report["cards"] if c["name"] == "Ogre")
    assert ogre["effect"]["low"] < 0 < ogre["effect"]["high"]


def test_a_strong_deck_is_a_matchup_not_every_cards_effect(tmp_path, capsys):
    report = simulate(tmp_path, RULESET, "--decks", "Giants,Dwarves", games=400)
    decks = {d["name"]: d["wins"] for d in report["decks"]}
    assert decks["Giants"]["low"] > 0.9 and decks["Dwarves"]["high"] < 0.1  # the matchup is in the deck table
    giants = [c for c in report["cards"] if c["decks"] == ["Giants"]]
    assert sorted(c["name"] for c in giants) == ["Brute", "Giant"]
    for card in giants:
        assert card["descriptive"]["gd"]["rate"] > 0.9  # its deck's win rate: what the old table ranked by
        assert not card["effect"]["flagged"] and abs(card["effect"]["estimate"]) < 0.1
    assert report["card_ranking"]["flags"]["flagged"] == []


def test_a_round_robin_plays_every_pair_from_both_seats_and_names_the_decks(tmp_path, capsys):
    records = tmp_path / "games.jsonl"
    code = main(["simulate", str(RULESET), "--games", "24", "--decks", str(PLANTED / "decks"), "--round-robin",
                 "--records", str(records), "--report", str(tmp_path / "report"), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["games"] == 24  # 6 pairs x 2 seatings x 2 seeds
    assert summary["seating"] == "6 tables of decks, seats swapped (each seed from every seat)"
    report = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    assert [(m["decks"], m["games"]) for m in report["matchups"]] == [
        (["Dwarves", "Ember"], 4), (["Dwarves", "Frost"], 4), (["Dwarves", "Giants"], 4), (["Ember", "Frost"], 4),
        (["Ember", "Giants"], 4), (["Frost", "Giants"], 4)]
    giants = next(m for m in report["matchups"] if m["decks"] == ["Dwarves", "Giants"])
    assert giants["wins"]["Giants"]["n"] == 4 and giants["wins"]["Giants"]["low"] is not None
    page = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "## Win rate by matchup" in page and "| Dwarves vs Giants | Giants |" in page
    lines = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    tables = {}
    for record in lines:
        tables.setdefault(tuple(record["decks"]), set()).add(record["seed"])
        assert [p["deck_name"] for p in record["players"]] == record["decks"]
    names = ["Dwarves", "Ember", "Frost", "Giants"]
    assert sorted(tables) == sorted((a, b) for a in names for b in names if a != b)
    assert all(seeds == set(game_seeds(0, 0, 2)) for seeds in tables.values())  # every seed from both seats
    assert summary["decks"]["Giants"] == {"games": 12, "wins": summary["decks"]["Giants"]["wins"]}


def test_parquet_records_carry_the_deck_names_and_first_draws_as_rows(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "games.parquet"
    assert main(["simulate", str(RULESET), "--games", "4", "--decks", "Giants,Dwarves", "--records", str(path),
                 "--json"]) == 0
    table = pq.read_table(path)
    assert table.column("decks").to_pylist() == [["Giants", "Dwarves"]] * 2 + [["Dwarves", "Giants"]] * 2
    player = table.column("players").to_pylist()[0][0]
    assert player["deck_name"] == "Giants"
    assert player["first_drawn"] and all(set(row) == {"name", "turn"} for row in player["first_drawn"])


def test_the_opening_hand_is_the_hand_at_the_players_first_decision():
    """Each player is dealt 3 cards and first decides in their first turn, after its draw: their
    opening hand is those 4 cards (not the 3 held when the first turn began)."""
    spec = BatchSpec.of(str(RULESET), records=True)
    record, _ = play_game(spec, 5)
    assert record["decks"] == ["Ember", "Frost"]
    one, two = record["players"]
    assert (sum(one["opening"].values()), sum(two["opening"].values())) == (4, 4)
    assert one["deck_name"] == "Ember" and two["deck_name"] == "Frost"
    for player in record["players"]:
        for card, turn in player["first_drawn"].items():
            assert player["drawn"][card] >= 1 and turn >= 1


def _games(x_seat: int, with_x: tuple[int, int], without_x: tuple[int, int], first_seed: int) -> list[dict]:
    """Records where deck XY (in `x_seat`) plays deck ZZ: (wins, games) of XY with X in its opening
    hand and without."""
    records = []
    for in_hand, (wins, games) in ((True, with_x), (False, without_x)):
        for i in range(games):
            won = i < wins
            xy = {"seat": x_seat, "won": won, "deck": {"X": 1, "Y": 1}, "opening": {"X": 1} if in_hand else {"Y": 1},
                  "drawn": {}, "deck_name": "XY"}
            zz = {"seat": 3 - x_seat, "won": not won, "deck": {"Z": 2}, "opening": {"Z": 1}, "drawn": {},
                  "deck_name": "ZZ"}
            decks = ["XY", "ZZ"] if x_seat == 1 else ["ZZ", "XY"]
            records.append({"seed": first_seed + len(records), "winner": x_seat if won else 3 - x_seat,
                            "aborted": False, "agents": ["random", "random"], "decks": decks,
                            "players": sorted([xy, zz], key=lambda p: p["seat"])})
    return records


def test_the_effect_is_compared_within_seat_and_deck():
    """X is in the opening hand more often in seat 2, which loses more: pooled, X looks bad (-25 pp);
    within each seat it makes no difference, and the effect says so."""
    from interpreter.report.effects import card_effects

    records = _games(1, (3, 4), (9, 12), 0) + _games(2, (3, 12), (1, 4), 100)
    x = next(e for e in card_effects(records) if e.name == "X")
    assert (x.with_opening.successes, x.with_opening.n, x.without_opening.successes, x.without_opening.n) == (6, 16,
                                                                                                              10, 16)
    assert x.estimate == pytest.approx(0.0) and x.z == pytest.approx(0.0) and not x.flagged
    assert x.decks == ("XY",)


def test_an_effect_interval_stays_within_a_hundred_points():
    """Every game with X won, every game without it lost: +100 pp, and its interval cannot pass it."""
    from interpreter.report.effects import card_effects

    x = next(e for e in card_effects(_games(1, (4, 4), (0, 4), 0)) if e.name == "X")
    assert x.estimate == pytest.approx(1.0) and x.high == 1.0 and 0 < x.low < 1.0


def test_benjamini_hochberg_adjusts_across_the_cards():
    from interpreter.report.effects import CardEffect, _adjusted
    from interpreter.report.intervals import wilson

    def effect(name, p):
        return CardEffect(name, (), 1, wilson(0, 0), wilson(0, 0), 0.1, 0, 0.2, 2.0, p, None, False, None, "", (),
                          wilson(0, 0))

    ps = {"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.5}
    adjusted = {e.name: e for e in _adjusted([effect(n, p) for n, p in ps.items()])}
    # sorted p: a .01, c .03, b .04, d .5 -> p*m/rank: .04, .06, .0533, .5 -> running minimum from the top
    assert {n: round(e.q, 4) for n, e in adjusted.items()} == {"a": 0.04, "c": 0.0533, "b": 0.0533, "d": 0.5}
    assert [n for n, e in adjusted.items() if e.flagged] == ["a"]


@pytest.mark.parametrize("argv, message", [
    (["--decks", "Giantz"], "--decks: 'Giantz' is no deck file, folder or deck of planted (did you mean 'Giants'?)"),
    (["--decks", "Giants,Dwarves,Ember"], "--decks names 3 decks for 2 seats"),
    (["--round-robin"], "--round-robin plays every pair of the decks --decks names: give --decks"),
])
def test_a_wrong_deck_request_is_a_usage_error(capsys, argv, message):
    assert main(["simulate", str(RULESET), "--games", "2", *argv]) == 2
    assert message in capsys.readouterr().err


def test_swap_seats_in_a_game_without_decks_is_a_usage_error(capsys):
    assert main(["simulate", "lanes", "--games", "2", "--swap-seats"]) == 2
    assert "--swap-seats: lanes gives the players no decks to swap" in capsys.readouterr().err


def test_statistics_attributes_must_be_card_attributes(tmp_path):
    folder = tmp_path / "planted"
    shutil.copytree(PLANTED, folder)
    ruleset = folder / "planted.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("attributes: [cost, power]",
                                                                   "attributes: [cost, powr]"), encoding="utf-8")
    from interpreter import load

    with pytest.raises(CardrulesError) as err:
        load(str(ruleset))
    text = str(err.value)
    line = ruleset.read_text(encoding="utf-8").splitlines().index("  attributes: [cost, powr]") + 1
    assert f"{ruleset}:{line}:22: validation error: statistics.attributes names 'powr', which no card type has " \
           "(did you mean 'power'?)" in text


@pytest.mark.skipif(os.environ.get("CARDRULES_LONG") != "1", reason="the long run only (CARDRULES_LONG=1)")
def test_with_every_card_ordinary_a_flag_is_rare():
    """20 batches of the planted duel with Ogre ordinary (no card better than another): the share
    of batches that flag any card stays near the false-discovery rate (at most 5 of 20)."""
    from interpreter.report.effects import card_effects

    ordinary = (('card "Ogre" : unit { cost = 1 power = 2 }', "<ordinary>", 1, 1),)
    flagged = 0
    decks = (str(PLANTED / "decks" / "ember.yaml"), str(PLANTED / "decks" / "frost.yaml"))
    for batch in range(20):
        records = []
        for seating in (decks, decks[::-1]):
            spec = BatchSpec.of(str(RULESET), records=True, decks=seating, override=ordinary)
            records += [play_game(spec, seed)[0] for seed in game_seeds(1000 + batch, 0, 400)]
        flagged += any(e.flagged for e in card_effects(records))
    assert flagged <= 5


def test_no_swap_seats_keeps_each_deck_in_its_seat(tmp_path, capsys):
    records = tmp_path / "games.jsonl"
    assert main(["simulate", str(RULESET), "--games", "5", "--decks", "Ember,Frost", "--no-swap-seats",
                 "--records", str(records), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    lines = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    assert summary["games"] == 5 and summary["seating"] == "1 table of decks"
    assert [r["decks"] for r in lines] == [["Ember", "Frost"]] * 5
    assert [r["seed"] for r in lines] == sorted(game_seeds(0, 0, 5))


def test_a_folder_of_decks_gives_those_of_the_rules_format():
    from interpreter import load
    from interpreter.cli.decks import resolve_decks

    root = Path(__file__).resolve().parent.parent / "rulesets" / "bases" / "decks"
    for fmt in ("conflict", "skirmish"):
        decks = resolve_decks(load("bases", options={"format": fmt}), str(root))
        assert [Path(d.file).name for d in decks] == sorted(f.name for f in root.glob(f"{fmt}-*.yaml"))
