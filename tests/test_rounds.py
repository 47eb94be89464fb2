"""Nested turn structure (`turn.rounds`, docs/rulesets.md#rounds): levels that hold turns, their
counters, start and end steps and `until`, decisions inside them, and the load checks."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from interpreter import load, load_game_json
from interpreter.errors import CardrulesError

ROUNDS = Path(__file__).resolve().parent / "data" / "rounds" / "rounds.yaml"


def test_levels_count_their_rounds_and_turns_restart_in_each():
    game = load(ROUNDS).new_game(seed=1)
    assert game.result is not None and game.result.reason == "two deals"
    deal = [
        "deal start {d}.0.0 {a} shuffle_up",
        "trick start {d}.1.0 P1 shuffle_up", "act {d}.1.1 P1 act", "act {d}.1.2 P2 act", "act {d}.1.3 P3 act",
        "trick end {d}.1.3 P3 act",
        "trick start {d}.2.0 P2 act", "act {d}.2.1 P2 act", "act {d}.2.2 P3 act", "act {d}.2.3 P1 act",
        "trick end {d}.2.3 P1 act",
        "deal end {d}.2.3 P1 act",
    ]
    expected = [line.format(d=1, a="nothing") for line in deal] + [line.format(d=2, a="P1") for line in deal]
    assert game.state.globals["seen"] == expected
    assert game.result.turns == 12  # every turn of every round, though game.turn starts again


def test_player_count_and_options_shape_the_rounds():
    game = load(ROUNDS, {"players": 2, "tricks": 3}).new_game(seed=1)
    acts = [s for s in game.state.globals["seen"] if s.startswith("act")]
    assert len(acts) == 2 * 3 * 2
    assert [s.split()[1] for s in acts[:6]] == ["1.1.1", "1.1.2", "1.2.1", "1.2.2", "1.3.1", "1.3.2"]
    assert game.result.turns == 12


def _play(game, rng: random.Random, save_every_decision: bool) -> tuple[list, list]:
    choices = []
    while not game.is_over:
        seat, pending = game.decision()
        if save_every_decision:
            game = load_game_json(json.loads(json.dumps(game.to_json())), game.rules)
        index = rng.randrange(len(pending))
        choices.append((seat, index))
        game.apply(index)
    return game.state.globals["seen"], choices


def test_decisions_inside_a_round_end_resume_saved_and_copied():
    rules = load(ROUNDS, {"ask": True})
    seen, choices = _play(rules.new_game(seed=4), random.Random(7), False)
    assert [seat for seat, _ in choices] == [3, 1, 3, 1]  # the last player of each trick decides
    assert sum(s.startswith("chose") for s in seen) == 4
    resumed, again = _play(rules.new_game(seed=4), random.Random(7), True)
    assert (resumed, again) == (seen, choices)
    picks = iter(index for _seat, index in choices)
    fast = rules.play_out(lambda g: next(picks), seed=4)
    assert fast.state.globals["seen"] == seen


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    for f in ROUNDS.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    text = (tmp_path / "rounds.yaml").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "rounds.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path / "rounds.yaml"


@pytest.mark.parametrize("old, new, message", [
    ('      until: "game.turn == count(players)"\n', "", "missing required key 'until'"),
    ("    - name: trick\n", "    - name: seen\n", "'seen' is already a global"),
    ("    - name: trick\n", "    - name: deal\n", "two levels of turn.rounds are named 'deal'"),
    ("{name: shuffle_up,", "{name: act,", "phase 'act' of the deal has the name of another phase"),
    ('until: "game.trick == options.tricks"', 'until: "game.trik == options.tricks"', "game.trik"),
])
def test_a_wrong_level_is_a_located_load_error(tmp_path, old, new, message):
    path = _variant(tmp_path, old, new)
    with pytest.raises(CardrulesError) as err:
        load(path)
    text = str(err.value)
    assert message in text and "rounds.yaml:" in text
