"""Scenarios without traps (issue 35): a decision the engine took because it had one option is
named as such when a step tries to take it, and `explicit: true` has every decision asked; a
failed `events` check shows the events' arguments; `{expr: ...}` where a plain value belongs is
refused at load; `decision.options.count`; `events_so_far`; rigged later shuffles.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenariofiles import line_of, only_failure, variant

from interpreter import load
from interpreter.errors import CardrulesError
from interpreter.scenarios import check_scenario, run_scenario


def written(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- 4. events with their arguments
def test_a_failed_events_check_shows_the_arguments_of_the_events(tmp_path):
    path = variant(tmp_path, "initiative/card-stab-top.yaml",
                   ("{event: damaged, target: Soldier, amount: 2}", "{event: damaged, target: Soldier, amount: 3}"))
    line = line_of(path, "  events:")
    assert only_failure(path) == (
        "then events: expected event {'event': 'damaged', 'target': 'Soldier', 'amount': 3} (in order) not found "
        "after event 1 (resolving(player='P1', card='Stab $a', part='top')); events were: "
        "1. resolving(player='P1', card='Stab $a', part='top'), 2. damaged(target='Soldier $s', amount=2), "
        "3. died(card='Soldier $s'), 4. resolution(), "
        "5. resolving(player='P1', card='Summon Monster $b', part='bottom'), "
        f"6. summoned(card='Monster', player='P1'), 7. resolution() ({path}:{line}:3)")


# ---------------------------------------------------------------- 5. expressions, option counts, events so far
DRAFT = "lanes/rule-l-2.2-rigged-draft-pile.yaml"


def refused(path: Path) -> CardrulesError:
    with pytest.raises(CardrulesError) as caught:
        check_scenario(path)
    return caught.value


def test_an_expression_where_a_plain_value_belongs_is_refused_at_load(tmp_path):
    path = variant(tmp_path, DRAFT, ("zones.draft_pile.count: 43", 'zones.draft_pile.count: {expr: "40 + 3"}'))
    err = refused(path)
    assert err.message == ("when[3] then zones.draft_pile.count: {expr: ...} is not a value to compare with: an expression "
                           "is an operand of a relation, write zones.draft_pile.count: {same_as: {expr: ...}} "
                           "(or at_least, at_most)")
    line = line_of(path, "zones.draft_pile.count:")
    assert (err.span.line, err.span.column) == (line, 7)
    assert f"{path}:{line}:7" in str(err)


def test_an_expression_inside_an_event_is_refused_at_it(tmp_path):
    path = variant(tmp_path, DRAFT, ("{event: draft_round, round: 2}", '{event: draft_round, round: {expr: "1 + 1"}}'))
    err = refused(path)
    assert err.message.startswith("when[3] then events: {expr: ...} cannot stand inside an expected value")
    line = line_of(path, "{event: draft_round, round: {expr")
    assert (err.span.line, err.span.column) == (line, 32)  # (at `round:`)


def test_the_same_value_as_a_relation_operand_passes(tmp_path):
    path = variant(tmp_path, DRAFT, ("zones.draft_pile.count: 43", 'zones.draft_pile.count: {same_as: {expr: "40 + 3"}}'))
    assert run_scenario(path).failures == []


def test_decision_options_count_is_a_path(tmp_path):
    path = variant(tmp_path, DRAFT,
                   ("      zones.draft_pile.first: Storm Lancer",
                    "      zones.draft_pile.first: Storm Lancer\n      decision.options.count: 4\n"
                    "      zones.draft_row.count: {same_as: decision.options.count}"),
                   ("zones.draft_row.count: 4", "zones.draft_row.count: 4\n  decision.options.count: 5"))
    line = line_of(path, "decision.options.count: 5")
    assert only_failure(path) == f"then decision.options.count: expected 5, got 4 ({path}:{line}:27)"


def test_events_so_far_sees_the_events_of_earlier_steps(tmp_path):
    path = variant(tmp_path, DRAFT,
                   ("      not_events: [{event: drafted, card: Fire Dart}]",
                    "      not_events: [{event: drafted, card: Fire Dart}]\n"
                    "      events_so_far: [{event: draft_round, round: 1}, {event: drafted, card: Crag Titan},\n"
                    "                      {event: draft_round, round: 2}]\n"
                    "      not_events_so_far: [{event: drafted, card: Fire Dart}]"))
    line = line_of(path, "not_events_so_far:")
    assert only_failure(path) == (f"when[3] then not_events_so_far: event {{'event': 'drafted', 'card': 'Fire Dart'}} "
                                  f"happened: drafted(player='P1', card='Fire Dart') ({path}:{line}:7)")


# ---------------------------------------------------------------- 3. decisions with one option
ATTACKS = "initiative/rule-i-3.5-dead-creature-does-not-attack.yaml"
# where the rules write the choice, as the loaded rules name it (the installed package's file
# when the tests run against an installed package, as .ci/run does)
TARGET_AT = str(next(s.span for s in load("initiative").decision_sites if s.label == "attack target"))
FIRST_STEP = '  - {player: 1, options: [P2, "Monster 3/3 of P2"], choose: $m}'


def test_a_step_naming_a_choice_the_engine_took_says_so(tmp_path):
    path = variant(tmp_path, ATTACKS, (FIRST_STEP, FIRST_STEP + "\n  - {player: 1, choose: P2}"))
    line = line_of(path, "choose: P2}")
    failure = only_failure(path)
    assert failure == (
        f"when[1] ({path}:{line}:5): 'P2' was never asked: P1's decision 'attack target' ({TARGET_AT}) had one "
        "option, 'P2', so the engine took it without "
        "asking, before this step. Leave this step out (a step with only `then` can check the state there), or "
        "write `explicit: true` at the top of the scenario to have every decision asked, one option or not")


def test_another_failed_decision_lists_the_choices_the_engine_took(tmp_path):
    path = variant(tmp_path, ATTACKS, (FIRST_STEP, FIRST_STEP + "\n  - {player: 1, choose: P1}"))
    failure = only_failure(path)
    assert failure.startswith(f"when[1] ({path}:{line_of(path, 'choose: P1}')}:5): 'P1' is not a legal option for "
                              "P1's decision 'two cards to play'")
    assert failure.endswith("(before this step the engine took 1 decision with one option without asking: P1's "
                            f"decision 'attack target' ({TARGET_AT}) had one option, 'P2')")


def test_explicit_asks_every_decision_with_one_option(tmp_path):
    explicit = variant(tmp_path, ATTACKS, ("given:", "explicit: true\ngiven:"),
                       (FIRST_STEP, FIRST_STEP + "\n  - {player: 1, options: [P2], prompt: attack target, choose: P2}"))
    assert run_scenario(explicit).failures == []
    # without the step, the scenario stops at the decision the engine would have taken
    unwritten = variant(tmp_path, ATTACKS, ("given:", "explicit: true\ngiven:"), name="t.yaml")
    line = line_of(unwritten, "decision.prompt:")
    assert f"then decision.prompt: expected 'two cards to play', got 'attack target' ({unwritten}:{line}:20)" in \
        run_scenario(unwritten).failures


def test_explicit_is_a_boolean_in_the_schema(tmp_path):
    path = variant(tmp_path, ATTACKS, ("given:", "explicit: yes please\ngiven:"))
    err = refused(path)
    assert f"{path}:{line_of(path, 'explicit:')}:11: rules error: explicit: expected true or false, got the text " \
        "'yes please'" in str(err)


# ---------------------------------------------------------------- 6. later shuffles rigged
SHUFFLER = {  # a ruleset that shuffles the active player's pile every turn and draws its first card
    "shuffler.yaml": """name: shuffler
