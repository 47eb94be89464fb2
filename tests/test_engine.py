"""The engine's general concepts on a small non-shipped ruleset (tests/data/toy): ordered zones
and rows with positions, moves within a zone, triggers, replacements applied once per chain,
static modifiers and clamps, keywords with parameters granted to neighbours, temporary modifiers,
choice kinds, the step budget, and seeded determinism."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from interpreter import load, load_game_json
from interpreter.errors import RuntimeRuleError
from interpreter.lang.runtime import Frame
from interpreter.lang.values import ZoneKey
from interpreter.rules.decks import Deck

TOY = Path(__file__).resolve().parent / "data" / "toy" / "toy.yaml"


@pytest.fixture(scope="module")
def rules():
    return load(TOY)


def empty(rules, seed=1):
    return rules.empty_game(seed=seed, decks=[Deck("none", "-", ()) for _ in range(2)])


def put(game, name, zone, seat=1, row=""):
    return game.state.new_card(game.rules.card_defs[name], ZoneKey(zone, seat, row), game.players[seat - 1])


def _toy_with(tmp_path, code: str = "", cards: str = ""):
    """The toy ruleset with more rule code and cards, loaded from a copy in tmp_path."""
    for f in TOY.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    with open(tmp_path / "toy.rules", "a", encoding="utf-8") as out:
        out.write(code)
    with open(tmp_path / "toy.cards", "a", encoding="utf-8") as out:
        out.write(cards)
    return load(tmp_path / "toy.yaml")


def names(game, zone, seat=1, row=""):
    return [c.name for c in game.state.zones[ZoneKey(zone, seat, row)]]


def test_a_game_alternates_turns_and_places_cards_at_position_one(rules):
    game = rules.new_game(seed=1)
    assert game.is_over  # nothing in hand: no decision; the end condition ends it after three turns
    assert game.result.reason == "three turns played" and game.result.draw
    game = empty(rules)
    for name in ("Plain", "Big"):
        put(game, name, "hand", 1)
    put(game, "Sturdy", "hand", 2)
    from interpreter.lang.runtime import Frame

    game.state.start(Frame(rules.main, {}))
    assert game.decision()[0] == 1 and game.pending.prompt == "a card to place"
    game.apply("Big")
    assert [o.label for o in game.decision()[1]] == ["left", "right"]
    game.apply("right")
    assert names(game, "board", 1, "right") == ["Big"]
    assert game.decision()[0] == 2  # turn 2 belongs to the other player
    game.apply("left")  # one card only: placed without asking which card
    assert names(game, "board", 2, "left") == ["Sturdy"]
    game.apply("left")  # turn 3: P1 has one card left
    assert names(game, "board", 1, "left") == ["Plain"]
    assert game.is_over and game.result.turns == 4


def test_static_modifier_and_clamp(rules):
    game = empty(rules)
    big = put(game, "Big", "board", 1, "left")
    assert game.read(big, "power") == 5  # printed 3, boost(2)
    assert game.state.read_base(big, "power") == 3
    game.state.write(big, "power", -4)  # writes clamp to the declared minimum
    assert game.state.read_base(big, "power") == 0
    game.state.write(game.players[0], "score", 99)
    assert game.read(game.players[0], "score") == 10
    hand_big = put(game, "Big", "hand", 1)
    assert game.read(hand_big, "power") == 3  # abilities work only in active zones


def test_keyword_with_parameter_granted_to_neighbours_not_itself(rules):
    game = empty(rules)
    row = [put(game, n, "board", 1, "left") for n in ("Plain", "Neighbourly", "Plain", "Plain")]
    assert [game.state.has_keyword(c, "sturdy") for c in row] == [True, False, True, False]
    # the granted keyword's replacement works: a poke of 3 becomes 2 on a neighbour
    game.perform("poke", card=row[0], amount=3)
    assert game.read(row[0], "guard") == 2
    game.perform("poke", card=row[3], amount=3)
    assert game.read(row[3], "guard") == 3
    # moving within the row changes who the neighbours are
    game.state.move(row[3], ZoneKey("board", 1, "left"), 1)
    assert names(game, "board", 1, "left") == ["Plain", "Plain", "Neighbourly", "Plain"]
    assert [game.state.has_keyword(c, "sturdy") for c in game.state.zones[ZoneKey("board", 1, "left")]] == [
        False, True, False, True]


def test_replacement_applies_once_per_chain_and_triggers_fire(rules):
    game = empty(rules)
    sturdy = put(game, "Sturdy", "board", 1, "left")
    watcher = put(game, "Watcher", "board", 2, "right")
    game.perform("poke", card=sturdy, amount=5)
    assert game.read(sturdy, "guard") == 4  # replaced once: 5 -> 4, not down to 0
    assert game.read(watcher, "guard") == 10  # the trigger saw the poked event
    events = [e["event"] for e in game.log if e["type"] == "event"]
    assert events.count("poked") == 1


def test_temporary_modifier_lasts_until_its_event(rules):
    game = empty(rules)
    tick = put(game, "Tick Tock", "board", 1, "left")
    assert game.read(tick, "power") == 1
    game.perform("tick_now")
    assert game.read(tick, "power") == 6  # +5 until the next tick
    game.perform("tick_now")
    assert game.read(tick, "power") == 6  # the old +5 ended, a new one began
    assert game.state.read_base(tick, "power") == 1


def test_step_budget_names_the_rule_and_card(rules):
    game = empty(rules)
    looper = put(game, "Looper", "board", 1, "left")
    game.state.run_part(looper, "top")
    with pytest.raises(RuntimeRuleError, match="step budget") as info:
        game.state._run(0)
    assert "Looper" in str(info.value) or "spin" in str(info.value)
    game = empty(rules)
    looper = put(game, "Looper", "board", 1, "left")
    game.state.run_part(looper, "bottom")
    with pytest.raises(RuntimeRuleError, match="step budget") as info:
        game.state._run(0)
    assert "spin_emitting" in str(info.value) and "Looper" in str(info.value)


@pytest.mark.parametrize("part, procedure", [("top", "recurse"), ("bottom", "recurse_quietly")])
def test_step_budget_stops_endless_recursion(rules, part, procedure):
    """A procedure that calls itself forever (suspending, or plain Python) is stopped with a rule
    error naming it, not a Python RecursionError."""
    game = empty(rules)
    looper = put(game, "Deep Looper", "board", 1, "left")
    game.state.run_part(looper, part)
    with pytest.raises(RuntimeRuleError) as info:
        game.state._run(0)
    assert procedure in str(info.value) and "Deep Looper" in str(info.value)


def test_static_effects_that_read_the_turn_or_phase_follow_them(rules):
    """A static ability whose condition reads game.phase or game.active changes with them, though
    nothing else changed (its cached targets are worked out again)."""
    game = empty(rules)
    owl = put(game, "Night Owl", "board", 1, "left")
    powers, guards = [], []
    for step in ("main", "finish", "main", "turn", "turn"):
        if step == "turn":
            game.state.begin_turn()
        else:
            game.state.begin_phase(step)
        powers.append(game.read(owl, "power"))
        guards.append(game.read(owl, "guard"))
    assert powers == [1, 3, 1, 1, 1]
    assert guards[2:] == [0, 5, 0]  # no active player until the first turn; then P1, then P2


def test_shuffles_come_from_the_seeded_generator(rules):
    orders = []
    for seed in (5, 5, 6):
        game = empty(rules, seed)
        for i in range(10):
            put(game, "Plain" if i % 2 else "Big", "pile", 1)
        game.state.shuffle(ZoneKey("pile", 1, ""))
        orders.append([c.id for c in game.state.zones[ZoneKey("pile", 1, "")]])
    assert orders[0] == orders[1] != orders[2]


def test_choice_kinds(rules):
    game = empty(rules)
    a, b, c = (put(game, "Plain", "hand", 1) for _ in range(3))
    from interpreter.lang.runtime import Frame

    frame = Frame(None, {})
    game.state.choose(frame, "x", "up_to", 2, "pick", [a, b, c], game.players[0], None)
    assert len(game.decision()[1]) == 1 + 3 + 3  # none, singles, pairs
    game.state.pending = None
    game.state.choose(frame, "x", "order", 0, "order", [a, b, c], game.players[0], None)
    assert len(game.decision()[1]) == 6
    game.state.pending = None
    game.state.choose(frame, "x", "exactly", 2, "two", [a, b], game.players[0], None)
    assert frame.locals["x"] == [a, b] and game.pending is None  # one option: taken without asking


def test_activated_abilities_are_offered_paid_and_run(rules):
    game = empty(rules)
    pumper = put(game, "Pumper", "board", 1, "left")
    put(game, "Pumper", "hand", 1)  # abilities work only in active zones
    game.perform("use_ability", controller=1, p=game.players[0])
    seat, options = game.decision()
    assert seat == 1 and [o.label for o in options] == ["Pumper: grow", "Pumper: guard up"]
    assert game.pending.prompt == "an ability for P1"  # {p} in a prompt shows the value
    assert options[0].id == f"a{pumper.id}.1"
    saved = game.to_json()
    game.apply("Pumper: grow")
    assert game.read(pumper, "power") == 2 and game.read(game.players[0], "score") == -2
    # the decision survives a save: the same ability is offered and runs in the reloaded game
    again = load_game_json(saved, rules)
    again.apply(0)
    assert again.read(again.state.cards[pumper.id], "power") == 2
    # the `if` condition hides an ability that may not be used now
    game.state.write(pumper, "power", 3)
    game.perform("use_ability", controller=1, p=game.players[0])
    assert game.read(pumper, "guard") == 5  # only "guard up" is left: taken without asking


# ------------------------------------------------------------------ decks with parts, counts, cover and formats
GOOD_DECK = {"name": "good", "cards": {"Violet Duo": 1, "Ember Unit": 1, "Plain": 1},
             "sites": {"Red Keepsake": 1, "Blue Outpost": 1, "Green Outpost": 1}}


def test_a_deck_with_parts_starts_each_part_in_its_zone(rules):
    game = rules.empty_game(seed=1, decks=[GOOD_DECK, GOOD_DECK])
    assert sorted(names(game, "pile", 2)) == ["Ember Unit", "Plain", "Violet Duo"]
    assert names(game, "sites", 1) == ["Red Keepsake", "Blue Outpost", "Green Outpost"]


def test_a_multicolour_card_needs_every_colour_covered(rules):
    from interpreter.errors import DeckError

    deck = dict(GOOD_DECK, sites={"Red Keepsake": 1, "Green Outpost": 2})
    with pytest.raises(DeckError, match="'Violet Duo' needs colours blue, which no card of its sites has"):
        rules.deck(deck)


def test_part_counts_sizes_and_unknown_parts(rules):
    from interpreter.errors import DeckError

    with pytest.raises(DeckError, match="has 0 cards with role 'centre' in sites"):
        rules.deck(dict(GOOD_DECK, sites={"Blue Outpost": 2, "Green Outpost": 1}))
    with pytest.raises(DeckError, match="has 2 cards in sites; toy decks have exactly 3 there"):
        rules.deck(dict(GOOD_DECK, sites={"Red Keepsake": 1, "Blue Outpost": 1}))
    with pytest.raises(DeckError, match="a part 'side' that toy decks do not have"):
        rules.deck(dict(GOOD_DECK, side={"Plain": 1}))
    with pytest.raises(DeckError, match="'Plain' is a unit, which this part may not hold"):
        rules.deck(dict(GOOD_DECK, sites={"Red Keepsake": 1, "Blue Outpost": 1, "Plain": 1}))


def test_the_format_option_picks_the_deck_rules():
    small = load(TOY, options={"format": "small"})
    deck = small.deck({"name": "s", "cards": {"Ember Unit": 2}, "sites": {"Red Keepsake": 1, "Green Outpost": 1}})
    assert deck.sections == (("sites", ("Red Keepsake", "Green Outpost")),)
    from interpreter.errors import DeckError

    with pytest.raises(DeckError, match="exactly 2 there"):
        small.deck(GOOD_DECK)


def test_an_ability_target_block_runs_when_it_is_aimed_and_its_effect_when_used(rules):
    game = empty(rules)
    aimer = put(game, "Aimer", "board", 1, "left")
    game.perform("aim_first", controller=1, p=game.players[0])
    assert game.read(aimer, "flag") is True and game.read(aimer, "guard") == 0
    game.perform("use_first", controller=1, p=game.players[0])
    assert game.read(aimer, "guard") == 1


def test_a_copy_keeps_the_labels_of_the_decision_it_was_made_at():
    """Options and prompts are labelled lazily; a copy made at a decision shows the labels of
    that moment even after the original game has taken the decision and changed the cards."""
    rules = load("initiative")
    checked = 0
    for seed in range(6):
        game = rules.new_game(seed=seed, log=False)
        rng = random.Random(seed)
        while not game.is_over:
            _seat, options = game.decision()
            then = [game.state.label(o.value) for o in options]
            copy = game.clone()
            game.apply(rng.randrange(len(options)))
            if not game.is_over and [game.state.label(o.value) for o in options] != then:  # e.g. a creature died
                assert [o.label for o in copy.decision()[1]] == then
                checked += 1
    assert checked > 0


def test_options_are_a_read_only_sequence_made_as_read():
    """decision() gives the options as a sequence: indexing (negative too), slicing and
    iterating give the same Option objects; it has no way to change it."""
    game = load("initiative").new_game(seed=3)
    _seat, options = game.decision()
    n = len(options)
    assert n > 2
    last = options[-1]
    assert last is options[n - 1] and last.index == n - 1
    assert options[1:3] == [options[1], options[2]]
    assert [o.index for o in options] == list(range(n))
    assert all(a is b for a, b in zip(options, list(options)))
    assert not hasattr(options, "append")
    with pytest.raises(IndexError):
        options[n]
    game.apply(options[0].id)
    assert [e for e in game.log if e["type"] == "decision"][-1]["option"] == options[0].id


@pytest.mark.parametrize("game_name", ["initiative", "lanes", "bases"])
def test_a_game_without_a_log_plays_the_same(game_name):
    """Unlogged games take decisions by index without making Option objects; with the same
    answers they end in the very same state as logged ones."""
    rules = load(game_name)
    for seed in range(4):
        quiet, logged = rules.new_game(seed=seed, log=False), rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not logged.is_over:
            index = rng.randrange(len(logged.decision()[1]))
            assert len(quiet.decision()[1]) == len(logged.decision()[1])
            quiet.apply(index)
            logged.apply(index)
        assert quiet.is_over
        a, b = quiet.to_json(), logged.to_json()
        for key in ("log", "logging"):
            a.pop(key), b.pop(key)
        assert a == b and b["result"] is not None


def test_attachments_are_listed_zone_by_zone_in_position_order(rules):
    game = empty(rules)
    target = put(game, "Plain", "board", 1, "left")
    late_hand = put(game, "Plain", "hand", 2)
    pool = put(game, "Plain", "pool", 0)
    early_hand = put(game, "Plain", "hand", 2)
    on_player = put(game, "Plain", "board", 2, "right")
    put(game, "Plain", "hand", 2)  # not attached
    for card in (late_hand, pool, early_hand):
        game.state.attach(card, target)
    game.state.attach(on_player, game.players[1])
    game.state.move(early_hand, ZoneKey("hand", 2, ""), 1)  # reordered in its zone: stays attached
    assert game.state.attachments(target) == [early_hand, late_hand, pool]  # hand before pool, as declared
    assert game.state.attachments(game.players[1]) == [on_player]
    assert game.state.attachments(game.players[0]) == []
    game.state.move(late_hand, ZoneKey("pile", 2, ""), None)  # another zone: no longer attached
    assert game.state.attachments(target) == [early_hand, pool]
    assert game.clone().state.attachments(target) == [early_hand, pool]
    game.state.detach(pool)
    game.state.delete(early_hand)
    assert game.state.attachments(target) == []
    game.state.attach(pool, game.players[1])  # attached again, elsewhere
    assert game.state.attachments(game.players[1]) == [on_player, pool]
    restored = load_game_json(json.loads(json.dumps(game.to_json())), rules)  # (as saved to a file)
    assert [c.id for c in restored.state.attachments(restored.players[1])] == [on_player.id, pool.id]
    restored.state.move(restored.state.cards[pool.id], ZoneKey("pile", 2, ""), None)
    assert [c.id for c in restored.state.attachments(restored.players[1])] == [on_player.id]


def test_a_temporary_grant_brings_its_replacement_until_its_event_also_in_a_copy(rules):
    game = empty(rules)
    plain, other = put(game, "Plain", "board", 1, "left"), put(game, "Plain", "board", 1, "right")
    assert not game.state.has_keyword(plain, "sturdy")
    game.state.add_temporary_grant(plain, "sturdy", (), "tick", None)
    assert game.state.has_keyword(plain, "sturdy") and not game.state.has_keyword(other, "sturdy")
    copy = game.clone()
    game.perform("poke", card=plain, amount=3)
    assert game.read(plain, "guard") == 2  # the granted keyword's replacement: 3 becomes 2
    game.perform("tick_now")  # the grant ends
    assert not game.state.has_keyword(plain, "sturdy")
    game.perform("poke", card=plain, amount=3)
    assert game.read(plain, "guard") == 5
    # the copy keeps the grant until its own tick
    assert copy.state.has_keyword(copy.state.cards[plain.id], "sturdy")
    copy.perform("poke", card=copy.state.cards[plain.id], amount=3)
    assert copy.read(copy.state.cards[plain.id], "guard") == 2


def test_a_phase_start_trigger_runs_at_each_phase(tmp_path):
    # no shipped game listens to phase_start: the main program then starts phases without a stop
    # point; with a listener, each phase's start is one (and its trigger runs there)
    listening = _toy_with(tmp_path, cards='card "Bell" : unit {\n  on phase_start { game.counter += 1 }\n}\n')
    quiet = load(TOY)
    assert "begin_phase" in _main_source(listening) and "begin_phase" in _main_source(quiet)
    assert _main_source(quiet).count("g.descend") < _main_source(listening).count("g.descend")
    game = empty(listening)
    put(game, "Bell", "board", 1, "left")
    from interpreter.lang.runtime import Frame

    game.state.start(Frame(listening.main, {}))
    assert game.is_over and game.result.turns == 4
    assert game.state.globals["counter"] == 3 * 2  # three turns of two phases each


def _main_source(rules) -> str:
    return "\n".join(src for name, src in rules.compiler.gen.ns.sources.items() if ": main>" in name)


def test_what_triggers_listen_is_cached_until_a_card_moves_not_when_a_value_changes():
    game = load("initiative").new_game(seed=3, log=False)
    first = game.state._active_with("resolution", "triggers")
    assert not game.rules.static_grants and "played" in game.rules.static_reads
    game.state.write(game.players[0], "played", [])  # a value that static abilities read
    assert game.state._active_with("resolution", "triggers") is first


def test_what_triggers_listen_is_cached_until_a_card_that_listens_moves(tmp_path):
    rules = _toy_with(tmp_path, code="\nkeyword alert {\n  on poked { self.guard += 1 }\n}\n")
    assert "poked" not in rules.grant_listened["triggers"]  # no static ability grants alert
    game = empty(rules)
    first = game.state._active_with("poked", "triggers")
    plain = put(game, "Plain", "board", 1, "left")  # no triggered ability: nothing to look at again
    game.state.move(plain, ZoneKey("board", 1, "right"), None)
    assert game.state._active_with("poked", "triggers") is first == []
    watcher = put(game, "Watcher", "hand", 2)
    game.state.move(watcher, ZoneKey("board", 2, "left"), None)  # a listener comes into play
    assert [c for c, _a, _l in game.state._active_with("poked", "triggers")] == [watcher]
    # while a temporary grant lasts, any card may listen: every move counts
    game.state.add_temporary_grant(plain, "alert", (), "tick", None)
    assert [c for c, _a, _l in game.state._active_with("poked", "triggers")] == [plain, watcher]  # (timestamps)
    game.state.move(plain, ZoneKey("hand", 1, ""), None)
    assert [c for c, _a, _l in game.state._active_with("poked", "triggers")] == [watcher]


def test_options_repeat_no_id():
    # a choice drops values whose option id an earlier value already has, quick paths included
    from interpreter.engine.decisions import distinct_values
    from interpreter.lang.values import value_id

    game = load(TOY).empty_game(seed=1, decks=[Deck("none", "-", ()) for _ in range(2)])
    card = put(game, "Plain", "hand", 1)
    p1, p2 = game.players
    for values in ([1, "1", 2, True, "yes", None, "none", 2, [1], "1+"], [card, p1, card, p2, "pass"],
                   [card, p1, p2, "pass"], [3, 3, 3], ["a", "b", "a"], [1, 2, 3], ["upper", "lower"], [1, True]):
        kept, seen = [], set()
        for v in values:
            if value_id(v) not in seen:
                seen.add(value_id(v))
                kept.append(v)
        assert distinct_values(values) == kept, values


def test_the_keywords_static_abilities_may_grant_are_known_at_load_time():
    """has() of a keyword that no static ability grants (and no temporary grant exists) answers
    from the printed keywords, without working out whom the static grants apply to; so the set
    must hold every keyword an active static ability can grant: in Lanes, the auras' keywords."""
    lanes = load("lanes")
    auras = {args[0] for d in lanes.card_defs.values() for name, args in d.keywords if name == "aura"}
    assert auras and lanes.grantable_keywords == frozenset(auras)
    # only Protection, of those, brings abilities (it replaces damage): what listens to any other
    # event is cached while the cards stay where they are, whatever is written
    assert lanes.grant_listened == {"triggers": set(), "replacements": {"damage"}}
    assert load("bases").grantable_keywords == frozenset()


