"""Every shipped ruleset, in each deck format, writes logs that replay: the log's header holds
everything the game was started with (every part of every deck, options, seats and agents)."""

from __future__ import annotations

import json

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.paths import shipped_games

CASES = [(game, []) for game in shipped_games()] + [
    ("bases", ["--option", "format=skirmish"]),
    ("lanes", ["--option", "draft=random"]),
]


@pytest.mark.parametrize("game, options", CASES, ids=lambda c: c if isinstance(c, str) else "-".join(c))
@pytest.mark.parametrize("seed", [5, 11])
def test_a_played_game_replays_identically(capsys, tmp_path, game, options, seed):
    log = tmp_path / "game.jsonl"
    assert main(["play", game, "--seed", str(seed), "--quiet", "--log", str(log), *options]) == 0
    header = json.loads(log.read_text().splitlines()[0])
    rules = load(game)
    assert header["players"] == ["random"] * rules.player_count and header["seed"] == seed
    assert len(header["decks"]) == len(rules.default_decks())
    for deck in header["decks"]:
        assert sum(deck["cards"].values()) > 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("replay identical: ")


def test_a_bases_log_keeps_the_bases():
    """The deck's other part (the bases, which start in another zone) is in the header."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "g.jsonl"
        assert main(["play", "bases", "--seed", "3", "--quiet", "--log", str(log)]) == 0
        header = json.loads(log.read_text().splitlines()[0])
    for deck in header["decks"]:
        assert sum(deck["bases"].values()) == 5 and sum(deck["cards"].values()) >= 40
