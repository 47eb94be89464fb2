"""The hand-written Hearts (benchmarks/handwritten_hearts.py), the interpreter's speed baseline.

It must end every game, keep the 52 cards (each once), offer exactly the decisions of
docs/games/hearts.md ("Decisions": a pass is every card of the hand, three per player in seat
order; a play is every legal card, in hand order), give each trick to the highest card
of the suit led, add 26 points per deal (78 when the moon is shot) and stop at the target.

Decisions per game: a deal plays exactly 52 cards (4 players x 13 tricks; a card that is the only
legal one is played unasked, counted in `forced`) and asks 12 passes (4 players x 3 cards) on the
3 deals in 4 that pass, so a game of D deals asks 52 D + 12 x (its passing deals) less its forced
plays. D is at least 4 (a deal gives at most 26 to a player) and at most 16 (each deal adds 26 or
more in all: 16 deals add 416 or more, more than four scores below 100 can hold). Random games
take some 11.5 deals (the 26 points spread over 4 players: the highest score gains some 9 to 10
points a deal), so about 700 cards and passes, some 520 of them asked.
"""

from __future__ import annotations

import random

from baselines import load_baseline, play_checked

baseline = load_baseline("hearts")
ALL_CARDS = list(range(52))
HEARTS = set(range(baseline.FIRST_HEART, 52))
QS = baseline.QUEEN_OF_SPADES


def passing_deals(deals: int) -> int:
    """The deals among the first `deals` on which cards are passed (H-2.1: not every 4th)."""
    return deals - deals // 4


def test_card_names_and_constants():
    assert [baseline.card_name(c) for c in (0, 12, 13, 36, 39, 51)] == ["2C", "AC", "2D", "QS", "2H", "AH"]
    assert baseline.TWO_OF_CLUBS == 0


def test_every_game_ends_keeps_the_cards_and_scores_26_a_deal():
    rng = random.Random(11)
    winners = set()
    deals = []
    for seed in range(250):
        game = baseline.Game(seed)
        history = [(1, [0, 0, 0, 0])]          # (deal, scores when it started)

        def check(game, seed=seed, history=history):
            assert sorted(game.cards()) == ALL_CARDS, f"seed {seed}: cards lost or doubled"
            if game.deal != history[-1][0]:
                assert game.deal == history[-1][0] + 1
                history.append((game.deal, [p.score for p in game.players]))

        decisions = play_checked(game, rng, check, f"seed {seed}", seats=(1, 2, 3, 4), min_options=2)
        assert sorted(game.cards()) == ALL_CARDS
        history.append((None, [p.score for p in game.players]))
        for (_, before), (_, after) in zip(history, history[1:]):
            gained = [a - b for a, b in zip(after, before)]
            if sorted(gained) != [0, 26, 26, 26]:                  # (H-4.2: the moon shot)
                assert sum(gained) == 26 and all(0 <= g <= 26 for g in gained), f"seed {seed}: {gained}"
        # H-4.3: the game ends at the first deal that takes someone to the target
        assert max(history[-2][1]) < 100 <= max(history[-1][1]), f"seed {seed}"
        assert 4 <= game.deal <= 16 and game.deal == len(history) - 1
        assert decisions + game.forced == 52 * game.deal + 12 * passing_deals(game.deal), f"seed {seed}"
        assert game.deal <= game.forced  # (at least the 2 of clubs of each deal is played unasked)
        scores = [p.score for p in game.players]
        low = [p.seat for p in game.players if p.score == min(scores)]
        assert game.winner == (low[0] if len(low) == 1 else None), f"seed {seed}: {scores}"
        winners.add(game.winner)
        deals.append(game.deal)
    assert winners >= {1, 2, 3, 4}
    assert 9 <= sum(deals) / len(deals) <= 14   # random games: about 11.5 deals (see above)