def _toy_set_up(tmp_path: Path, body: str):
    toy = Path(__file__).resolve().parent / "data" / "toy"
    for f in toy.iterdir():
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "extra.rules").write_text(f"procedure seeded_setup() {{\n{body}\n}}\n", encoding="utf-8")
    yaml = (tmp_path / "toy.yaml").read_text(encoding="utf-8")
    yaml = yaml.replace("code: [toy.rules]", "code: [toy.rules, extra.rules]").replace("setup: run_setup()",
                                                                                    "setup: seeded_setup()")
    (tmp_path / "toy.yaml").write_text(yaml, encoding="utf-8")
    return load(tmp_path / "toy.yaml")


SEEDED_SET_UP = """  let made = 0
  for p in players {
    repeat 2 {
      create "Plain" in pool() as c
      made += 1
    }
  }
  game.counter = made * 10
  shuffle pool()
  game.counter += made"""


def test_the_seed_free_start_of_the_set_up_runs_once_and_games_go_on_from_a_copy(tmp_path):
    """What the set-up does before its first random draw is the same in every game: it runs once
    per set of decks, and each new game starts from a copy of its result, its names included.
    The games are the very games of running the whole set-up each time."""
    rules = _toy_set_up(tmp_path, SEEDED_SET_UP)
    assert rules.set_up_start is not None and rules.set_up_pc > 0
    start = "\n".join(src for name, src in rules.compiler.gen.ns.sources.items() if "set-up start" in name)
    assert "g.create(" in start and "shuffle" not in start
    orders = set()
    for seed in range(6):
        game = rules.new_game(seed=seed)
        whole = rules.empty_game(seed=seed)
        whole.state.start(Frame(rules.main, {}))
        assert game.state.globals["counter"] == whole.state.globals["counter"] == 44
        pool = [(c.id, c.name) for c in game.state.zones[ZoneKey("pool", 0, "")]]
        assert pool == [(c.id, c.name) for c in whole.state.zones[ZoneKey("pool", 0, "")]] and len(pool) == 4
        assert game.log == whole.log and game.result == whole.result
        orders.add(tuple(pool))
        game.state.delete(game.state.zones[ZoneKey("pool", 0, "")][0])  # a game changes its copy only
        game.state.globals["counter"] = -1
    assert len(orders) > 1  # the shuffle after the start still follows each game's seed


