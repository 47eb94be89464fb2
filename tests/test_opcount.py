"""benchmarks/opcount.py: instructions per decision, counted over the same seeded games for the
interpreter and the hand-written version of a game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from baselines import load_baseline, load_benchmark
from playout import LONG

opcount = load_benchmark("opcount")


def test_counts_are_repeatable_and_compare_the_same_games():
    first = opcount.report_game("initiative", 1, 1, 3)
    again = opcount.report_game("initiative", 1, 1, 3)
    assert first == again  # (instructions, unlike seconds, do not vary from run to run)
    assert first["decisions"] > 10
    assert first["instructions_per_decision"] > 0 and first["handwritten_instructions_per_decision"] > 0
    ratio = first["instructions_per_decision"] / first["handwritten_instructions_per_decision"]
    assert first["interpreter_over_handwritten"] == pytest.approx(ratio, rel=0.01)
    assert len(first["top"]) == 3 and first["top"][0][1] >= first["top"][2][1]


def test_the_layers_split_the_whole_count_and_bound_the_engines_share():
    entry = opcount.report_game("initiative", 1, 1, 0, playout=True)
    layers = entry["by_layer"]
    assert set(layers) == {"rule code", "engine", "other"} and all(n > 0 for n in layers.values())
    assert sum(layers.values()) == pytest.approx(entry["instructions_per_decision"], abs=0.2)
    without = (layers["rule code"] + layers["other"]) / entry["handwritten_instructions_per_decision"]
    assert entry["without_engine_over_handwritten"] == pytest.approx(without, abs=0.01)
    assert entry["without_engine_over_handwritten"] < entry["interpreter_over_handwritten"]


def test_functions_are_put_in_their_layer():
    assert opcount.layer_of("<cardrules 12: function claim_of>") == "rule code"
    assert opcount.layer_of(str(opcount.ENGINE / "engine" / "zones.py")) == "engine"
    assert opcount.layer_of(str(opcount.ENGINE) + "_elsewhere/zones.py") == "other"  # (a folder, not a prefix)
    assert opcount.layer_of(random.__file__) == "other"


def test_games_that_are_not_the_same_give_no_ratio(monkeypatch):
    baseline = load_baseline("initiative")

    class ShortGame(baseline.Game):
        """Ends after its first decision: not the interpreter's game."""

        def apply(self, index):
            super().apply(index)
            self.over = True

    monkeypatch.setattr(baseline, "Game", ShortGame)
    monkeypatch.setattr(opcount, "handwritten_module", lambda name: baseline)
    with pytest.raises(SystemExit, match="the hand-written version took 2 decisions"):
        opcount.report_game("initiative", 2, 1, 0)


@pytest.mark.skipif(not LONG, reason="counted twice more: with CARDRULES_LONG=1")
def test_games_played_out_are_counted_as_the_same_games():
    # --playout: the same seeded random games, played by Rules.play_out (the rollout form)
    stepped = opcount.report_game("initiative", 1, 1, 0)
    played = opcount.report_game("initiative", 1, 1, 10, playout=True)
    assert played == opcount.report_game("initiative", 1, 1, 10, playout=True)
    assert played["decisions"] == stepped["decisions"]
    assert played["set_up_instructions_per_game"] == 0  # (counted with the play)
    assert played["instructions_per_decision"] < stepped["instructions_per_decision"]
    assert played["handwritten_instructions_per_decision"] > stepped["handwritten_instructions_per_decision"]
    assert any("?rollout?" in key for key, _n in played["top"])


def test_two_versions_are_timed_round_by_round_in_fresh_processes(capsys, monkeypatch):
    # benchmarks/ab.py: rounds alternate which version goes first; each run is a process of its own
    ab = load_benchmark("ab")
    runs = []
    monkeypatch.setattr(ab, "timed", lambda directory, game, games: runs.append(directory) or (
        1.0 if directory == "old" else 0.5) + 0.1 * len(runs))
    assert ab.main(["lanes", "--before", "old", "--after", "new", "--rounds", "3", "--games", "2"]) == 0
    assert runs == ["old", "new", "new", "old", "old", "new"]
    out = capsys.readouterr().out
    assert "fastest: 1.100 -> 0.700 s (1.571x)" in out and "lanes: 2 games a round, 3 rounds" in out
    assert ab.timed(str(Path(__file__).resolve().parents[1]), "initiative", 1) > 0  # (a real run)