def _expected_options(game, seat: int) -> list:
    """The options H-2.2 and H-3 allow the seat now, worked out from the visible state alone."""
    p = game.players[seat - 1]
    hand = p.hand
    if game.step == "pass":
        return list(hand)
    taken = [c for q in game.players for c in q.taken]
    first = not taken
    if not game.trick:                                       # a lead
        if first:
            return [baseline.TWO_OF_CLUBS]
        if HEARTS & set(taken) or all(c in HEARTS for c in hand):
            return list(hand)
        return [c for c in hand if c not in HEARTS]
    led = game.trick[0] // 13
    follow = [c for c in hand if c // 13 == led]
    if follow:
        return follow
    if first:
        return [c for c in hand if c not in HEARTS and c != QS] or list(hand)
    return list(hand)


def test_decisions_follow_the_rules_and_the_highest_card_of_the_suit_led_wins():
    rng = random.Random(5)
    checked = {"pass": 0, "lead": 0, "follow": 0, "hearts led": 0, "discard on trick 1": 0}
    for seed in range(40):
        game = baseline.Game(seed)
        passers = []
        while not game.over:
            seat, options = game.decision()
            assert options == _expected_options(game, seat), f"seed {seed}: P{seat} {game.step}"
            p = game.players[seat - 1]
            if game.step == "pass":
                checked["pass"] += 1
                passers.append(seat)
                assert len(p.hand) == 13 - len(p.passing)
            else:
                if passers:    # H-2.2: in seat order, three each; the cards passed on as H-2.1 says
                    assert passers == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
                    passers = []
                kind = "follow" if game.trick else "lead"
                checked[kind] += 1
                if kind == "lead" and any(c in HEARTS for c in options):
                    checked["hearts led"] += 1
                if kind == "follow" and not any(c // 13 == game.trick[0] // 13 for c in p.hand) \
                        and not any(q.taken for q in game.players):
                    checked["discard on trick 1"] += 1
            taken = [len(q.taken) for q in game.players]
            deal, tricks = game.deal, game.tricks
            game.apply(rng.randrange(len(options)))
            if game.tricks != tricks + 1:
                previous = None  # (none or several tricks ended: start the chain again)
            elif game.deal == deal and not game.over:
                # (a trick ended, maybe after plays made unasked; the deal's last is gathered at once)
                grown = [q for q in game.players if len(q.taken) > taken[q.seat - 1]]
                assert len(grown) == 1, f"seed {seed}: one player takes the trick"
                trick = grown[0].taken[-4:]
                led = trick[0] // 13
                best = trick.index(max(c for c in trick if c // 13 == led))
                leader = (grown[0].seat - 1 - best) % 4 + 1  # (H-3.6: the highest of the suit led wins)
                if game.tricks - 1 == (deal - 1) * 13:
                    assert trick[0] == 0, f"seed {seed}: the 2 of clubs leads the deal"
                elif previous is not None:
                    assert leader == previous, f"seed {seed}: the trick's winner leads the next"
                previous = grown[0].seat
    assert all(n > 0 for n in checked.values()), checked


def test_passes_go_left_right_across_then_none():
    game = baseline.Game(3, ask_always=True)
    rng = random.Random(3)
    for deal, shift in zip(range(1, 6), (1, 3, 2, 0, 1)):
        assert game.deal == deal
        if shift:
            chosen = {}
            for _ in range(12):
                seat, options = game.decision()
                i = rng.randrange(len(options))
                chosen.setdefault(seat, []).append(options[i])
                game.apply(i)
            assert game.step == "play"
            for seat, cards in chosen.items():
                receiver = game.players[(seat - 1 + shift) % 4]
                assert receiver.hand[-3:] == [c for c in cards], f"deal {deal}"
        else:
            assert game.step == "play" and all(len(p.hand) == 13 for p in game.players)
        while game.deal == deal:
            game.apply(rng.randrange(len(game.decision()[1])))


def test_options_passing_none_and_target():
    rng = random.Random(2)
    game = baseline.Game(8, passing="none", target=30)
    decisions = play_checked(game, rng, lambda g: None, "no passing", seats=(1, 2, 3, 4), min_options=2)
    assert decisions + game.forced == 52 * game.deal
    assert max(p.score for p in game.players) >= 30 and game.deal <= 5


def _play_to_last_card(game, rng) -> tuple[int, list]:
    """Random decisions up to the last card of the deal; that decision's (seat, options)."""
    while True:
        seat, options = game.decision()
        if game.step == "play" and len(game.trick) == 3 and len(game.players[seat - 1].hand) == 1:
            return seat, options
        game.apply(rng.randrange(len(options)))


def test_moon_shot_scores_others_or_off():
    # Before the last card of deal 1, the point cards taken so far are moved to the player who
    # will win the last trick (H-4.2 then applies whatever the last trick holds); cards conserved.
    for moon, shooter_gets, others_get in (("others", 0, 26), ("off", 26, 0)):
        game = baseline.Game(21, moon=moon, ask_always=True)
        seat, options = _play_to_last_card(game, random.Random(6))
        trick = game.trick + options
        order = [(seat + i - 4) % 4 + 1 for i in range(4)]
        led = trick[0] // 13
        shooter = game.players[order[trick.index(max(c for c in trick if c // 13 == led))] - 1]
        for q in game.players:
            if q is not shooter:
                points = [c for c in q.taken if c in HEARTS or c == QS]
                q.taken[:] = [c for c in q.taken if c not in points]
                shooter.taken += points
        assert sorted(game.cards()) == ALL_CARDS
        game.apply(0)
        assert game.deal == 2
        assert [p.score for p in game.players] == [
            shooter_gets if p is shooter else others_get for p in game.players], moon


def test_a_deal_without_a_moon_scores_hearts_and_the_queen():
    game = baseline.Game(4, ask_always=True)
    _play_to_last_card(game, random.Random(9))
    points = [sum(c in HEARTS for c in p.taken) + 13 * (QS in p.taken) for p in game.players]
    game.apply(0)               # the last card: its trick's 0 to 4 hearts and the queen go on top
    scores = [p.score for p in game.players]
    assert game.deal == 2 and sum(scores) == 26 and 26 not in scores
    assert all(score >= n for score, n in zip(scores, points))


def test_games_per_second_is_positive():
    assert baseline.games_per_second(0.05) > 0
