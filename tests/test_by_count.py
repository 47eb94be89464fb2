"""A decider by count (`by_count(choose)`, `choose(seat, number of options) -> index`): what random
agents and a search's random playouts are. A play-out asks it without making the decision's
object, and plays the very game a deciding function that reads the decision and answers the same
index plays; an answer that is no option's index is refused as `apply` refuses it. Unlogged and
unwatched, it keeps no record of what each player saw (`sight_kept`): the game's observations,
copies drawn for a player and saving are refused afterwards."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from logcorpus import MAX_DECISIONS, SHIPPED_CASES, TEST_CASES, rules_of

from interpreter import by_count, load
from interpreter.agents import FirstAgent, RandomAgent, decider
from interpreter.engine import decisions
from interpreter.engine.playout import ByCount
from interpreter.envs import ObservationEncoding
from interpreter.errors import GameStateError, IllegalDecisionError, RuntimeRuleError
from interpreter.lang.values import DEALT, KNOWN, STAMP
from interpreter.paths import shipped_games

GAMES = {name: load(name) for name in shipped_games()}
DECK52 = Path(__file__).resolve().parent / "data" / "deck52"


class Interrupt(Exception):
    """What a chooser raises in these tests."""


def _played(game, stamps: bool = True) -> tuple:
    """What a game holds but its frames (a fast play-out leaves none to resume) and what each
    player saw (known places, dealt marks, witnessed events), which a play-out by count does
    not keep: its result, decisions, zones, rows, revealed cards, globals, players' attributes
    and generator;
    with `stamps` false, not the time stamps either (nor the clock that gives them), which such
    a play-out does not keep for rules that nothing in them reads (`stamps_kept`)."""
    s = game.state
    left_out = (KNOWN, DEALT) if stamps else (KNOWN, DEALT, STAMP)
    rows = [repr([v for i, v in enumerate(row) if i not in left_out]) for row in s.attrs]
    zones = {key: [card.id for card in cards] for key, cards in s.zones.items()}
    return (game.result, s.decisions, zones, rows, sorted(s.revealed), repr(s.globals), repr(s.player_attrs),
            s.rng.getstate(), s.clock if stamps else None)


def _same_game(by_count_game, other) -> bool:
    """`_played` of both the same, leaving time stamps out where the game played by count kept
    none, which it does exactly for rules whose moves need not (`Rules.plain_moves`)."""
    stamps = by_count_game.state.stamps_kept
    assert stamps is not by_count_game.rules.plain_moves and other.state.stamps_kept
    return _played(by_count_game, stamps) == _played(other, stamps)


def _both(seed: int):
    """A decider by count and a deciding function that reads the decision, each drawing from a
    generator of its own with the same seed, and the (seat, number of options) each was asked."""
    asked: tuple[list, list] = ([], [])
    by_index, by_decision = random.Random(seed), random.Random(seed)

    def choose(seat, n):
        asked[0].append((seat, n))
        return by_index.randrange(n)

    def decide(game):
        seat, options = game.decision()
        asked[1].append((seat, len(options)))
        return by_decision.randrange(len(options))

    return by_count(choose), decide, asked


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("how", ["rules", "fast", "resumable"])
def test_a_decider_by_count_plays_the_game_a_deciding_function_plays(name, how):
    rules = GAMES[name]
    counted, decide, asked = _both(7)
    if how == "rules":
        games = [rules.play_out(d, seed=7) for d in (counted, decide)]
    else:
        games = [rules.new_game(seed=7, log=False), rules.new_game(seed=7, log=False)]
        for game, d in zip(games, (counted, decide)):
            game.play_out(d, fast=how == "fast")
    assert games[0].is_over and asked[0] == asked[1] and len(asked[0]) > 10
    assert games[0].result == games[1].result and _same_game(games[0], games[1])
    assert not games[0].state.sight_kept and games[1].state.sight_kept


# the corpus games of the test rulesets, and the first of each shipped game's (with its options)
CORPUS = [(case, seed) for case in TEST_CASES for seed in case.seeds] + [(case, case.seeds[0]) for case in SHIPPED_CASES]


@pytest.mark.parametrize("case, seed", CORPUS, ids=[f"{case.name}.seed{seed}" for case, seed in CORPUS])
def test_every_corpus_ruleset_plays_the_same_game_by_count_without_a_record_of_sight(case, seed):
    """The games of the identical-logs corpus (tests/helpers/logcorpus.py): the test rulesets
    (revealed cards, hands shared and dealt out of view, silences, effects tied to a card, teams)
    and the shipped games with their options. Played by count, a game keeps nothing of what each
    player saw, and is the game a deciding function plays, which keeps it."""
    rules = rules_of(case)
    counted, decide, asked = _both(seed)
    cap = min(rules.max_decisions, MAX_DECISIONS)
    games = [rules.play_out(d, seed=seed, max_decisions=cap) for d in (counted, decide)]
    assert asked[0] == asked[1] and not games[0].state.sight_kept
    assert _same_game(games[0], games[1])


def test_a_fast_play_out_by_count_makes_no_decision_object(monkeypatch):
    made = []
    original = decisions.Pending.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(decisions.Pending, "__init__", counting)
    rules = GAMES["hearts"]
    counted, decide, asked = _both(3)
    rules.play_out(counted, seed=3)
    assert made == [] and asked[0]
    rules.play_out(decide, seed=3)
    assert len(made) == len(asked[1])  # (a deciding function reads the decision: one object each)


def test_a_logged_play_out_by_count_logs_each_decision():
    rules = GAMES["lanes"]
    counted, decide, _asked = _both(5)
    games = [rules.play_out(d, seed=5, log=True) for d in (counted, decide)]
    assert games[0].log == games[1].log and any(e[0] == "decision" for e in games[0].state.log_entries)


@pytest.mark.parametrize("answer", [-1, "n", 2.0, None])
@pytest.mark.parametrize("fast", [False, True])
def test_an_answer_by_count_that_is_no_index_is_refused(answer, fast):
    rules = GAMES["bases"]
    rng = random.Random(4)
    taken: list[int] = []

    def choose(_seat, n):
        if len(taken) == 20:
            return n if answer == "n" else answer
        taken.append(rng.randrange(n))
        return taken[-1]

    game = rules.new_game(seed=4, log=False)  # (a logged decision is asked with its object)
    with pytest.raises(IllegalDecisionError):
        game.play_out(by_count(choose), fast=fast)
    assert not game.is_over and game.state.decide is None and game.state.choose_by_count is None
    if fast:  # (nothing can resume the rollout form half-way)
        with pytest.raises(GameStateError, match="cannot go on"):
            game.decision()
        return
    stepped = rules.new_game(seed=4, log=False)
    for index in taken:
        stepped.apply(index)
    assert _played(game) == _played(stepped)  # waiting at the decision it refused the answer to
    assert game.decision()[0] == stepped.decision()[0]


@pytest.mark.parametrize("fast", [False, True])
def test_what_a_chooser_raises_is_raised_by_the_play_out(fast):
    calls = []

    def choose(_seat, _n):
        calls.append(1)
        if len(calls) == 9:
            raise Interrupt("ninth")
        return 0

    with pytest.raises(Interrupt, match="ninth"):
        GAMES["initiative"].new_game(seed=2, log=False).play_out(by_count(choose), fast=fast)
    with pytest.raises(Interrupt, match="ninth"):
        calls.clear()
        GAMES["initiative"].play_out(by_count(choose), seed=2)


def test_a_decider_by_count_answers_where_a_deciding_function_is_called():
    game = GAMES["spades"].new_game(seed=1)
    counted = by_count(lambda seat, n: n - 1)
    seat, options = game.decision()
    assert counted(game) == len(options) - 1


class _Thoughtful(RandomAgent):
    """A random agent's subclass whose `act` reads the options: not asked by count."""

    def act(self, view):
        return len(view.options) - 1


