"""The hand-written Harvest (benchmarks/handwritten_harvest.py), the interpreter's speed baseline.

It must end every game, never lose or make a card (supply + every player's deck, hand, play and
discard + trash is the number the game started with), offer exactly the decisions of
docs/games/harvest.md ("Decisions"), give each card its effect (D-5), and give the game to the
player with the most victory points (D-3.2).

Decisions per game: a turn asks one buy decision at least while Copper (cost 0) is left, one per
card bought, one per action card played and one more to stop each phase that is not ended by
running out of actions or buys; so a random turn asks some 2 decisions (1 buy, or 2 with a stop
or a +buy; an action decision in about half the turns once action cards are bought). Random 2-player
games end when three piles run out (the Curses, which Hex also hands out, the 8 Estates, a kingdom
pile), in some 60 to 110 turns: about 100 to 250 decisions a game on average (measured: 164
decisions, 84 turns), never fewer than its turns while Copper is left, and at most the turn limit's
200 turns.
"""

from __future__ import annotations

import random

from baselines import load_baseline, play_checked

baseline = load_baseline("harvest")
NAMES = baseline.NAMES
ACTIONS = [k for k, t in enumerate(baseline.TYPES) if t == baseline.ACTION]
REASONS = {"the Province pile is empty", "three supply piles are empty"}
# what playing each action card gives: cards, actions, buys, coins
PLUS = {
    baseline.HAMLET: (1, 2, 0, 0), baseline.FORGE: (3, 0, 0, 0), baseline.BAZAAR: (1, 1, 1, 1),
    baseline.FAIR: (0, 2, 1, 2), baseline.STUDY: (2, 1, 0, 0), baseline.WORKSHOP: (0, 0, 0, 0),
    baseline.LENDER: (0, 0, 0, 0), baseline.HEX: (2, 0, 0, 0),
}


def points(p) -> int:
    values = {"Estate": 1, "Duchy": 3, "Province": 6, "Curse": -1}
    return sum(values.get(NAMES[k], 0) for k in p.deck + p.hand + p.play + p.discard)


def expected_winner(game):
    """D-3.2 worked out from the players' cards: the most points, then the fewer turns."""
    best = max(points(p) for p in game.players)
    tied = [p for p in game.players if points(p) == best]
    fewest = min(p.turns for p in tied)
    tied = [p for p in tied if p.turns == fewest]
    return tied[0].seat if len(tied) == 1 else None


def test_piles_follow_the_player_count():
    by_name = {n: dict(zip(NAMES, baseline.pile_sizes(n))) for n in (2, 3, 4)}
    assert [by_name[n]["Copper"] for n in (2, 3, 4)] == [46, 39, 32]
    assert [by_name[n]["Curse"] for n in (2, 3, 4)] == [10, 20, 30]
    assert [by_name[n]["Province"] for n in (2, 3, 4)] == [8, 12, 12]
    assert by_name[2]["Estate"] == by_name[2]["Duchy"] == 8 and by_name[3]["Duchy"] == 12
    assert all(by_name[2][NAMES[k]] == 10 for k in ACTIONS) and len(ACTIONS) == 8