players: 2
code: [shuffler.rules]
cards: [shuffler.cards]
zones:
  pile: {per: player, ordered: true, visibility: hidden}
  hand: {per: player, ordered: true, visibility: owner}
card_types:
  token: {attributes: {}}
events:
  drew: "{player} drew {card}"
setup: begin()
turn:
  active: alternate
  phases:
    - {name: draw, do: deal(game.active)}
end:
  - {when: "game.turn > 3", draw: three turns played}
""",
    "shuffler.rules": """procedure begin() {
  for p in players { shuffle pile(p) }
}

procedure deal(p) {
  for c in hand(p) { move c to pile(p) }
  shuffle pile(p)
  let c = first(pile(p))
  move c to hand(p)
  emit drew(player: p, card: c)
}
""",
    "shuffler.cards": 'card "Ace" : token { }\ncard "Bee" : token { }\ncard "Cat" : token { }\ncard "Dog" : token { }\n',
}
RESHUFFLED = """ruleset: shuffler.yaml
cites: [X-1.1]
given:
  players:
    1: {pile: [Ace, Bee, Cat, Dog]}
    2: {pile: [Ace, Bee]}
  shuffles:                      # P1's pile is shuffled on turns 1 and 3
    - {zone: pile, player: 1, shuffle: 1, order: [Cat]}
    - {zone: pile, player: 1, shuffle: 2, order: [Dog, Ace]}