@pytest.mark.parametrize("first", ["shuffle pool()", "let who = random(players)", "emit tick()",
                                   "reveal(pool())", "let n = count(shuffled(pool()))"])
def test_the_seed_free_start_ends_at_randomness_events_and_calls(tmp_path, first):
    rules = _toy_set_up(tmp_path, f"  {first}\n  game.counter = 1")
    assert rules.set_up_start is None and rules.set_up_pc == 0
    assert rules.new_game(seed=3).state.globals["counter"] == 1


def test_a_set_up_that_starts_with_a_call_is_read_through_it(tmp_path):
    """A first call of a procedure without parameters is the same as its statements: the start
    may lie inside it (run_setup sets the counter); a call with arguments ends the start."""
    rules = _toy_set_up(tmp_path, "  run_setup()\n  game.counter = 5\n  shuffle pool()")
    assert rules.set_up_start is not None
    assert rules.new_game(seed=1).state.globals["counter"] == 5
    rules = _toy_set_up(tmp_path, "  poke(none, 0)")
    assert rules.set_up_start is None


def test_a_replacement_anchored_to_its_own_card_is_looked_up_on_that_card_only(rules):
    # every replacement of `poke` starts `event.card == self`: only the poked card can replace it
    assert rules.replacement_anchors == {"poke": ("card", "self")}
    game = empty(rules)
    sturdy, plain = put(game, "Sturdy", "board", 1, "left"), put(game, "Plain", "board", 1, "left")
    in_hand = put(game, "Sturdy", "hand", 1)
    game.perform("poke", card=plain, amount=3)
    game.perform("poke", card=in_hand, amount=3)  # not in an active zone: its keyword sleeps
    game.perform("poke", card=sturdy, amount=3)
    assert [game.read(c, "guard") for c in (plain, in_hand, sturdy)] == [3, 3, 2]


