"""The scenario features of issue 20, each shown able to fail: a shipped scenario that uses it,
with one expectation made wrong (written into tmp_path), fails with a message naming the step
and the path, at its place in the file. Also: paths the ruleset lacks are located errors with
did-you-mean, rule errors name the rule code that failed, the docs' examples fit the schema, and
the B-5.1 scenario tells the rule as now written from the old one.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from scenariofiles import ROOT, SCENARIOS, line_of, only_failure, variant

from interpreter.cli.main import main
from interpreter.errors import CardrulesError
from interpreter.paths import shown_path
from interpreter.rules.schema import validate
from interpreter.rules.yamlload import load_yaml_text
from interpreter.scenarios import check_scenario, run_scenario


def test_the_shipped_scenarios_of_the_features_pass():
    for name in ("bases/rule-b-5.1-new-top-opponent-first.yaml", "bases/rule-b-2.2-rigged-mulligan.yaml",
                 "bases/rule-b-1.1-deck-colour-refused.yaml", "lanes/rule-l-2.2-rigged-draft-pile.yaml",
                 "initiative/rule-i-2.1-rigged-deal.yaml", "initiative/rule-i-3.4-dispelled-zone-never-resolves.yaml",
                 "initiative/rule-i-6.3-same-named-tokens-labelled.yaml", "initiative/rule-i-1.1-deck-size-refused.yaml",
                 "initiative/rule-i-6.12-variant-leech-rule-error.yaml",
                 "initiative/rule-i-3.6-draw-from-the-rest-of-the-deck.yaml"):
        result = run_scenario(SCENARIOS / name)
        assert result.passed, (name, result.failures)


# ---------------------------------------------------------------- 1. checkpoints
def test_a_wrong_checkpoint_fails_naming_its_step(tmp_path):
    path = variant(tmp_path, "bases/rule-b-5.1-new-top-opponent-first.yaml",
                   ("      zones.stack: [$a, $b]\n      decision.player: 1",
                    "      zones.stack: [$a, $b]\n      decision.player: 2"))
    line = line_of(path, "decision.player: 2", whole=True)
    assert only_failure(path) == f"when[7] then decision.player: expected 2, got 1 ({path}:{line}:24)"


def test_a_step_that_only_checks_fails_naming_its_step(tmp_path):
    path = variant(tmp_path, "lanes/rule-l-2.2-rigged-draft-pile.yaml",
                   ("zones.draft_pile.first: Storm Lancer", "zones.draft_pile.first: Reed Skimmer"))
    failure = only_failure(path)
    assert failure.startswith("when[0] then zones.draft_pile.first: expected 'Reed Skimmer', got 'Storm Lancer'")
    assert failure.endswith(f"({path}:{line_of(path, 'zones.draft_pile.first')}:31)")


def test_a_checkpoints_events_are_those_of_its_step(tmp_path):
    # draft_round 1 happened before the step: it is not among the step's events
    path = variant(tmp_path, "lanes/rule-l-2.2-rigged-draft-pile.yaml",
                   ("        - {event: drafted, card: Moth Scout}", "        - {event: draft_round, round: 1}"))
    assert only_failure(path).startswith("when[3] then events: expected event {'event': 'draft_round', 'round': 1} "
                                         "(in order) not found")


# ---------------------------------------------------------------- 2. absence and relations
def test_an_event_that_happened_fails_not_events(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-3.4-dispelled-zone-never-resolves.yaml",
                   ("      not_events: [summoned]", "      not_events: [summoned, {event: healed, target: P2}]"))
    failure = only_failure(path)
    assert failure.startswith("when[4] then not_events: event {'event': 'healed', 'target': 'P2'} happened: "
                              "healed(target='P2', amount=1)")
    assert f"({path}:{line_of(path, 'not_events: [summoned, {event: healed')}:" in failure


@pytest.mark.parametrize("old, new, message", [
    ("game.active: {same_as: game.starter}", 'game.active: {same_as: {expr: "enemy(game.starter)"}}',
     r"then game\.active: expected the same as enemy\(game\.starter\) = 'P\d', got 'P\d'"),
    ("players.1.max_resources: {at_least: 0, at_most: 2}", "players.1.max_resources: {at_least: 3}",
     r"then players\.1\.max_resources: expected at least 3, got [0-2]"),
    ("players.1.hand.count: 6", "players.1.hand.count: {at_most: players.2.deck.count, same_as: 7}",
     r"then players\.1\.hand\.count: expected the same as 7, got 6"),
])
def test_a_wrong_relation_fails_naming_the_path(tmp_path, old, new, message):
    path = variant(tmp_path, "bases/rule-b-2.2-rigged-mulligan.yaml", (old, new))
    failure = only_failure(path)
    assert re.match(message, failure), failure
    assert failure.endswith(f"({path}:{line_of(path, new.split(':')[0])}:3)")  # (a mapping: at its key)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 11, 12])
def test_relations_check_a_random_deal_for_every_seed(tmp_path, seed):
    path = variant(tmp_path, "bases/rule-b-2.2-rigged-mulligan.yaml", ("seed: 9", f"seed: {seed}"))
    assert run_scenario(path).passed


# ---------------------------------------------------------------- 3. unordered zones
def test_a_wrong_unordered_zone_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-2.1-rigged-deal.yaml",
                   ("{unordered: [Bandage, Stab, Curse, Bless, Stab]}", "{unordered: [Bandage, Stab, Curse, Bless, Bless]}"))
    failure = only_failure(path)
    assert failure.startswith("then players.1.hand: expected in any order ['Bandage', 'Stab', 'Curse', 'Bless', "
                              "'Bless'], got ['Stab', 'Bless', 'Curse', 'Stab', 'Bandage']; not found: ['Bless']")
    assert failure.endswith(f"({path}:{line_of(path, 'players.1.hand:')}:3)")


def test_a_wrong_count_of_cards_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-2.1-rigged-deal.yaml", ("{Summon Monster: 2,", "{Summon Monster: 3,"))
    assert only_failure(path).startswith(
        "then players.2.hand: expected {'Summon Monster': 3, 'Time Leech': 1, 'Stab': 1, 'Bless': 1}, got "
        "{'Summon Monster': 2, 'Time Leech': 1, 'Stab': 1, 'Bless': 1}: 2 Summon Monster (expected 3)")


def test_a_count_of_a_card_that_does_not_exist_is_an_error_at_it(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-2.1-rigged-deal.yaml", ("Time Leech: 1,", "Time Leach: 1,"))
    with pytest.raises(CardrulesError) as info:
        check_scenario(path)
    line = line_of(path, "Time Leach")
    column = path.read_text(encoding="utf-8").splitlines()[line - 1].index("Time Leach") + 1
    assert str(info.value).splitlines()[0] == (
        f"{path}:{line}:{column}: rules error: then players.2.hand: no card named 'Time Leach' "
        "(did you mean 'Time Leech'?)")


# ---------------------------------------------------------------- 4. rigged set-up
def test_a_wrong_expectation_after_a_rigged_deal_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-2.1-rigged-deal.yaml", ("players.1.deck.first: Dispell",
                                                                        "players.1.deck.first: Stab"))
    assert only_failure(path) == (f"then players.1.deck.first: expected 'Stab', got 'Dispell' "
                                  f"({path}:{line_of(path, 'players.1.deck.first')}:25)")


@pytest.mark.parametrize("new, bad, message", [
    ("1: [Stab, Bless, Curse, Stab, Bandage, Time Leech]", "Time Leech",
     "rules error: P1's deck 'Tempo' holds 0 'Time Leech': this order names more"),
    ("1: [Stab, Bless, Curse, Stab, Bandag, Dispell]", "Bandag", "rules error: no card named 'Bandag' (did you mean "
     "'Bandage'?)"),
    ("1: [Stab, Stab, Stab, Stab, Stab, Stab, Stab, Stab, Stab, Stab, Stab]", "Stab]",
     "rules error: P1's deck 'Tempo' holds 10 'Stab': this order names more"),
])
def test_a_deck_order_is_checked_as_the_deck_at_the_name(tmp_path, new, bad, message):
    path = variant(tmp_path, "initiative/rule-i-2.1-rigged-deal.yaml", ("1: [Stab, Bless, Curse, Stab, Bandage, Dispell]", new))
    line = line_of(path, new)
    column = path.read_text(encoding="utf-8").splitlines()[line - 1].index(bad) + 1
    for call in (check_scenario, run_scenario):
        with pytest.raises(CardrulesError) as info:
            call(path)
        assert str(info.value).splitlines()[0] == f"{path}:{line}:{column}: {message}"


def test_a_shared_zone_order_the_set_up_never_uses_fails(tmp_path):
    path = variant(tmp_path, "lanes/rule-l-2.2-rigged-draft-pile.yaml",
                   ("  zones:\n", "  zones:\n    draft_row: [Fire Dart]\n"))
    failure = only_failure(path)
    assert failure.startswith("given.zones.draft_row: the set-up never shuffled zone draft_row, so its order was not "
                              "used")


def test_with_setup_run_the_position_cannot_be_given(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-2.1-rigged-deal.yaml", ("  setup: run\n", "  setup: run\n  turn: {number: 2}\n"))
    with pytest.raises(CardrulesError) as info:
        check_scenario(path)
    assert "with setup: run the set-up makes the position: 'turn' cannot be given" in str(info.value)


def test_a_wrong_expectation_about_the_rest_of_the_deck_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-3.6-draw-from-the-rest-of-the-deck.yaml",
                   ("players.1.deck.count: 33", "players.1.deck.count: 35"))
    assert only_failure(path) == (f"then players.1.deck.count: expected 35, got 33 "
                                  f"({path}:{line_of(path, 'players.1.deck.count')}:25)")


# ---------------------------------------------------------------- 5. expected load errors
def test_an_expected_load_error_with_other_text_fails(tmp_path):
    path = variant(tmp_path, "bases/rule-b-1.1-deck-colour-refused.yaml",
                   ("needs colours blue, which", "needs colours red, which"))
    failure = only_failure(path)
    assert failure.startswith("expect_error: the error raised at load is ")
    assert "'Tidewatch Scholar' needs colours blue, which no card of its bases has (colour: green, red)" in failure
    assert failure.endswith(f"({path}:{line_of(path, 'expect_error:')}:1)")


def test_an_expected_load_error_that_is_not_raised_fails(tmp_path):
    path = variant(tmp_path, "bases/rule-b-1.1-deck-colour-refused.yaml",
                   ("      Tidewatch Scholar: 1\n", ""), ("      Magma Colossus: 1", "      Magma Colossus: 2"))
    assert only_failure(path) == ("expect_error: expected an error containing \"'Tidewatch Scholar' needs colours "
                                  "blue, which no card of its bases has\"; none was raised "
                                  f"({path}:{line_of(path, 'expect_error:')}:1)")


def test_an_unexpected_deck_error_is_reported_as_a_refused_deck(tmp_path, capsys):
    path = variant(tmp_path, "initiative/rule-i-1.1-deck-size-refused.yaml",
                   ('expect_error: {contains: "has 41 cards; initiative decks have exactly 40", phase: deck}\n', ""))
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and ": a deck is refused" in out
    assert f"{path}:{line_of(path, 'cards: {Stab: 10')}:5: deck error: deck 'One too many'" in out


# ---------------------------------------------------------------- 6. labels for created cards
def test_a_wrong_label_of_a_created_card_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-6.3-same-named-tokens-labelled.yaml",
                   ("      cards.$curse.attached_to: $m3", "      cards.$curse.attached_to: $m2"))
    assert only_failure(path) == (f"when[2] then cards.$curse.attached_to: expected '$m2', got 'Monster $m3' "
                                  f"({path}:{line_of(path, 'cards.$curse.attached_to: $m2')}:33)")


def test_attached_to_is_compared_by_label_in_a_card_object(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-6.3-same-named-tokens-labelled.yaml",
                   ("[{name: Curse, attached_to: $m3}]", "[{name: Curse, attached_to: $m1}]"))
    assert only_failure(path).startswith("when[2] then players.2.enchantments: expected [{'name': 'Curse', "
                                         "'attached_to': '$m1'}], got ['Curse'] (Curse.attached_to is 'Monster "
                                         "$m3', not '$m1')")


def test_labelling_more_cards_than_were_created_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-6.3-same-named-tokens-labelled.yaml",
                   ("created: [{as: m2}, {as: m3, card: Monster}]", "created: [{as: m2}, {as: m3}, {as: m4}]"))
    assert only_failure(path).startswith("when[0] created[2]: the step created no more than 2 cards "
                                         "['Monster', 'Monster'], not a card for $m4")


def test_a_label_from_an_event_that_did_not_happen_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-6.3-same-named-tokens-labelled.yaml",
                   ("{event: summoned, arg: card, player: P1}", "{event: summoned, arg: card, player: P2}"))
    failures = run_scenario(path).failures
    assert failures[0].startswith("when[0] label.first_summoned: cannot label $first_summoned from "
                                  "{'event': 'summoned', 'player': 'P2'}: no such event in this step")


# ---------------------------------------------------------------- 7. consistent keys
@pytest.mark.parametrize("old, new, message", [
    ("  players.2.field: []", "  players.2.hnd: []",
     "then players.2.hnd: players have no zone or attribute 'hnd' (did you mean 'hand'?)"),
    ("      cards.$sm.zone: discard", "      cards.$sm.zne: discard", None),  # (an attribute: read in the game)
    ("      cards.$sm.zone: discard", "      cards.$s.zone: discard",
     "when[2] then cards.$s.zone: no card is labelled $s (did you mean $sm?)"),
    ("  players.2.health: 19", "  game.frist: P1", "then game.frist: no global 'frist' (did you mean 'first'?)"),
    ("  players.2.health: 19", "  players.3.health: 19", "then players.3.health: 'players.3': no player '3' (players 1..2)"),
    ("  players.2.health: 19", "  decision.promt: x",
     "then decision.promt: the decision has no 'promt' (did you mean 'prompt'?)"),
    ("  players.2.health: 19", "  player.2.health: 19", "then player.2.health: unknown path 'player.2.health': no "
     "'player' (did you mean 'players'?)"),
    ("  players.2.health: 19", "  players.2.discard.top: Stab", "then players.2.discard.top: 'players.2.discard.top': "
     "after zone 'discard' comes count, first, last or a position (1, 2, ...), not 'top'"),
    ("not_events: [summoned]", "not_events: [sumoned]",
     "when[4] then not_events: no event 'sumoned' is emitted by initiative (did you mean 'summoned'?)"),
])
def test_a_wrong_path_is_a_located_error_with_did_you_mean(tmp_path, old, new, message):
    path = variant(tmp_path, "initiative/rule-i-3.4-dispelled-zone-never-resolves.yaml", (old, new))
    if message is None:
        assert only_failure(path).startswith("when[2] then cards.$sm.zne: card Summon Monster has no attribute 'zne'")
        return
    line = line_of(path, new.strip())
    for call in (check_scenario, run_scenario):
        with pytest.raises(CardrulesError) as info:
            call(path)
        first = str(info.value).splitlines()[0]
        assert first.startswith(f"{path}:{line}:") and f": rules error: {message}" in first, first


def test_a_prompt_on_a_step_is_checked(tmp_path):
    path = variant(tmp_path, "bases/rule-b-5.1-new-top-opponent-first.yaml",
                   ("{player: 1, choose: $a, prompt: a card or ability}", "{player: 1, choose: $a, prompt: a card}"))
    check_scenario(path)  # (the schema takes it)
    assert only_failure(path) == (f"when[0] ({path}:{line_of(path, 'prompt: a card}')}:5): prompt is 'a card or "
                                  "ability', expected 'a card'")


def test_winner_null_is_a_draw(tmp_path):
    assert run_scenario(SCENARIOS / "initiative/rule-i-4.2-round-limit-draw.yaml").passed  # (winner: null there)
    path = variant(tmp_path, "initiative/rule-i-4.2-round-limit-draw.yaml", ("options: {round_limit: 2}",
                                                                             "options: {round_limit: 3}"))
    failures = run_scenario(path).failures
    assert any(f.startswith("then winner: expected a draw, but the game is not over") for f in failures), failures


# ---------------------------------------------------------------- 8. runtime errors located
def broken_initiative(tmp_path: Path) -> Path:
    """Initiative whose reveal phase reads the health of game.first, none in round 1."""
    for folder in ("rulesets/initiative", "cards/initiative"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    ruleset = tmp_path / "rulesets/initiative/initiative.yaml"
    text = ruleset.read_text(encoding="utf-8")
    assert "do: reveal_cards()}" in text
    ruleset.write_text(text.replace("do: reveal_cards()}", "do: 'heal(game.first, game.first.health)'}"),
                       encoding="utf-8")
    return ruleset


def test_a_rule_error_names_the_phase_and_its_place_not_main(tmp_path, capsys):
    ruleset = broken_initiative(tmp_path)
    path = tmp_path / "s.yaml"
    path.write_text(f"ruleset: {ruleset}\ncites: [I-3.2]\nwhen:\n  - {{player: 1, choose: 0}}\n"
                    "  - {player: 2, choose: 0}\nthen:\n  phase: order\n", encoding="utf-8")
    result = run_scenario(path)
    assert result.rule_error
    assert len(result.failures) == 1
    line = line_of(ruleset, "do: 'heal(game.first")
    # (the rule's file shown relative to the current folder, as `validate` shows it)
    assert result.failures[0].startswith(f"when[1] ({path}:5:5): rule error: {shown_path(str(ruleset))}:{line}:")
    assert "runtime error: cannot read 'health' of none (in phase reveal)" in result.failures[0]
    assert "(in main)" not in result.failures[0]
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^FAIL .*s\.yaml: rule error$", out, re.M), out
    assert "malformed" not in out


def test_an_expected_rule_error_with_another_place_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-6.12-variant-leech-rule-error.yaml", ('at: ":13:19"', 'at: ":13:5"'))
    failure = only_failure(path)
    assert failure.startswith(f"expect_error: the error raised in when[1] ({path}:24:5) is at {path}:13:19, not at "
                              "':13:5'")


def test_an_expected_rule_error_that_never_comes_fails(tmp_path):
    path = variant(tmp_path, "initiative/rule-i-6.12-variant-leech-rule-error.yaml",
                   ("damage(self.attached_to, self.attached_to.health)", "damage(self.attached_to, 1)"))
    assert only_failure(path).startswith("expect_error: expected an error containing \"cannot read 'health' of none")


# ---------------------------------------------------------------- 9. B-5.1 as written now
OLD_PRIORITY = "      p = first\n"
NEW_PRIORITY = "      p = first\n      if count(stack()) > 0 {\n        p = enemy(last(stack()).controller)\n      }\n"


def bases_with_rules(tmp_path: Path, rules_text: str) -> Path:
    for folder in ("rulesets/bases", "cards/bases"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    (tmp_path / "rulesets/bases/bases.rules").write_text(rules_text, encoding="utf-8")
    return tmp_path / "rulesets/bases/bases.yaml"


def test_b51_scenario_fails_on_the_old_rules_and_passes_on_the_new(tmp_path):
    current = (ROOT / "rulesets/bases/bases.rules").read_text(encoding="utf-8")
    assert NEW_PRIORITY in current
    old_rules = bases_with_rules(tmp_path / "old", current.replace(NEW_PRIORITY, OLD_PRIORITY))
    new_rules = bases_with_rules(tmp_path / "new", current)
    for ruleset, passes in ((new_rules, True), (old_rules, False)):
        path = variant(tmp_path, "bases/rule-b-5.1-new-top-opponent-first.yaml",
                       ("ruleset: bases", f"ruleset: {ruleset}"), name=f"{ruleset.parents[2].name}.yaml")
        result = run_scenario(path)
        assert result.passed is passes, result.failures
        if not passes:  # the window's first player (P2) is asked, not the opponent of the new top's controller
            line = line_of(path, "decision.player: 1", whole=True)
            assert result.failures[0] == f"when[7] then decision.player: expected 1, got 2 ({path}:{line}:24)"
            assert result.failures[1].startswith("when[8] (")
            assert result.failures[1].endswith("expected P1 to decide, but P2 decides 'respond, or pass'")


# ---------------------------------------------------------------- the documentation
def doc_blocks() -> list[tuple[int, str]]:
    lines = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8").splitlines()
    blocks, start = [], None
    for i, line in enumerate(lines):
        if line.startswith("```yaml"):
            start = i + 1
        elif line.startswith("```") and start is not None:
            blocks.append((start + 1, "\n".join(lines[start:i]) + "\n"))
            start = None
    return blocks


def test_every_yaml_example_of_the_scenario_docs_fits_the_schema():
    blocks = doc_blocks()
    assert len(blocks) >= 10
    for line, text in blocks:
        data, marks = load_yaml_text(text, f"docs/scenarios.md:{line}")
        data = {"ruleset": "initiative", "cites": ["I-1.1"], **data}
        validate(data, marks, "scenario", f"docs/scenarios.md:{line}")
