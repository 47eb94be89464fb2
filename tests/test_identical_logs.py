"""The identical-logs safety net (issue 31): every corpus game (tests/helpers/logcorpus.py, saved
in tests/data/logcorpus/) replays now decision for decision, in the resumable and the rollout
form, with the random generator advancing the same way; every shipped game and every test
ruleset has corpus games; and the comparison catches a change at the decision it happens."""

from __future__ import annotations

import shutil

import pytest
from logcorpus import (
    CASES,
    FORMS,
    ROOT,
    WRITE_COMMAND,
    Case,
    check,
    compare,
    corpus_games,
    coverage_problems,
    play,
    read,
    ruleset_files_under_tests,
)

from interpreter import load
from interpreter.engine.state import GameState
from interpreter.paths import shipped_games


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case, seed", corpus_games(), ids=[f"{c.name}.seed{s}" for c, s in corpus_games()])
def test_a_corpus_game_plays_as_saved(case, seed, form):
    found = check(case, seed, form)
    if found is not None:
        pytest.fail(str(found), pytrace=False)


def test_every_shipped_game_and_test_ruleset_has_corpus_games():
    assert coverage_problems() == []
    covered = {c.ruleset for c in CASES}
    assert set(shipped_games()) <= covered
    # the test rulesets known today are found (the search for them is not silently empty)
    assert {"tests/data/toy/toy.yaml", "tests/data/rounds/rounds.yaml", "tests/data/twins/twins.yaml"} <= \
        set(ruleset_files_under_tests())
    for game in shipped_games():
        assert sum(len(c.seeds) for c in CASES if c.ruleset == game) >= 3, game


def test_a_new_test_ruleset_without_corpus_games_fails_naming_the_command(tmp_path):
    """A ruleset added under tests/ (here: of a copy of the tests folder) is named, with the
    command that writes its corpus games; so is a case whose corpus file is missing."""
    (tmp_path / "tests" / "scenarios").mkdir(parents=True)
    shutil.copytree(ROOT / "tests" / "data" / "logcorpus", tmp_path / "tests" / "data" / "logcorpus")
    shutil.copytree(ROOT / "tests" / "data" / "toy", tmp_path / "tests" / "data" / "newgame")
    (tmp_path / "tests" / "data" / "newgame" / "toy.yaml").rename(tmp_path / "tests" / "data" / "newgame" / "newgame.yaml")
    (tmp_path / "tests" / "scenarios" / "x.yaml").write_text("ruleset: ../data/newgame/newgame.yaml\n")
    problems = coverage_problems(tmp_path, [*CASES, Case("unsaved", "tests/data/toy/toy.yaml", seeds=(99,))])
    assert problems == [
        "tests/data/newgame/newgame.yaml has no corpus games: add a Case for it to CASES in "
        f"tests/helpers/logcorpus.py, then run: {WRITE_COMMAND} CASE",
        f"tests/data/logcorpus/unsaved.seed99.jsonl.gz is missing: run: {WRITE_COMMAND} unsaved",
    ]


HARVEST = next(c for c in CASES if c.name == "harvest")
SEED_DRAWING_GOLD = 1  # (in this corpus game of Lookahead, P2 draws a Gold at decision 1)


