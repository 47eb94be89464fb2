"""compile/analyses.py and compile/sites.py read the lowered form of a ruleset's code
(`LoweredRuleset`): what static abilities read (through the functions they call), the
attributes something modifies, the events temporary effects last until, the decision sites and
the literal values of the code as written (a card template once, not the cards it makes)."""

from __future__ import annotations

from toyrules import toy_with

from interpreter import load
from interpreter.compile.analyses import modified_attributes, static_reads, until_events
from interpreter.compile.sites import decision_sites, literal_values
from interpreter.lang.lower import lowered

_CARDS = '''
function sturdy_enough(c) = c.flag and count(hand(c.owner)) > 0
card "Reader" : unit {
  static modify self.power by 1 when sturdy_enough(self)
}
card "Pumped" : unit {
  on poked {
    modify self.guard by 2 until bumped
  }
}
cards for n in [7, 8]: "Unit {n}" : unit { power = n * 100 }
procedure pick_twice(p) {
  let a = choose "first pick" from hand(p) by p
  let b = choose "second pick" from hand(p) by p
}
'''


def _rules(tmp_path):
    rules = load(toy_with(tmp_path, _CARDS))
    return rules, lowered(rules.ruleset, rules.ruleset.definitions)


def test_what_static_abilities_read_and_what_is_modified_come_from_the_lowered_code(tmp_path) -> None:
    rules, low = _rules(tmp_path)
    reads = static_reads(low)
    assert {"flag", "power"} <= reads and "guard" in reads  # (flag through the function; guard: Night Owl's)
    assert rules.static_reads == reads
    assert {"power", "guard"} <= modified_attributes(low)
    assert until_events(low) == {"tick", "bumped"}
    assert "hand" in rules.watched_zones  # (the function the static ability calls counts a hand)


def test_decision_sites_and_literal_values_are_those_of_the_code_as_written(tmp_path) -> None:
    rules, _low = _rules(tmp_path)
    labels = [site.label for site in decision_sites(rules.ruleset)]
    assert labels.count("first pick") == 1 and labels.count("second pick") == 1
    assert labels.index("first pick") + 1 == labels.index("second pick")  # (in the order written)
    values = literal_values(rules.ruleset, ())
    assert {7, 8, 100} <= set(values) and not {700, 800} & set(values)  # (the template, not the cards it made)
    assert {"Unit 7", "Unit 8"} <= set(literal_values(rules.ruleset, rules.card_defs))


def test_a_ruleset_with_more_cards_is_lowered_on_its_base(tmp_path) -> None:
    """A scenario's own cards: what the base lowered is not lowered again, nor walked, and the
    base's lowering does not grow with them."""
    from interpreter.scenarios.loading import _with_cards

    rules, low = _rules(tmp_path)
    made = len(low.lowering._made)
    card = 'card "Extra" : unit {\n  on bumped {\n    modify self.power by 1 until tick\n  }\n}\n'
    more = _with_cards(rules, [(card, "extra.cards", 1, 1)])
    extended = lowered(more.ruleset, more.ruleset.definitions)
    assert extended.lowering.base is low.lowering and len(low.lowering._made) == made
    assert extended.functions["sturdy_enough"] is low.functions["sturdy_enough"]
    assert extended.nodes()[:len(low.nodes())] == low.nodes() and "Extra" in extended.cards
    assert any(type(n).__name__ == "Ability" and n.event == "bumped" for n in extended.nodes()[len(low.nodes()):])