def test_random_and_first_agents_are_asked_by_count_and_a_subclass_that_reads_options_is_not():
    assert type(decider([RandomAgent(1), FirstAgent()])) is ByCount
    mixed = decider([RandomAgent(1), _Thoughtful(2)])
    assert type(mixed) is not ByCount
    game = GAMES["initiative"].new_game(seed=3)
    while game.decision()[0] != 2:
        game.apply(0)
    assert mixed(game) == len(game.decision()[1]) - 1  # (its own act, not RandomAgent's draw)


@pytest.mark.parametrize("name", ["hearts", "lanes"])
def test_a_game_played_out_by_count_unlogged_refuses_what_needs_what_players_saw(name):
    rules = GAMES[name]
    game = rules.play_out(by_count(lambda _seat, n: n - 1), seed=2)
    assert game.is_over and not game.state.sight_kept
    refusals = [lambda: game.observation(1), lambda: game.observation(1, reveal_all=True),
                lambda: game.determinize(1, random.Random(1)), game.to_json,
                lambda: rules.observation_encoder(ObservationEncoding(rules), 1).entries(game),
                lambda: rules.observation_encoder(ObservationEncoding(rules), 1).window(game)]
    for refused in refusals:
        with pytest.raises(GameStateError, match="keeps no record of what each player saw"):
            refused()
    card = next(iter(game.cards.values()))
    assert game.where(card) is not None and game.clone().result == game.result  # (what it holds may be read)


