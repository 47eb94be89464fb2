"""Game records for the balance report (interpreter/backends): what each record counts is checked
against the game itself, played again with its log; aborted games are recorded, not raised; the
ruleset's `statistics:` section and card overrides are checked at load, located."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from interpreter import load
from interpreter.agents import decider, make_agent
from interpreter.backends import BatchSpec, LocalBackend, agent_seed, play_game
from interpreter.backends.spec import rules_for
from interpreter.errors import CardrulesError

TOY = Path(__file__).parent / "data" / "toy" / "toy.yaml"


def _logged_game(game: str, seed: int):
    """The same game as the batch plays for this seed, played step by step with its log."""
    rules = load(game)
    agents = [make_agent("random", seed=agent_seed(seed, s)) for s in (1, 2)]
    g = rules.new_game(seed=seed, log=True)
    g.play_out(decider(agents))
    return rules, g


@pytest.mark.parametrize("game, played_event", [("initiative", "resolving"), ("bases", "cast"), ("lanes", "played")])
def test_a_record_counts_what_its_game_did(game, played_event):
    for seed in (3, 11):
        record, _log = play_game(BatchSpec.of(game, records=True), seed)
        rules, g = _logged_game(game, seed)
        assert record["winner"] == g.result.winner and record["turns"] == g.result.turns
        assert record["decisions"] == g.state.answered
        events = [e for e in g.log if e["type"] == "event"]
        for player in record["players"]:
            seat = player["seat"]
            plays = Counter(e["args"]["card"].split("#")[0] for e in events
                            if e["event"] == played_event and e["args"].get("player") == f"P{seat}")
            assert player["played"] == dict(plays)
            assert player["won"] == (g.result.winner == seat)
            for name, count in player["opening"].items():  # the opening hand is part of the deck
                assert count <= player["deck"][name]
        if game == "initiative":  # every card of a fixed deck, and nothing else
            decks = rules.default_decks()
            for player in record["players"]:
                assert player["deck"] == dict(sorted(decks[player["seat"] - 1].counts().items()))
                assert set(player["drawn"]) <= set(player["deck"])
                assert sum(player["opening"].values()) == 5


def test_draft_picks_and_offers_follow_the_draft_events():
    record, _ = play_game(BatchSpec.of("lanes", records=True), 5)
    _rules, g = _logged_game("lanes", 5)
    drafted = [e for e in g.log if e["type"] == "event" and e["event"] == "drafted"]
    for player in record["players"]:
        mine = Counter(e["args"]["card"].split("#")[0] for e in drafted if e["args"]["player"] == f"P{player['seat']}")
        assert player["picked"] == dict(sorted(mine.items()))
    rounds = [e for e in g.log if e["type"] == "event" and e["event"] == "draft_round"]
    assert len(record["offers"]) == len(rounds)
    for offer, event in zip(record["offers"], rounds):
        assert offer["cards"] == [c.split("#")[0] for c in event["args"]["cards"]]
        assert sorted(offer["picks"]) == sorted(offer["cards"])  # every card of a round is taken, once


def test_lead_changes_are_counted_from_the_score_at_each_turn_start():
    rules = load("initiative")
    record, _ = play_game(BatchSpec.of("initiative", records=True), 7)
    agents = [make_agent("random", seed=agent_seed(7, s)) for s in (1, 2)]
    g = rules.new_game(seed=7, log=False)
    leaders = []
    while not g.is_over:
        turn = g.state.globals["turn"]
        g.apply(decider(agents)(g))
        if g.state.globals["turn"] != turn and not g.is_over:  # a turn began: who leads at its start
            health = [g.state.player_attrs[i]["health"] for i in range(2)]
            if health[0] != health[1]:
                leaders.append(1 if health[0] > health[1] else 2)
    changes = sum(1 for a, b in zip(leaders, leaders[1:]) if a != b)
    assert record["lead_changes"] == changes


def test_records_are_the_same_with_one_or_two_workers():
    spec = BatchSpec.of("bases", records=True)
    with LocalBackend(1) as one:
        a = sorted((r for r, _ in one.run(spec, range(12))), key=lambda r: r["seed"])
    with LocalBackend(2) as two:
        b = sorted((r for r, _ in two.run(spec, range(12))), key=lambda r: r["seed"])
    assert a == b and [r["seed"] for r in a] == list(range(12))


def _looping_ruleset(tmp_path: Path) -> Path:
    for f in TOY.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "loops.yaml"
    path.write_text("extends: toy.yaml\nname: loops\nsetup: \"if random([1, 2, 3]) == 1 { spin() }\"\n",
                    encoding="utf-8")
    return path


def test_a_game_that_loops_is_recorded_as_aborted_and_the_batch_goes_on(tmp_path):
    spec = BatchSpec.of(str(_looping_ruleset(tmp_path)), records=True)
    with LocalBackend(2) as backend:
        records = {r["seed"]: r for r, _ in backend.run(spec, range(30))}
    assert sorted(records) == list(range(30))
    aborted = [r for r in records.values() if r["aborted"]]
    finished = [r for r in records.values() if not r["aborted"]]
    assert aborted and finished  # about a third loop
    for r in aborted:
        assert "spin" in r["reason"] and r["winner"] is None
        assert r["rule"].startswith(str(tmp_path / "toy.rules") + ":")
    assert all(r["reason"] == "three turns played" for r in finished)


def test_an_agent_that_raises_aborts_its_game_only():
    spec = BatchSpec.of("initiative", agents=["samplebots.bots:Crashing", "random"], records=True)
    record, _ = play_game(spec, 1)
    assert record["aborted"] and "ZeroDivisionError" in record["reason"] and "divided by zero" in record["reason"]


def test_statistics_names_are_checked_at_load(tmp_path):
    for f in TOY.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: toy.yaml\nname: bad\nstatistics:\n  hand: hnd\n  played: [poked, tick]\n"
                   "  picked: bumped\n", encoding="utf-8")
    with pytest.raises(CardrulesError) as err:
        load(bad)
    text = str(err.value)
    assert f"{bad}:4:9" in text and "'hnd'" in text and "did you mean 'hand'" in text
    assert f"{bad}:5:19: validation error: statistics.played: event 'tick' has no 'card' argument" in text
    assert f"{bad}:5:12" not in text  # poked(card: ...) is fine
    assert "statistics.picked: event 'bumped' has no 'card' argument" in text
    assert "statistics.picked: event 'bumped' has no 'player' argument" in text


def test_a_shared_zone_is_no_hand(tmp_path):
    for f in TOY.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: toy.yaml\nname: bad\nstatistics: {hand: pool}\n", encoding="utf-8")
    with pytest.raises(CardrulesError, match="shared"):
        load(bad)


def test_an_override_replaces_the_card_of_that_name():
    ok = Path("tests/data/overrides/ember-slinger-strong.yaml").resolve()
    text = ok.read_text(encoding="utf-8").split("cards: |\n", 1)[1]
    base, _ = rules_for(BatchSpec.of("bases"))
    rules, _ = rules_for(BatchSpec.of("bases", override=((text, str(ok), 5, 1),)))
    assert base.card_defs["Ember Slinger"].initial["cost"] == 2
    assert rules.card_defs["Ember Slinger"].initial["cost"] == 1
    assert rules.card_defs["Ember Slinger"].initial["offense"] == 5
    assert sorted(rules.card_defs) == sorted(base.card_defs)


def test_replace_swaps_every_copy_in_the_decks_and_checks_the_names():
    base, _ = rules_for(BatchSpec.of("initiative"))
    rules, decks = rules_for(BatchSpec.of("initiative", replace=(("Sneak Attack", "Twist Fate"),)))
    for old, new in zip(base.default_decks(), decks):
        before, after = old.counts(), new.counts()
        assert "Sneak Attack" not in after
        assert after.get("Twist Fate", 0) == before.get("Twist Fate", 0) + before.get("Sneak Attack", 0)
    with pytest.raises(CardrulesError, match="--replace Stab=Bandage breaks the deck rules: .* at most 6"):
        rules_for(BatchSpec.of("initiative", replace=(("Stab", "Bandage"),)))
    with pytest.raises(CardrulesError, match="did you mean 'Stab'"):
        rules_for(BatchSpec.of("initiative", replace=(("Stabb", "Bandage"),)))
    with pytest.raises(CardrulesError, match="no decks"):
        rules_for(BatchSpec.of("lanes", replace=(("Fire Dart", "Moth Scout"),)))


def test_first_player_is_the_active_player_of_the_first_turn():
    record, _ = play_game(BatchSpec.of("bases", records=True), 2)
    _rules, g = _logged_game("bases", 2)
    first = next(e for e in g.log if e["type"] == "event" and e["event"] == "turn_start")
    assert f"P{record['first_player']}" == first["args"]["player"]