def test_one_unanchored_replacement_makes_every_call_look_at_every_card(tmp_path):
    damped = _toy_with(tmp_path, cards='card "Damper" : unit {\n  instead of poke if event.amount > 4 { }\n}\n')
    assert damped.replacement_anchors == {}
    game = empty(damped)
    sturdy, plain = put(game, "Sturdy", "board", 1, "left"), put(game, "Plain", "board", 1, "left")
    put(game, "Damper", "board", 2, "right")  # entered last: its replacement comes after Sturdy's
    game.perform("poke", card=plain, amount=9)  # the damper replaces it with nothing
    game.perform("poke", card=plain, amount=2)
    game.perform("poke", card=sturdy, amount=9)  # sturdy first (9 -> 8), then the damper stops that
    game.perform("poke", card=sturdy, amount=3)
    assert [game.read(c, "guard") for c in (plain, sturdy)] == [2, 2]


def test_a_replacement_anchored_to_what_its_card_is_attached_to(tmp_path):
    warded = _toy_with(tmp_path, code="\nprocedure nudge(card) {\n  card.guard += 100\n}\n",
                       cards='card "Ward" : unit {\n  instead of nudge if event.card == self.attached_to '
                             '{ self.guard += 1 }\n}\n')
    assert warded.replacement_anchors["nudge"] == ("card", "attached_to")
    game = empty(warded)
    plain, other = put(game, "Plain", "board", 1, "left"), put(game, "Plain", "board", 1, "right")
    late, sleeping = put(game, "Ward", "board", 2, "left"), put(game, "Ward", "hand", 2)
    early = put(game, "Ward", "board", 2, "right")
    game.state.move(late, ZoneKey("board", 2, "right"), None)  # (a move gives it the latest timestamp)
    for ward in (late, sleeping, early):
        game.state.attach(ward, plain)
    game.perform("nudge", card=plain)  # the earliest ward in play replaces it; the one in hand sleeps
    game.perform("nudge", card=other)  # nothing is attached to it
    assert [game.read(c, "guard") for c in (plain, other, early, late, sleeping)] == [0, 100, 1, 0, 0]
    free = put(game, "Ward", "board", 1, "left")
    game.perform("nudge", card=None)  # none: the ward attached to nothing replaces it
    assert [game.read(c, "guard") for c in (early, late, sleeping, free)] == [1, 0, 0, 1]