then:
  events_so_far: [{event: drew, player: P1, card: Cat}, {event: drew, player: P2}, {event: drew, player: P1, card: Dog}]
  players.1.pile.first: Ace
  over: true
"""


def shuffler(tmp_path: Path, scenario: str, *edits: tuple[str, str]) -> Path:
    for name, text in SHUFFLER.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for old, new in edits:
        assert old in scenario, old
        scenario = scenario.replace(old, new, 1)
    return written(tmp_path, scenario)


def test_the_order_after_a_later_shuffle_can_be_stated(tmp_path):
    for seed in (0, 1, 2):  # (whatever the generator would have done)
        path = shuffler(tmp_path, RESHUFFLED, ("given:", f"seed: {seed}\ngiven:"))
        assert run_scenario(path).failures == [], seed


def test_an_order_for_a_shuffle_that_never_came_fails(tmp_path):
    path = shuffler(tmp_path, RESHUFFLED, ("shuffle: 2, order: [Dog, Ace]", "shuffle: 3, order: [Dog, Ace]"))
    failures = run_scenario(path).failures
    line = line_of(path, "shuffle: 3")
    assert failures[0] == (f"given.shuffles[1]: P1's zone pile was shuffled 2 times, so its order for shuffle 3 "
                           f"was not used ({path}:{line}:7)")


def test_the_set_up_shuffles_count(tmp_path):
    # the set-up shuffles P1's deck once (I-2.1): a second shuffle never comes in this scenario
    path = variant(tmp_path, "initiative/rule-i-2.1-rigged-deal.yaml",
                   ("when: []", "  shuffles: [{zone: deck, player: 1, shuffle: 2, order: [Stab]}]\nwhen: []"))
    line = line_of(path, "shuffles:")
    assert only_failure(path) == (f"given.shuffles[0]: P1's zone deck was shuffled 1 time, so its order for "
                                  f"shuffle 2 was not used ({path}:{line}:14)")


@pytest.mark.parametrize("old, new, message, where", [
    ("zone: pile, player: 1, shuffle: 2", "zone: piles, player: 1, shuffle: 2",
     "no zone 'piles' without rows to put in order (did you mean 'pile'?)", "piles"),
    ("zone: pile, player: 1, shuffle: 2", "zone: pile, shuffle: 2",
     "zone 'pile' belongs to each player: say whose (player: 1..2)", "{zone: pile, shuffle: 2"),
    ("order: [Dog, Ace]", "order: [Dog, Eel]", "no card named 'Eel'", "Eel"),
    ("shuffle: 2, order: [Dog", "shuffle: 1, order: [Dog",
     "the order of P1's zone pile, shuffle 1 is stated twice: here and at ", "1, order: [Dog"),
    ("order: [Dog, Ace]", "order: [Dog, Dog]", "P1's zone pile holds no more 'Dog' at its shuffle 2 (4 cards)",
     "Dog]"),
])
def test_a_wrong_later_order_is_an_error_at_its_place(tmp_path, old, new, message, where):
    path = shuffler(tmp_path, RESHUFFLED, (old, new))
    with pytest.raises(CardrulesError) as caught:
        run_scenario(path)
    err = caught.value
    assert err.message.startswith(message), err.message
    line = line_of(path, new)
    text = path.read_text(encoding="utf-8").splitlines()[line - 1]
    assert (err.span.line, err.span.column) == (line, text.index(where) + 1)
