"""YAML loading with positions and JSON Schema validation: every bad input gives a located error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from interpreter.errors import CardrulesError, DeckError, ErrorList, RulesError
from interpreter.paths import data_root, ruleset_path, schema_path, shipped_games, shipped_rulesets
from interpreter.rules.schema import schema_errors, validate
from interpreter.rules.yamlload import load_yaml, load_yaml_text

CHECKOUT = Path(__file__).resolve().parents[1]


def initiative_text() -> str:
    return ruleset_path("initiative").read_text(encoding="utf-8")


def line_of(text: str, needle: str) -> int:
    """1-based number of the only line containing ``needle``."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(hits) == 1, (needle, hits)
    return hits[0]


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def errors_of(exc: BaseException) -> list:
    return list(exc.errors) if isinstance(exc, ErrorList) else [exc]


def bad_ruleset(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    text = initiative_text()
    assert old in text
    text = text.replace(old, new)
    return write(tmp_path, "bad.yaml", text), text


# -- the shipped files validate ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ruleset", "deck", "scenario"])
def test_schemas_are_valid_draft_2020_12(name):
    schema = json.loads(schema_path(name).read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_initiative_validates():
    data, marks = load_yaml(ruleset_path("initiative"))
    validate(data, marks, "ruleset")
    assert data["name"] == "initiative"


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_every_shipped_ruleset_validates(name):
    data, marks = load_yaml(shipped_rulesets()[name])
    validate(data, marks, "ruleset")


def _deck_files() -> list[Path]:
    return sorted((data_root() / "rulesets").glob("*/decks/*.yaml"))


@pytest.mark.parametrize("path", _deck_files(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_shipped_deck_validates(path):
    data, marks = load_yaml(path, error=DeckError)
    validate(data, marks, "deck", error=DeckError)


def _scenario_files() -> list[Path]:
    return sorted((CHECKOUT / "tests" / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_scenario_validates(path):
    data, marks = load_yaml(path)
    validate(data, marks, "scenario")


# -- YAML problems -----------------------------------------------------------------------------------


def test_missing_file_is_named(tmp_path):
    missing = tmp_path / "nowhere.yaml"
    with pytest.raises(RulesError) as info:
        load_yaml(missing)
    assert "no such file" in str(info.value)
    assert str(missing) in str(info.value)


@pytest.mark.parametrize("text", ["", "\n\n   \n", "# only a comment\n# and another\n"])
def test_empty_file(tmp_path, text):
    path = write(tmp_path, "empty.yaml", text)
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    assert "the file is empty" in str(info.value)
    assert info.value.span.file == str(path)


@pytest.mark.parametrize("raw", [b"name: x\x00\x01\x02", b"name: \xff\xfe\xfa\n", b"\x89PNG\r\n\x1a\n\x00\x00"])
def test_binary_file(tmp_path, raw):
    path = write(tmp_path, "image.yaml", raw)
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    assert "binary" in str(info.value)
    assert str(info.value).startswith(f"{path}:")


def test_syntax_error_has_line_and_column(tmp_path):
    path = write(tmp_path, "syntax.yaml", "name: x\nzones:\n  hand: {per: player\n  deck: {}\n")
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    err = info.value
    assert "YAML syntax error" in err.message
    assert "expected ',' or '}'" in err.message
    assert (err.span.line, err.span.column) == (4, 7)
    assert str(err).startswith(f"{path}:4:7: ")
    assert "  deck: {}" in str(err)  # the source line is quoted, with a caret under it
    assert str(err).splitlines()[2].index("^") == 4 + 6


def test_mapping_value_error_hint(tmp_path):
    path = write(tmp_path, "colon.yaml", "events:\n  damaged: {target}: takes {amount}\n")
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    assert info.value.span.line == 2
    assert "quoted" in info.value.hint


def test_tab_indentation_is_explained(tmp_path):
    path = write(tmp_path, "tabs.yaml", "zones:\n\thand: {}\n")
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    assert (info.value.span.line, info.value.span.column) == (2, 1)
    assert "tabs" in info.value.hint


def test_duplicate_key_is_an_error_with_both_lines(tmp_path):
    text = "name: x\nzones:\n  hand: {per: player}\n  deck: {}\n  hand: {per: shared}\n"
    path = write(tmp_path, "dup.yaml", text)
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    err = info.value
    assert "duplicate key 'hand'" in err.message
    assert "line 3" in err.message
    assert (err.span.line, err.span.column) == (5, 3)


def test_duplicate_key_in_flow_mapping(tmp_path):
    path = write(tmp_path, "dup.yaml", "zones:\n  hand: {per: player, per: shared}\n")
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    assert (info.value.span.line, info.value.span.column) == (2, 23)


def test_merge_keys_may_be_overridden(tmp_path):
    path = write(tmp_path, "merge.yaml", "base: &b {per: player, ordered: true}\nzones:\n  hand:\n    <<: *b\n    per: shared\n")
    data, _ = load_yaml(path)
    assert data["zones"]["hand"] == {"per": "shared", "ordered": True}


def test_several_documents_are_refused(tmp_path):
    path = write(tmp_path, "two.yaml", "name: a\n---\nname: b\n")
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    assert info.value.span.line == 2


def test_error_class_can_be_chosen(tmp_path):
    path = write(tmp_path, "deck.yaml", "")
    with pytest.raises(DeckError):
        load_yaml(path, error=DeckError)


def test_yaml_12_booleans_and_no_dates():
    data, _ = load_yaml_text("on: yes\nNo: off\nt: true\nf: False\nd: 2024-01-01\n", "<t>")
    assert data == {"on": "yes", "No": "off", "t": True, "f": False, "d": "2024-01-01"}


def test_no_python_objects():
    with pytest.raises(RulesError):
        load_yaml_text("x: !!python/object/apply:os.system ['true']\n", "<t>")


# -- marks --------------------------------------------------------------------------------------------


def test_key_and_value_spans():
    text = initiative_text()
    data, marks = load_yaml(ruleset_path("initiative"))
    row = line_of(text, "hand: {per: player, visibility: owner}")
    line = text.splitlines()[row - 1]
    key = marks.key_span(("zones", "hand", "visibility"))
    value = marks.value_span(("zones", "hand", "visibility"))
    assert (key.line, key.column) == (row, line.index("visibility") + 1)
    assert (value.line, value.column) == (row, line.index("owner") + 1)
    assert key.file == str(ruleset_path("initiative"))
    # list items, and "1" for an integer key
    phase = marks.value_span(("turn", "phases", 2, "do"))
    assert phase.line == line_of(text, "{name: order, do: decide_order()}")
    assert ("turn", "phases", "2", "do") in marks
    # span(): a scalar's value, a mapping's key line
    assert marks.span(("zones", "hand", "visibility")) == value
    assert marks.span(("zones",)).line == line_of(text, "zones:")
    # a missing path falls back to its deepest existing ancestor
    assert marks.span(("zones", "hand", "nothing")).line == row
    assert marks.span(("nothing",)) is not None


def test_value_origin_of_a_literal_block(tmp_path):
    text = (
        "name: x\n"
        "setup: |   # a comment\n"
        "\n"
        "  for p in players {\n"
        "      draw(p)\n"
        "  }\n"
        "turn:\n"
        "  first: \"random(players)\"\n"
        "  other: plain words\n"
        "    folded on\n"
    )
    path = write(tmp_path, "code.yaml", text)
    data, marks = load_yaml(path)
    assert data["setup"].splitlines()[1] == "for p in players {"
    line, column, style = marks.value_origin(("setup",))
    assert (line, column, style) == (3, 3, "|")
    # string line i, column c -> file line line + i - 1, column column + c - 1
    span = marks.span_in_value(("setup",), 3, 5)
    assert (span.line, span.column) == (5, 7)
    assert text.splitlines()[span.line - 1][span.column - 1 :].startswith("draw(p)")
    # a quoted scalar begins after its quote
    assert marks.value_origin(("turn", "first")) == (8, 11, '"')
    span = marks.span_in_value(("turn", "first"), 1, 7)
    assert text.splitlines()[span.line - 1][span.column - 1 :].startswith("(players)")
    # a plain scalar folded over two lines
    assert marks.value_origin(("turn", "other")) == (9, 10, "plain")
    span = marks.span_in_value(("turn", "other"), 1, data["turn"]["other"].index("folded") + 1)
    assert (span.line, span.column) == (10, 5)


def test_overlay_points_into_each_file(tmp_path):
    _, base = load_yaml(write(tmp_path, "base.yaml", "options:\n  a: {type: int, default: 1}\n  b: {type: bool, default: true}\n"))
    _, top = load_yaml(write(tmp_path, "top.yaml", "extends: base.yaml\noptions:\n  a: {default: 5}\n"))
    merged = base.overlay(top)
    assert merged.value_span(("options", "a", "default")).file.endswith("top.yaml")
    assert merged.value_span(("options", "b", "default")).file.endswith("base.yaml")


# -- schema errors ---------------------------------------------------------------------------------------


def test_misspelt_key_gives_did_you_mean_and_line(tmp_path):
    path, text = bad_ruleset(tmp_path, "hand: {per: player, visibility: owner}", "hand: {per: player, visibilty: owner}")
    data, marks = load_yaml(path)
    with pytest.raises(RulesError) as info:
        validate(data, marks, "ruleset")
    err = info.value
    row = line_of(text, "visibilty: owner")
    assert (err.span.line, err.span.column) == (row, text.splitlines()[row - 1].index("visibilty") + 1)
    assert "zones.hand.visibilty" in err.message
    assert "unknown key 'visibilty'" in err.message
    assert "did you mean 'visibility'?" in err.message
    assert str(err).startswith(f"{path}:{row}:")


def test_misspelt_top_level_key(tmp_path):
    path, text = bad_ruleset(tmp_path, "\nplayer_attributes:", "\nplayer_atributes:")
    data, marks = load_yaml(path)
    with pytest.raises(RulesError) as info:
        validate(data, marks, "ruleset")
    assert info.value.span.line == line_of(text, "player_atributes:")
    assert "did you mean 'player_attributes'?" in info.value.message


def test_wrong_type(tmp_path):
    path, text = bad_ruleset(tmp_path, "players: 2", "players: two")
    data, marks = load_yaml(path)
    with pytest.raises(RulesError) as info:
        validate(data, marks, "ruleset")
    err = info.value
    assert err.span.line == line_of(text, "players: two")
    assert err.message == "players: expected a whole number or a mapping, got the text 'two'"


def test_wrong_enum_value(tmp_path):
    path, text = bad_ruleset(tmp_path, "discard: {per: player, visibility: public}", "discard: {per: player, visibility: publik}")
    data, marks = load_yaml(path)
    with pytest.raises(RulesError) as info:
        validate(data, marks, "ruleset")
    assert info.value.span.line == line_of(text, "visibility: publik")
    assert "'publik' is not one of: public, owner, others, hidden (did you mean 'public'?)" in info.value.message


def test_attribute_default_must_fit_its_type(tmp_path):
    path, text = bad_ruleset(tmp_path, "resolved: {type: bool, default: false}", "resolved: {type: bool, default: 0, min: 0}")
    data, marks = load_yaml(path)
    with pytest.raises(ErrorList) as info:
        validate(data, marks, "ruleset")
    messages = [e.message for e in info.value.errors]
    assert "card_types.action.attributes.resolved.default: expected true or false, got the number 0" in messages
    assert "card_types.action.attributes.resolved.min: min and max apply to int attributes only" in messages
    assert {e.span.line for e in info.value.errors} == {line_of(text, "resolved: {type: bool")}


def test_end_condition_needs_one_outcome(tmp_path):
    path, text = bad_ruleset(tmp_path, "    draw: round limit reached\n", "    draw: round limit reached\n    winner: first(players)\n")
    data, marks = load_yaml(path)
    with pytest.raises(RulesError) as info:
        validate(data, marks, "ruleset")
    assert "exactly one of winner, loser, draw" in info.value.message
    assert info.value.message.startswith("end[2]: ")


def test_several_errors_are_sorted_by_line(tmp_path):
    text = initiative_text().replace("players: 2", "players: 0").replace("ordered: true, visibility: hidden", "ordered: yes, visibility: hidden")
    path = write(tmp_path, "bad.yaml", text)
    data, marks = load_yaml(path)
    errors = schema_errors(data, marks, "ruleset")
    assert [e.span.line for e in errors] == sorted(e.span.line for e in errors)
    assert len(errors) == 2
    assert "below the minimum 1" in errors[0].message
    assert "zones.deck.ordered: expected true or false, got the text 'yes'" == errors[1].message


def test_missing_required_keys_without_extends(tmp_path):
    path = write(tmp_path, "tiny.yaml", "name: tiny\nplayers: 2\n")
    data, marks = load_yaml(path)
    with pytest.raises(ErrorList) as info:
        validate(data, marks, "ruleset")
    missing = {e.message for e in info.value.errors}
    assert "(top level): missing required key 'zones'" in missing
    assert "(top level): missing required key 'turn'" in missing


def test_a_variant_may_give_only_what_it_changes(tmp_path):
    path = write(tmp_path, "quick.yaml", "extends: initiative\noptions:\n  round_limit: {default: 5}\n")
    data, marks = load_yaml(path)
    validate(data, marks, "ruleset")
    # ... but what it gives is still checked
    path = write(tmp_path, "quick.yaml", "extends: initiative\noptions:\n  round_limit: {defualt: 5}\n")
    data, marks = load_yaml(path)
    with pytest.raises(RulesError) as info:
        validate(data, marks, "ruleset")
    assert (info.value.span.line, info.value.span.column) == (3, 17)
    assert "did you mean 'default'?" in info.value.message


LANES_LIKE = """
name: lanes_like
players: 2
options:
  draft: {type: choice, values: [picks, random], default: picks}
  protection: {type: choice, values: [per_turn, once], default: per_turn}
  turn_limit: {type: int, default: 200, min: 1}
cards: [../../cards/lanes]
keywords:
  protection:
    code: |
      instead of damage(to: self) if not self.protected_this_turn { self.protected_this_turn = true }
  aura:
    params: [{name: k, type: keyword}]
    code: "static: adjacent(self) have k"
player_attributes:
  mana: {type: int, default: 0, min: 0}
zones:
  draft: {per: shared, ordered: true, visibility: hidden}
  hand: {per: player, ordered: true, visibility: owner}
  lanes: {per: player, rows: [upper, lower], visibility: public, active: true}
card_types:
  keep: {faces: [bastion, fort], attributes: {health: {type: int, default: 0}}}
  creature:
    attributes:
      cost: {type: int, min: 0}
      keywords: {type: list, of: text, default: []}
events:
  damaged: {text: "{target} takes {amount}", args: [target, amount, source]}
  turn_end: null
setup:
  - {name: draft, do: draft_cards(), cites: [L-2.2]}
turn:
  active: alternate
  first: last_drafter()
  phases:
    - {name: mana, do: gain_mana()}
    - name: summon
      steps:
        - {name: play, do: summon_loop(), if: "count(hand(active)) > 1"}
    - {name: assault, do: assault()}
end:
  - {when: "keep_destroyed(active)", loser: active, reason: fort destroyed}
  - {when: "game.turn > options.turn_limit", draw: true, check_on: [turn_end]}
"""

BASES_LIKE_DECKS = """
name: bases_like
extends: lanes_like.yaml
stack: {zone: stack, priority: opponent_first}
decks:
  max_copies: 3
  colours_attribute: colours
  colours_from: bases
  format_option: format
  formats:
    conflict:
      min_size: 40
      sections:
        bases:
          size: 5
          allowed_types: [base]
          zone: territory
          require: [{attribute: role, value: centre, count: 1}, {attribute: role, value: surrounding, count: 4}]
    skirmish:
      min_size: 30
      sections: {bases: {size: 3, allowed_types: [base]}}
"""


def test_keys_the_engine_does_not_implement_are_refused():
    # a sketch of a bigger game: what the engine would silently ignore is a located error instead
    data, marks = load_yaml_text(LANES_LIKE, "lanes_like.yaml")
    with pytest.raises(CardrulesError) as info:
        validate(data, marks, "ruleset")
    text = str(info.value)
    assert "keywords: unknown key 'keywords'" in text
    assert "card_types.keep.faces: unknown key 'faces'" in text


def test_rows_must_be_names():
    text = (data_root() / "rulesets" / "lanes" / "lanes.yaml").read_text()
    text = text.replace("rows: [upper, lower]", "rows: [upper, upper]")
    data, marks = load_yaml_text(text, "rows.yaml")
    with pytest.raises(RulesError) as info:
        validate(data, marks, "ruleset")
    assert "zones.lane.rows: repeats an item: 'upper'" == info.value.message


# -- decks and scenarios ------------------------------------------------------------------------------


def test_deck_errors(tmp_path):
    text = "name: Tempo\ndescripton: fast\ncards:\n  Stab: 10\n  Bandage: 0\n"
    path = write(tmp_path, "deck.yaml", text)
    data, marks = load_yaml(path, error=DeckError)
    with pytest.raises(ErrorList) as info:
        validate(data, marks, "deck", error=DeckError)
    first, second = info.value.errors
    assert isinstance(first, DeckError)
    assert first.span.line == 2 and "did you mean 'description'?" in first.hint
    assert second.span.line == 5
    assert second.message == "cards.Bandage: expected a number of copies (1 or more), got the number 0"


SCENARIO = """
ruleset: initiative
cites: [I-3.3]
description: text
seed: 1
options: {round_limit: 5}
cards: |
  card "Test" : action { initiative = 1 copies = 1 }
given:
  turn: {number: 1, phase: order, active: 1}
  globals: {first: 1}
  players:
    1:
      health: 10
      hand: [Stab, Bandage]
      field: [{card: Monster, attack: 3, damage: 1, as: m}]
      enchantments: [{card: Bless, attached_to: $m, part: top}]
    "2": {hand: [], lanes: {upper: [Tide Lancer], lower: []}}
  zones: {}
when:
  - {player: 1, choose: "Stab + Bandage"}
  - {player: 2, choose: 0, error: "not a legal option"}
  - 3
then:
  players.2.health: 18
  players.1.hand: [Bandage]
  winner: 1
  events: [damaged, {event: acts_first, player: 1}]
"""


def test_scenario_example_validates():
    data, marks = load_yaml_text(SCENARIO, "scenario.yaml")
    validate(data, marks, "scenario")


@pytest.mark.parametrize(
    ("old", "new", "expected", "needle"),
    [
        ("cites: [I-3.3]", "cites: []", "cites: must not be empty", "cites: []"),
        ("cites: [I-3.3]", "cites: [I3.3]", "cites[0]: must be a rule id of RULES.md such as I-3.3, got the text 'I3.3'", "cites: [I3.3]"),
        ('"2": {hand', "x: {hand", "given.players.x: bad key 'x': expected a player number (1, 2, ...)", "x: {hand"),
        ("{player: 1, choose", "{player: 1, chose", "when[0].chose: unknown key 'chose' (did you mean 'choose'?)", "chose:"),
        ("seed: 1", "seed: one", "seed: expected a whole number, got the text 'one'", "seed: one"),
        ("turn: {number: 1,", "turn: {numbr: 1,", "given.turn.numbr: unknown key 'numbr' (did you mean 'number'?)", "numbr"),
    ],
)
def test_scenario_errors(old, new, expected, needle):
    text = SCENARIO.replace(old, new)
    data, marks = load_yaml_text(text, "scenario.yaml")
    errors = schema_errors(data, marks, "scenario")
    assert expected in [e.message for e in errors]
    hit = next(e for e in errors if e.message == expected)
    assert hit.span.line == line_of(text, needle)


def test_scenario_needs_ruleset_and_cites():
    data, marks = load_yaml_text("description: nothing\n", "s.yaml")
    messages = {e.message for e in schema_errors(data, marks, "scenario")}
    assert messages == {"(top level): missing required key 'ruleset'", "(top level): missing required key 'cites'"}


# -- paths ------------------------------------------------------------------------------------------------


def test_shipped_games_and_ruleset_path(tmp_path):
    assert "initiative" in shipped_games()
    assert ruleset_path("initiative").name == "initiative.yaml"
    assert ruleset_path(str(ruleset_path("initiative"))) == ruleset_path("initiative")
    assert ruleset_path(ruleset_path("initiative").parent) == ruleset_path("initiative")
    variant = write(tmp_path, "v.yaml", "extends: ../initiative\n")
    assert ruleset_path("v.yaml", base=tmp_path / "other.yaml") == variant


def test_unknown_game_suggests_a_shipped_one():
    with pytest.raises(RulesError) as info:
        ruleset_path("initiatve")
    assert "unknown game 'initiatve' (did you mean 'initiative'?)" in info.value.message
    assert "initiative" in info.value.hint


def test_missing_ruleset_file(tmp_path):
    with pytest.raises(RulesError) as info:
        ruleset_path(str(tmp_path / "none.yaml"))
    assert "no such ruleset file" in info.value.message


def test_unknown_schema_name():
    with pytest.raises(RulesError) as info:
        schema_path("rulset")
    assert "did you mean 'ruleset'?" in info.value.message