_SHOVE = """
procedure shove(who, amount) {
  who.guard += amount
}
procedure shove_then_mark(who) {
  shove(who, 60)
  who.flag = true
}
"""


@pytest.mark.parametrize("asks", [False, True])
def test_a_replaced_procedure_runs_natively_when_its_replacements_can(tmp_path, asks):
    # "Doubler" doubles a shove of itself (calling shove again: once per chain); "Brink" ends the
    # game on a big shove. With `asks`, Doubler's replacement takes a decision first: then shove,
    # and what calls it, must be able to stop, and run as resumable code.
    ask = 'let n = choose "how hard" from [2, 2] by self.owner\n    ' if asks else "let n = 2\n    "
    rules = _toy_with(tmp_path, _SHOVE, (
        'card "Doubler" : unit {\n  instead of shove if event.who == self {\n    '
        + ask + 'shove(event.who, event.amount * n)\n  }\n}\n'
        'card "Brink" : unit {\n  instead of shove if event.who == self and event.amount > 50 {\n'
        '    lose self.owner "pushed over"\n  }\n}\n'))
    compiler = rules.compiler
    assert ("shove" in compiler.native_procedures) is not asks
    assert ("shove_then_mark" in compiler.native_procedures) is not asks
    assert "shove" in compiler.ending_procedures and "shove_then_mark" in compiler.ending_procedures
    game = empty(rules)
    game.state.frames.append(Frame(rules.main, {}))  # (a game under way: performing leaves it running)
    doubler, plain = put(game, "Doubler", "board", 1, "left"), put(game, "Plain", "board", 1, "left")
    game.perform("shove", who=doubler, amount=3)
    game.perform("shove", who=plain, amount=3)
    assert [game.read(c, "guard") for c in (doubler, plain)] == [6, 3]
    brink = put(game, "Brink", "board", 2, "left")
    game.perform("shove_then_mark", who=brink)
    assert game.result.winner == 1 and game.result.reason == "pushed over"
    assert game.read(brink, "guard") == 0 and game.read(brink, "flag") is False  # nothing ran after