def test_every_game_ends_keeps_the_cards_and_the_most_points_win():
    rng = random.Random(11)
    winners = set()
    tie_breaks = 0
    lengths = {}
    for players, seeds in ((2, range(250)), (3, range(40)), (4, range(40))):
        decisions_total = turns_total = 0
        for seed in seeds:
            game = baseline.Game(seed, players=players)
            total = sum(baseline.pile_sizes(players)) + 10 * players

            turns_seen = [0]

            def check(game, seed=seed, total=total, turns_seen=turns_seen):
                assert game.card_count() == total, f"seed {seed}: {game.card_count()} cards, not {total}"
                assert min(game.supply) >= 0
                assert game.decision()[0] == (game.turn - 1) % len(game.players) + 1
                if game.turn != turns_seen[0]:   # the turn's first decision: the supply as the last
                    turns_seen[0] = game.turn    # turn left it, which must not have ended the game
                    assert game.supply[baseline.PROVINCE] and game.supply.count(0) < 3, f"seed {seed}"

            decisions = play_checked(game, rng, check, f"seed {seed}", seats=range(1, players + 1),
                                     min_options=1)
            assert game.card_count() == total
            assert game.reason in REASONS, f"seed {seed}: {game.reason}"
            assert game.supply[baseline.PROVINCE] == 0 or game.supply.count(0) >= 3
            assert game.winner == expected_winner(game), f"seed {seed}"
            scores = [points(p) for p in game.players]
            if game.winner is not None:
                assert scores[game.winner - 1] == max(scores)
                tie_breaks += scores.count(max(scores)) > 1
            else:
                assert scores.count(max(scores)) > 1
            winners.add(game.winner)
            assert game.turn <= 100 * players and game.round == -(-game.turn // players)
            if game.supply[baseline.COPPER]:
                assert decisions >= game.turn, f"seed {seed}: a turn without a buy decision"
            decisions_total += decisions
            turns_total += game.turn
        lengths[players] = (decisions_total / len(seeds), turns_total / len(seeds))
    assert winners >= {1, 2, 3, 4, None}
    assert tie_breaks > 0                      # some tie went to the player with fewer turns
    decisions, turns = lengths[2]
    assert 100 <= decisions <= 250 and 60 <= turns <= 110, lengths   # (see the docstring)


def _expected_options(game, p) -> list:
    supply = game.supply
    if game.step == "action":
        kinds = []
        for k in p.hand:
            if k in ACTIONS and k not in kinds:
                kinds.append(k)
        return [NAMES[k] for k in kinds] + ["stop"]
    if game.step == "buy":
        return [NAMES[k] for k, n in enumerate(supply) if n and baseline.COSTS[k] <= game.coins] + ["stop"]
    if game.step == "gain":
        return [NAMES[k] for k, n in enumerate(supply) if n and baseline.COSTS[k] <= 4]
    assert game.step == "trash"
    return ["yes", "no"]


def _snapshot(game, p) -> dict:
    return {"hand+play": len(p.hand) + len(p.play), "drawable": len(p.deck) + len(p.discard),
            "actions": game.actions, "buys": game.buys, "coins": game.coins, "supply": list(game.supply),
            "curses": [q.discard.count(baseline.CURSE) for q in game.players], "trash": len(game.trash),
            "discard": list(p.discard), "turn": game.turn}


def test_decisions_and_effects_follow_the_rules():
    rng = random.Random(3)
    seen = set()
    for seed in range(60):
        game = baseline.Game(seed, players=2 + seed % 3)
        while not game.over:
            seat, options = game.decision()
            p = game.players[seat - 1]
            step = game.step
            assert options == _expected_options(game, p), f"seed {seed}: {step}"
            assert game.actions >= 1 if step == "action" else game.buys >= 1 if step == "buy" else True
            for q in game.players:                           # D-2.3: the others cleaned up
                if q is not p:
                    assert not q.play and (len(q.hand) == 5 or not q.deck)
            i = rng.randrange(len(options))
            before = _snapshot(game, p)
            game.apply(i)
            if game.over or game.turn != before["turn"]:
                continue
            after = _snapshot(game, p)
            treasure = sum(baseline.WORTH[k] for k in p.play) if game.step == "buy" and step != "buy" else 0
            if step == "action" and options[i] != "stop":
                kind = NAMES.index(options[i])
                seen.add(options[i])
                cards, actions, buys, coins = PLUS[kind]
                assert kind in p.play
                assert after["hand+play"] == before["hand+play"] + min(cards, before["drawable"]), options[i]
                assert after["actions"] == before["actions"] - 1 + actions, options[i]
                assert after["buys"] == before["buys"] + buys, options[i]
                assert after["coins"] == before["coins"] + coins + treasure, options[i]
                if kind == baseline.HEX:                     # D-5.8: the others, from the next seat
                    left = before["supply"][baseline.CURSE]
                    order = [game.players[(seat - 1 + j) % len(game.players)] for j in range(1, len(game.players))]
                    for j, q in enumerate(order):
                        assert after["curses"][q.seat - 1] == before["curses"][q.seat - 1] + (j < left)
                if kind not in (baseline.WORKSHOP, baseline.HEX):
                    assert after["supply"] == before["supply"]
            elif step == "trash":                            # D-5.7
                yes = options[i] == "yes"
                seen.add("trash " + options[i])
                assert after["trash"] == before["trash"] + yes
                assert after["coins"] == before["coins"] + 3 * yes + treasure
            elif step in ("gain", "buy") and options[i] != "stop":   # D-2.2, D-2.5, D-5.6
                kind = NAMES.index(options[i])
                seen.add(step)
                assert after["supply"][kind] == before["supply"][kind] - 1
                assert p.discard == before["discard"] + [kind]
                if step == "buy":
                    assert after["coins"] == before["coins"] - baseline.COSTS[kind]
                    assert after["buys"] == before["buys"] - 1
    assert seen >= {NAMES[k] for k in ACTIONS} | {"trash yes", "trash no", "gain", "buy"}, seen


def test_turn_limit_ends_the_game_after_that_many_rounds():
    rng = random.Random(4)
    for players in (2, 3):
        game = baseline.Game(7, players=players, turn_limit=3)
        play_checked(game, rng, lambda g: None, "turn limit", seats=range(1, players + 1), min_options=1)
        assert game.reason == "turn limit reached"
        assert game.round == 3 and game.turn == 3 * players
        assert [p.turns for p in game.players] == [3] * players
        assert game.winner == expected_winner(game)


def test_the_game_ends_at_the_end_of_the_turn_that_empties_the_provinces_or_three_piles():
    rng = random.Random(2)
    for emptied, reason in (([baseline.PROVINCE], "the Province pile is empty"),
                            ([baseline.GOLD, baseline.DUCHY], None),
                            ([baseline.GOLD, baseline.DUCHY, baseline.FORGE], "three supply piles are empty")):
        game = baseline.Game(5)
        for kind in emptied:            # (taken out of the game, as if gained by no one)
            game.supply[kind] = 0
        while not game.over and game.turn == 1:
            game.apply(rng.randrange(len(game.decision()[1])))
        if reason is None:              # two piles: the game goes on
            assert not game.over and game.turn == 2
        else:
            assert game.over and game.turn == 1 and game.reason == reason
            assert game.winner == expected_winner(game)


def test_bad_player_count_is_refused():
    try:
        baseline.Game(1, players=5)
    except ValueError as e:
        assert "2 to 4 players" in str(e)
    else:
        raise AssertionError("5 players accepted")


def test_games_per_second_is_positive():
    assert baseline.games_per_second(0.05) > 0
