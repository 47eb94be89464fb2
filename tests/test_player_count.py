"""The number of players as a ruleset option: `players: {min, max, default}`.

A copy of the toy ruleset (tests/data/toy) made for 2 to 4 players is played by random agents
with 2, 3 and 4 players: the seats, the turn order, the observations and the default decks (which
cycle over the seats) follow the count chosen with `options={"players": N}` or `--option
players=N`; so do `cardrules play`/`simulate` (their agent lists), logs that replay, saved games
and scenarios. A count outside the range, or any other count for a fixed-count ruleset, is an error
naming the option and the range; a range that is wrong is located in the ruleset.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from interpreter import load, load_game_json
from interpreter.cli.main import main
from interpreter.errors import CardrulesError, ErrorList, RulesError
from interpreter.scenarios import run_scenario

TOY_DIR = Path(__file__).resolve().parent / "data" / "toy"

TABLE_YAML = """\
extends: toy.yaml
name: table
players: {min: 2, max: 4, default: 2}
code: [toy.rules, table.rules]
setup: deal()
decks: {default: [decks/one.yaml, decks/two.yaml]}
end:
  - {when: "game.turn > 2 * count(players)", draw: two rounds played}
"""

TABLE_RULES = """\
procedure deal() {
  for p in players {
    shuffle pile(p)
    repeat 2 { move first(pile(p)) to hand(p) }
  }
}
"""

SITES = "sites: {Red Keepsake: 1, Blue Outpost: 1, Green Outpost: 1}\n"


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """The toy ruleset copied into tmp_path, with a variant of it for 2 to 4 players, two default
    decks, a set-up that deals two cards to each player and an end after two rounds."""
    for f in TOY_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "one.yaml").write_text("name: One\ncards: {Plain: 2, Big: 1}\n" + SITES)
    (tmp_path / "decks" / "two.yaml").write_text("name: Two\ncards: {Sturdy: 2, Watcher: 2}\n" + SITES)
    (tmp_path / "table.rules").write_text(TABLE_RULES)
    path = tmp_path / "table.yaml"
    path.write_text(TABLE_YAML)
    return path


def _play_randomly(game, rng: random.Random) -> list[int]:
    """Play the game to its end with random choices; the seat of each decision, in order."""
    seats = []
    while not game.is_over:
        seat, options = game.decision()
        seats.append(seat)
        assert len(game.observation(seat)["players"]) == len(game.players)
        game.apply(rng.randrange(len(options)))
    return seats


@pytest.mark.parametrize("count", [2, 3, 4])
def test_random_games_have_the_chosen_number_of_players(table, count):
    rules = load(table, options={"players": count})
    assert rules.player_count == count and rules.options["players"] == count
    assert rules.player_range == (2, 4)
    for seed in range(3):
        game = rules.new_game(seed=seed)
        assert [p.seat for p in game.players] == list(range(1, count + 1))
        # the default decks cycle over the seats: One, Two, One, Two
        assert [d.name for d in game.state.decks] == ["One", "Two", "One", "Two"][:count]
        for seat in range(1, count + 1):
            assert len(game.state.zones[("hand", seat, "")]) == 2
        seats = _play_randomly(game, random.Random(seed))
        # each turn its active player takes two decisions (a card, a row), in seat order, two rounds
        assert seats == [s for s in range(1, count + 1) for _ in range(2)] + list(range(1, count + 1))
        assert game.result.reason == "two rounds played" and game.result.turns == 2 * count + 1
        for viewer in range(1, count + 1):
            observation = game.observation(viewer)
            assert [p["seat"] for p in observation["players"]] == list(range(1, count + 1))
            assert sorted(observation["zones"]) == [*(f"P{s}" for s in range(1, count + 1)), "shared"]


def test_without_the_option_the_default_count_plays(table):
    rules = load(table)
    assert rules.player_count == 2 and rules.options["players"] == 2
    three = load(table, options={"players": "3"})  # text, as --option gives it
    assert three.player_count == 3


def test_a_variant_may_change_the_default_count(table):
    variant = table.parent / "three.yaml"
    variant.write_text("extends: table.yaml\nname: three\nplayers: {default: 3}\n")
    rules = load(variant)
    assert rules.player_count == 3 and rules.player_range == (2, 4)


@pytest.mark.parametrize("count, message", [
    (5, "option players must be at most 4, not 5 (a whole number from 2 to 4)"),
    (1, "option players must be at least 2, not 1 (a whole number from 2 to 4)"),
    ("many", "option players takes a whole number from 2 to 4, not 'many'"),
])
def test_a_count_outside_the_range_names_the_option_and_the_range(table, count, message):
    with pytest.raises(RulesError) as info:
        load(table, options={"players": count})
    assert info.value.message == message


def test_a_fixed_count_ruleset_takes_only_its_count():
    toy = TOY_DIR / "toy.yaml"
    assert load(toy, options={"players": 2}).player_count == 2
    assert "players" not in load(toy).options  # (a fixed count is no option of the game)
    with pytest.raises(RulesError) as info:
        load(toy, options={"players": 3})
    assert info.value.message == "option players: toy is played by 2 players exactly, not 3"
    assert "players: {min: 2, max: 4, default: 2}" in str(info.value)


@pytest.mark.parametrize("players, message, column", [
    ("{min: 3, max: 2}", "players: its min 3 is above its max 2", 16),
    ("{min: 2, max: 4, default: 5}", "players: its default 5 is above its max 4", 36),
    ("{min: 0, max: 4}", "0 is below the minimum 1", 16),
    ("{min: 2, max: 4, most: 3}", "unknown key 'most'", 27),
    ("{min: 2}", "missing required key 'max'", 1),
    ("two", "expected a whole number or a mapping, got the text 'two'", 10),
    ("0", "0 is below the minimum 1", 10),
])
def test_a_wrong_range_is_located(table, players, message, column):
    table.write_text(TABLE_YAML.replace("players: {min: 2, max: 4, default: 2}", f"players: {players}"))
    with pytest.raises(CardrulesError) as info:
        load(table)
    errors = info.value.errors if isinstance(info.value, ErrorList) else [info.value]
    found = [e for e in errors if message in e.message]
    assert found, [str(e) for e in errors]
    assert found[0].span.file == str(table) and found[0].span.line == 3
    assert found[0].span.column == column, str(found[0])


def test_a_saved_game_keeps_its_count(table):
    game = load(table, options={"players": 3}).new_game(seed=4)
    game.apply(0)
    again = load_game_json(json.loads(json.dumps(game.to_json())))
    assert len(again.players) == 3 and again.rules.player_count == 3
    assert again.decision()[0] == game.decision()[0] == 1
    assert [o.label for o in again.decision()[1]] == [o.label for o in game.decision()[1]]


def test_a_scenario_may_choose_the_count(table):
    scenario = table.parent / "three.yaml"
    scenario.write_text(
        "ruleset: table.yaml\ncites: [T-1]\noptions: {players: 3}\n"
        "given:\n  turn: {number: 3, phase: main, active: 3}\n"
        "  players:\n    1: {hand: [Plain, Big]}\n    3: {hand: [Plain]}\n"
        "when:\n  - {player: 3, choose: left}\n"  # (one card in hand: placed without asking)
        "then:\n  players.3.board.left: [Plain]\n"
        "  decision.player: 1  # turn 4: after seat 3 comes seat 1\n")
    result = run_scenario(scenario)
    assert result.passed, result.failures


# ---------------------------------------------------------------- the command line
def test_play_and_replay_with_three_players(table, tmp_path, capsys):
    log = tmp_path / "three.jsonl"
    code = main(["play", str(table), "--seed", "5", "--option", "players=3", "--players", "random,first,random",
                 "--log", str(log)])
    out = capsys.readouterr().out
    assert code == 0 and "players P1 random, P2 first, P3 random" in out
    assert "P3 chooses" in out and "draw (two rounds played) after 7 turns" in out
    header = json.loads(log.read_text().splitlines()[0])
    assert header["options"]["players"] == 3 and len(header["players"]) == 3 and len(header["decks"]) == 3
    assert main(["replay", str(log)]) == 0
    assert "replay identical" in capsys.readouterr().out


def test_an_agent_list_of_another_length_says_how_to_choose_the_count(table, capsys):
    assert main(["play", str(table), "--players", "random,random,random"]) == 2
    err = capsys.readouterr().err
    assert "this game has 2 players, but 3 were given" in err and "add --option players=3 (it takes 2 to 4)" in err
    assert main(["simulate", str(table), "--games", "1", "--agents", "random,random,random,random,random"]) == 2
    assert "(it is played by 2 to 4)" in capsys.readouterr().err


def test_simulate_follows_the_chosen_count(table, capsys):
    code = main(["simulate", str(table), "--games", "3", "--option", "players=4", "--agents",
                 "random,first,random,first", "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    summary = json.loads(out)
    assert len(summary["wins"]) == 4 and summary["draws"] == 3 and summary["options"]["players"] == 4
    assert summary["mean_turns"] == 9


def test_simulate_refuses_a_count_outside_the_range(table, capsys):
    assert main(["simulate", str(table), "--games", "1", "--option", "players=6"]) == 2
    err = capsys.readouterr().err
    assert "option players must be at most 4, not 6" in err and "Traceback" not in err