@pytest.mark.parametrize("how", ["logged", "log of events", "decision read"])
def test_a_play_out_that_is_logged_or_reads_the_decision_keeps_what_players_saw(how):
    rules = GAMES["hearts"]
    counted, decide, _asked = _both(6)
    log = {"logged": True, "log of events": "events", "decision read": False}[how]
    game = rules.play_out(decide if how == "decision read" else counted, seed=6, log=log)
    assert game.state.sight_kept and game.observation(1)["seen"] and game.to_json()


def test_the_rules_whose_play_outs_by_count_keep_no_time_stamps_are_those_whose_moves_need_none():
    """`Rules.plain_moves`: no static, triggered or replacement ability (time stamps order them),
    nothing attached, silenced, affected while it stays or revealed to some players only, no zone
    watched, no rule waiting for `moved`. Expedition reveals cards to every player (a move ends
    that); Initiative, Lanes and Bases have abilities."""
    plain = {name for name, rules in GAMES.items() if rules.plain_moves}
    assert plain == {"expedition", "harvest", "hearts", "spades"}
    plain = {case.name for case in TEST_CASES if rules_of(case).plain_moves}
    assert plain and plain < {case.name for case in TEST_CASES}
    game = GAMES["hearts"].play_out(by_count(lambda _seat, n: 0), seed=3)
    assert not game.state.stamps_kept
    assert GAMES["hearts"].play_out(by_count(lambda _seat, n: 0), seed=3, log="events").state.stamps_kept


def _move_errors(tmp_path: Path, statement: str) -> list[str]:
    """The error of a game of deck52 whose turn plays `statement` where it moves the chosen card
    `c` to the table: played out by count (rule code moving cards itself, `_plain_move`), then
    by a deciding function (the engine's `move`, time stamps kept)."""
    for f in DECK52.iterdir():
        shutil.copy(f, tmp_path / f.name)
    rules_file = tmp_path / "deck52.rules"
    rules_file.write_text(rules_file.read_text(encoding="utf-8").replace(
        "  move c to table()\n", statement), encoding="utf-8")
    rules = load(str(tmp_path / "deck52.yaml"))
    assert rules.plain_moves
    errors, games = [], [rules.new_game(seed=1, log=False) for _ in range(2)]
    for game, decide in zip(games, (by_count(lambda _seat, n: 0), lambda game: 0)):
        with pytest.raises(RuntimeRuleError) as caught:
            game.play_out(decide, fast=True)
        errors.append(str(caught.value))
    assert not games[0].state.stamps_kept and games[1].state.stamps_kept
    return errors


@pytest.mark.parametrize("moved", ["c", "[c]"])
def test_a_plain_move_of_a_card_no_longer_in_the_game_is_the_error_the_engine_move_gives(tmp_path, moved):
    """Where moves keep no time stamps, rule code moves cards itself (`_plain_move`); a card deleted
    from the game cannot be moved, and the error names the card and the statement, as the
    engine's `move` does where time stamps are kept."""
    errors = _move_errors(tmp_path, f"  delete c\n  move {moved} to table()\n")
    assert errors[0] == errors[1]
    assert "deck52.rules:36:3: runtime error: card " in errors[0] and "is no longer in the game" in errors[0]


def test_a_plain_move_works_out_what_it_moves_before_the_zone_as_the_engine_move_does(tmp_path):
    """Both fail here: the error is the one of what is moved, by count (rule code moving the cards
    itself) as with a deciding function (the engine's `move_each`)."""
    errors = _move_errors(tmp_path, "  move hand(players[7]) to hand(c)\n")
    assert errors[0] == errors[1] and "zone 'hand' belongs to a player: got None" in errors[0]