def test_the_index_of_static_effects_is_rebuilt_only_when_a_card_with_one_moves(rules):
    game = empty(rules)
    big = put(game, "Big", "board", 1, "left")
    assert game.read(big, "power") == 5  # boost(2): the index holds Big's static effect
    index, layout = game.state._statics(), game.state.static_layout
    plain = put(game, "Plain", "board", 1, "left")  # no static ability: the index stays
    game.state.move(plain, ZoneKey("board", 1, "right"), None)
    game.state.delete(plain)
    assert game.state.static_layout == layout and game.state._statics() is index and game.read(big, "power") == 5
    other = put(game, "Big", "board", 2, "right")  # a static ability comes into play
    assert game.state.static_layout == layout + 1 and game.read(other, "power") == 5
    game.state.move(big, ZoneKey("hand", 1, ""), None)  # and one leaves it
    assert game.read(big, "power") == 3 and game.read(other, "power") == 5
    game.state.delete(other)
    assert game.state._statics() == {}
    restored = load_game_json(game.to_json(), rules)
    assert restored.read(restored.state.cards[big.id], "power") == 3


def test_an_option_of_an_earlier_decision_is_refused_even_with_the_same_id():
    """An Option remembers its decision: one kept from an earlier decision whose id equals a
    current option's id ('pass', say) is refused, and the state is unchanged."""
    import random

    from interpreter import IllegalDecisionError, load

    rules = load("bases")
    game = rules.new_game(seed=1)
    rng = random.Random(1)
    stale = None
    while stale is None and not game.is_over:
        kept = list(game.decision()[1])
        game.apply(kept[rng.randrange(len(kept))])
        if game.is_over:
            break
        current = {o.id for o in game.decision()[1]}
        stale = next((o for o in kept if o.id in current), None)
    assert stale is not None
    before = game.to_json()
    with pytest.raises(IllegalDecisionError, match="an option of an earlier decision"):
        game.apply(stale)
    assert game.to_json() == before
    # an option of this decision is taken, in the game or in a copy that waits on it too
    twin = game.clone()
    option = next(o for o in game.decision()[1] if o.id == stale.id)
    twin.apply(option)
    game.apply(option)
    assert twin.to_json()["log"] == game.to_json()["log"]