@pytest.mark.parametrize("form", FORMS)
def test_a_changed_shuffle_is_caught_at_the_decision_it_happens(monkeypatch, capsys, form):
    """The engine's shuffle changed for one shuffle in mid-game, the first after a third of the
    log (it shuffles twice, drawing more from the generator): the comparison reports exactly the
    decision during which that shuffle runs, found independently by watching the unchanged
    shuffle."""
    saved = read(HARVEST, 1)
    original = GameState.shuffle
    calls: list[int] = []  # the log's length at each shuffle

    def watching(game, key):
        calls.append(game.log_length)
        original(game, key)

    monkeypatch.setattr(GameState, "shuffle", watching)
    assert compare(saved, play(HARVEST, 1, form)) is None
    flat = saved.flat_log()
    nth = next(i for i, length in enumerate(calls) if length > len(flat) // 3)
    expected = flat[calls[nth] - 1][0]  # the decision of the last entry written before it
    assert expected is not None and expected > 10
    count = [0]

    def changed(game, key):
        original(game, key)
        if count[0] == nth:
            original(game, key)
        count[0] += 1

    monkeypatch.setattr(GameState, "shuffle", changed)
    found = compare(saved, play(HARVEST, 1, form))
    assert found is not None and found.decision == expected and found.kind in ("log", "generator")
    print(found)
    assert f"divergence at decision {expected} (0-based)" in capsys.readouterr().out


def test_a_generator_drawn_once_more_is_reported_as_a_generator_divergence(monkeypatch):
    """One more number drawn from the generator after decision 7 changes no log entry of that
    decision: the report says the generator diverged there."""
    case = next(c for c in CASES if c.name == "bases")
    original = GameState.apply
    applied = [0]

    def apply(game, option):
        out = original(game, option)
        if applied[0] == 7:
            game.rng.random()
        applied[0] += 1
        return out

    monkeypatch.setattr(GameState, "apply", apply)
    found = compare(read(case, 1), play(case, 1, "step"))
    assert found is not None and (found.kind, found.decision) == ("generator", 7)
    text = str(found)
    assert text.startswith("bases seed 1 (bases; step form): generator divergence at decision 7 (0-based): "
                           "the logs agree so far, but the random generator's state after it differs")
    assert f"before (the corpus): {read(case, 1).steps[8].rng}" in text


def test_a_changed_rule_shows_the_differing_entry_side_by_side(tmp_path):
    """A copy of the Costly test ruleset whose game ends with another reason: the last entry
    of the log (the end, at the last decision) differs; the report shows it side by side and
    the 3 entries before it."""
    case = next(c for c in CASES if c.name == "test-costly")
    shutil.copytree(ROOT / "tests" / "data" / "costly", tmp_path / "costly")
    ruleset = tmp_path / "costly" / "costly.yaml"
    ruleset.write_text(ruleset.read_text().replace("draw: forty turns}", "draw: forty turns played}"))
    saved = read(case, 1)
    found = compare(saved, play(case, 1, "step", load(ruleset)))
    last = len(saved.flat_log()) - 1
    assert found is not None and (found.kind, found.decision, found.entry) == ("log", saved.decisions - 1, last)
    assert found.before == {"type": "end", "winner": None, "reason": "forty turns"}
    assert found.after == {"type": "end", "winner": None, "reason": "forty turns played"}
    assert [i for i, _d, _e in found.context] == [last - 3, last - 2, last - 1]
    text = str(found)
    print(text)
    assert '!  "reason": "forty turns"' in text and '|  "reason": "forty turns played"' in text
    assert f"{last - 1:>9} [decision {saved.decisions - 1}]" in text


def test_a_changed_card_no_entry_tells_of_shows_in_the_final_observation(tmp_path):
    """A copy of the Lookahead test ruleset whose Gold is worth 3, not 2: a draw's worth is in no
    log entry, but the scores at the end differ."""
    case = next(c for c in CASES if c.name == "test-lookahead")
    shutil.copytree(ROOT / "tests" / "data" / "lookahead", tmp_path / "lookahead")
    cards = tmp_path / "lookahead" / "lookahead.cards"
    cards.write_text(cards.read_text().replace('"Gold" : plain { worth = 2 }', '"Gold" : plain { worth = 3 }'))
    saved = read(case, SEED_DRAWING_GOLD)
    found = compare(saved, play(case, SEED_DRAWING_GOLD, "step", load(tmp_path / "lookahead" / "lookahead.yaml")))
    assert found is not None and found.kind == "final observation"
    assert found.summary.endswith(".score") and found.after == found.before + 1


def test_a_changed_option_label_is_caught_at_the_first_decision(tmp_path):
    """A copy of the Costly test ruleset whose tiles read otherwise: the options of decision 0
    differ (their ids and labels are in the digest), before any log entry does."""
    case = next(c for c in CASES if c.name == "test-costly")
    shutil.copytree(ROOT / "tests" / "data" / "costly", tmp_path / "costly")
    ruleset = tmp_path / "costly" / "costly.yaml"
    ruleset.write_text(ruleset.read_text().replace('label: "{name}"', 'label: "tile {name}"'))
    found = compare(read(case, 1), play(case, 1, "fast", load(ruleset)))
    assert found is not None and (found.kind, found.decision) == ("options", 0)
    assert str(found).startswith("test-costly seed 1 (tests/data/costly/costly.yaml; fast form): options divergence "
                                 "at decision 0 (0-based): the decision offers other options (in the corpus P1 "
                                 "chose option 4 of 23: 'red 12')")
