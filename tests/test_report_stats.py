"""The balance report's statistics: intervals against their closed formulas and a textbook
example, paired differences, and card and game metrics counted by hand on a few records."""

from __future__ import annotations

import math

import pytest

from interpreter.report import ReportError, card_stats, compare_stats, game_stats, paired_difference, wilson
from interpreter.report.stats import difference, pairings, z_for


def player(seat, won, deck, opening=None, drawn=None, played=None, picked=None, counters=None):
    return {"seat": seat, "agent": "random", "won": won, "deck": deck, "opening": opening or {},
            "drawn": drawn or {}, "played": played or {}, "picked": picked or {}, "counters": counters or {}}


def record(seed, winner, players, *, draw=False, aborted=False, reason="Target reached", rule=None,
           timeout=False, first_player=1, turns=10, lead_changes=None, offers=None, agents=("random", "random")):
    return {"seed": seed, "ruleset": "toy", "title": "Toy", "options": {}, "agents": list(agents),
            "winner": winner, "draw": draw, "aborted": aborted, "reason": reason, "rule": rule, "timeout": timeout,
            "first_player": first_player, "turns": turns, "decisions": 5 * turns, "lead_changes": lead_changes,
            "players": players, "offers": offers or []}


# Six games, the sixth aborted. Cards A, B, C are played; D is only ever offered and picked.
RECORDS = [
    record(1, 1, [player(1, True, {"A": 2, "B": 1}, opening={"A": 1}, played={"A": 1}, picked={"D": 1, "B": 1},
                         counters={"health": 5}),
                  player(2, False, {"A": 1, "C": 2}, opening={"C": 1}, drawn={"A": 1}, played={"C": 2},
                         picked={"A": 1, "C": 1}, counters={"health": 0})],
           first_player=1, turns=10, lead_changes=2,
           offers=[{"cards": ["A", "B", "D"], "picks": ["D", "A", "B"]}, {"cards": ["B", "C"], "picks": ["B", "C"]}]),
    record(2, 2, [player(1, False, {"A": 1, "B": 1}, opening={"B": 1}, drawn={"A": 1}, played={"B": 1, "A": 1},
                         picked={"A": 1}, counters={"health": 0}),
                  player(2, True, {"C": 2}, drawn={"C": 1}, picked={"D": 1}, counters={"health": 3})],
           reason="Out of cards", first_player=2, turns=12, lead_changes=0,
           offers=[{"cards": ["A", "D"], "picks": ["A", "D"]}]),
    record(3, 1, [player(1, True, {"B": 2}, counters={"health": 7}),
                  player(2, False, {"A": 1, "C": 1}, opening={"A": 1, "C": 1}, played={"A": 1},
                         counters={"health": 0})],
           first_player=2, turns=8),
    record(4, None, [player(1, False, {"A": 1}, opening={"A": 1}, played={"A": 3}, counters={"health": 2}),
                     player(2, False, {"B": 1}, drawn={"B": 1}, counters={"health": 2})],
           draw=True, timeout=True, reason="Turn limit", first_player=1, turns=20, lead_changes=1),
    record(5, 2, [player(1, False, {"A": 1, "C": 1}, counters={"health": 0}),
                  player(2, True, {"B": 1}, opening={"B": 1}, played={"B": 1}, counters={"health": 4})],
           reason="Out of cards", first_player=None, turns=10, lead_changes=0),
    record(6, None, [player(1, False, {"A": 5, "B": 9}, opening={"A": 1, "B": 1}, played={"A": 1}),
                     player(2, False, {"B": 1, "D": 1}, opening={"D": 1})],
           aborted=True, reason="rule loop ran away", rule="toy.rules:4:2", turns=3,
           offers=[{"cards": ["D", "A"], "picks": ["D", "A"]}]),
]


def by_name(cards):
    return {card.name: card for card in cards}


def test_wilson_matches_the_closed_formula():
    z = 1.959963984540054
    for successes, n in [(8, 10), (0, 7), (7, 7), (54, 100)]:
        p = successes / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        interval = wilson(successes, n, z=z)
        assert interval.rate == pytest.approx(p)
        assert interval.low == pytest.approx(max(0.0, centre - half))
        assert interval.high == pytest.approx(min(1.0, centre + half))
    eight_of_ten = wilson(8, 10)
    assert (eight_of_ten.low, eight_of_ten.high) == (pytest.approx(0.490, abs=5e-4), pytest.approx(0.943, abs=5e-4))


def test_wilson_of_no_games_has_no_rate():
    empty = wilson(0, 0)
    assert (empty.rate, empty.low, empty.high) == (None, None, None)


def test_newcombe_hybrid_score_interval_matches_the_textbook_example():
    # Newcombe (1998), example (a): 56/70 against 48/80
    d = difference(wilson(56, 70), wilson(48, 80))
    assert d.estimate == pytest.approx(0.2)
    assert d.low == pytest.approx(0.0524, abs=5e-4)
    assert d.high == pytest.approx(0.3339, abs=5e-4)
    assert d.significant
    assert difference(wilson(0, 0), wilson(1, 2)).estimate is None


def test_paired_difference_by_hand():
    # differences y - x: 1, 1, 0, 0, 1 -> mean 0.6, sample variance (3 * 0.16 + 2 * 0.36) / 4 = 0.3,
    # se sqrt(0.3 / 5) = 0.244949; interval 0.6 -+ 1.96 * 0.244949 = [0.119900, 1.080100]
    d = paired_difference([0, 0, 0, 1, 0], [1, 1, 0, 1, 1])
    assert d.n == 5
    assert d.mean == pytest.approx(0.6)
    assert d.variance == pytest.approx(0.3)
    assert d.se == pytest.approx(0.244949, abs=1e-6)
    assert (d.low, d.high) == (pytest.approx(0.119900, abs=1e-6), pytest.approx(1.080100, abs=1e-6))
    assert d.significant
    # (1.959964 + 0.841621)^2 * 0.3 / 0.02^2 = 5886.66 -> 5887
    assert d.games_needed(0.02) == 5887
    # differences 0, 1, 0, -1: mean 0, not significant
    assert not paired_difference([1, 0, 1, 1], [1, 1, 1, 0]).significant


def test_paired_difference_edge_cases():
    assert paired_difference([], []).mean is None
    one = paired_difference([0], [1])
    assert one.mean == 1 and one.low is None and one.games_needed() is None
    same = paired_difference([1, 0, 1], [1, 0, 1])
    assert same.variance == 0 and not same.significant
    assert same.games_needed() == 2  # no variance: the fewest pairs a variance needs
    with pytest.raises(ValueError):
        paired_difference([1], [1, 0])


def test_z_for_gives_two_sided_normal_quantiles():
    assert z_for(0.05) == pytest.approx(1.959964, abs=1e-6)
    assert z_for(0.05 / 4) == pytest.approx(2.497705, abs=1e-6)  # Bonferroni over four looks
    wide = paired_difference([0, 0, 0, 1, 0], [1, 1, 0, 1, 1], z=z_for(0.05 / 4))
    assert wide.low == pytest.approx(0.6 - 2.497705 * 0.244949, abs=1e-5)


def test_card_metrics_counted_by_hand():
    cards = by_name(card_stats(RECORDS, min_sample=1))
    # A in deck: g1p1 won, g1p2, g2p1, g3p2 lost, g4p1 draw (not a win), g5p1 lost -> 1/6 (g6 aborted: out)
    # opening: g1p1 won, g3p2, g4p1 -> 1/3; opening or drawn: g1p1, g1p2, g2p1, g3p2, g4p1 -> 1/5
    # never seen: g5p1 lost -> 0/1; played 1 + 1 + 1 + 3 = 6 times, by g1p1 won, g2p1, g3p2, g4p1 -> 1/4
    a = cards["A"]
    assert (a.gd.successes, a.gd.n) == (1, 6)
    assert (a.oh.successes, a.oh.n) == (1, 3)
    assert (a.gih.successes, a.gih.n) == (1, 5)
    assert (a.gns.successes, a.gns.n) == (0, 1)
    assert a.iwd.estimate == pytest.approx(0.2)
    assert a.played == 6
    assert (a.wr_played.successes, a.wr_played.n) == (1, 4)
    # B in deck: g1p1 won, g2p1 lost, g3p1 won, g4p2 draw, g5p2 won -> 3/5; opening: g2p1, g5p2 -> 1/2
    # opening or drawn: g2p1, g4p2, g5p2 -> 1/3; never seen: g1p1, g3p1 -> 2/2; IWD 1/3 - 1 = -2/3
    b = cards["B"]
    assert [(p.successes, p.n) for p in (b.gd, b.oh, b.gih, b.gns)] == [(3, 5), (1, 2), (1, 3), (2, 2)]
    assert b.iwd.estimate == pytest.approx(-2 / 3)
    assert b.played == 2
    # C in deck: g1p2 lost, g2p2 won, g3p2 lost, g5p1 lost -> 1/4; opening 0/2; seen 1/3; never 0/1
    c = cards["C"]
    assert [(p.successes, p.n) for p in (c.gd, c.oh, c.gih, c.gns)] == [(1, 4), (0, 2), (1, 3), (0, 1)]
    assert c.iwd.estimate == pytest.approx(1 / 3)
    # IWD: C 0.33 > A 0.2 > B -0.67; D (never in a finished game's deck) has none and comes last
    assert [card.name for card in card_stats(RECORDS, min_sample=1)] == ["C", "A", "B", "D"]


def test_cards_below_the_minimum_sample_come_after_the_ranked():
    cards = card_stats(RECORDS, min_sample=5)  # A: 6 games in deck, B: 5, C: 4, D: 0
    assert [(card.name, card.ranked) for card in cards] == [("A", True), ("B", True), ("C", False), ("D", False)]
    assert not any(card.ranked for card in card_stats(RECORDS))  # default minimum 30


def test_pick_metrics_counted_by_hand():
    cards = by_name(card_stats(RECORDS, min_sample=1))
    # finished games' offers: g1 [A B D] picks D A B, g1 [B C] picks B C, g2 [A D] picks A D (g6 aborted: out)
    d = cards["D"]
    assert d.offers == 2
    assert (d.taken_first.successes, d.taken_first.n) == (1, 2)
    assert d.mean_pick_position == pytest.approx(1.5)  # positions 1, 2
    assert (d.wr_picked.successes, d.wr_picked.n) == (2, 2)  # g1p1 won, g2p2 won
    a = cards["A"]
    assert (a.offers, a.taken_first.successes, a.mean_pick_position) == (2, 1, pytest.approx(1.5))
    assert (a.wr_picked.successes, a.wr_picked.n) == (0, 2)  # g1p2, g2p1 lost
    b = cards["B"]
    assert (b.offers, b.taken_first.successes, b.mean_pick_position) == (2, 1, pytest.approx(2.0))  # 3, 1
    assert (cards["C"].offers, cards["C"].taken_first.successes) == (1, 0)


def test_game_metrics_counted_by_hand():
    stats = game_stats(RECORDS)
    assert (stats.games, stats.finished, stats.aborted) == (6, 5, 1)
    assert [(a.seed, a.reason, a.rule) for a in stats.aborted_games] == [(6, "rule loop ran away", "toy.rules:4:2")]
    # seat 1 won g1, g3; seat 2 won g2, g5; g4 drawn; g6 aborted is no game of the rates
    assert {seat: (p.successes, p.n) for seat, p in stats.seat_wins.items()} == {1: (2, 5), 2: (2, 5)}
    assert (stats.draws.successes, stats.draws.n) == (1, 5)
    assert (stats.timeouts.successes, stats.timeouts.n) == (1, 5)
    assert stats.balance is not None and stats.balance.gap == 0
    # first player named in g1 (won), g2 (won), g3 (lost), g4 (draw) -> 2/4; even share 1/2
    assert (stats.first_player.successes, stats.first_player.n) == (2, 4)
    assert stats.first_player_advantage.estimate == pytest.approx(0.0)
    # reasons over all six games: Out of cards 2, Target reached 2, then the aborted game and Turn limit
    assert [(r.reason, r.count, r.share.n) for r in stats.reasons] == [
        ("Out of cards", 2, 6), ("Target reached", 2, 6), ("(aborted)", 1, 6), ("Turn limit", 1, 6)]
    # turns of finished games 10, 12, 8, 20, 10: mean 12, deviations -2 0 -4 8 -2 -> variance 88 / 4
    assert stats.turns.mean == pytest.approx(12)
    assert stats.turns.sd == pytest.approx(math.sqrt(22))
    assert (stats.turns.minimum, stats.turns.median, stats.turns.maximum) == (8, 10, 20)
    assert stats.turn_counts == (8, 10, 10, 12, 20)
    # lead changes known in g1 2, g2 0, g4 1, g5 0 -> mean 0.75, at least one in 2 of 4
    assert stats.lead_changes_mean == pytest.approx(0.75)
    assert stats.lead_change_share is not None
    assert (stats.lead_change_share.successes, stats.lead_change_share.n) == (2, 4)
    # health at the end: seat 1 5 0 7 2 0 -> 2.8, seat 2 0 3 0 2 4 -> 1.8
    assert stats.counters == {"health": {1: pytest.approx(2.8), 2: pytest.approx(1.8)}}


def test_balance_names_the_seats_furthest_apart():
    games = [record(s, 1 if s <= 3 else 2, [player(1, s <= 3, {"A": 1}), player(2, s > 3, {"A": 1})])
             for s in range(1, 5)]  # seat 1 wins 3 of 4
    balance = game_stats(games).balance
    assert balance is not None
    assert (balance.best_seat, balance.worst_seat, balance.gap) == (1, 2, pytest.approx(0.5))
    assert balance.difference.mean == pytest.approx(0.5)


def test_no_lead_changes_counted_gives_none():
    plain = [record(1, 1, [player(1, True, {"A": 1}), player(2, False, {"A": 1})])]
    assert game_stats(plain).lead_changes_mean is None and game_stats(plain).lead_change_share is None


def test_pairings_when_agents_differ_between_seats():
    assert pairings(RECORDS) == []
    games = [record(1, 1, [player(1, True, {}), player(2, False, {})], agents=("greedy", "random")),
             record(2, 2, [player(1, False, {}), player(2, True, {})], agents=("greedy", "random")),
             record(3, 1, [player(1, True, {}), player(2, False, {})], agents=("random", "greedy")),
             record(4, None, [player(1, False, {}), player(2, False, {})], agents=("random", "greedy"), aborted=True)]
    lines = pairings(games)
    assert [line.agents for line in lines] == [("greedy", "random"), ("random", "greedy")]
    assert [(line.games, line.finished) for line in lines] == [(2, 2), (2, 1)]
    assert (lines[0].wins[1].successes, lines[0].wins[1].n) == (1, 2)
    assert (lines[1].wins[1].successes, lines[1].wins[1].n) == (1, 1)


def test_comparison_pairs_by_seed_counted_by_hand():
    def game(seed, seat1_wins, seat1_deck, seat2_deck, aborted=False):
        winner = None if aborted else (1 if seat1_wins else 2)
        return record(seed, winner, [player(1, winner == 1, seat1_deck), player(2, winner == 2, seat2_deck)],
                      aborted=aborted)

    base = [game(1, True, {"X": 1}, {"Y": 1}), game(2, False, {"X": 1}, {"X": 1}),
            game(3, False, {"Y": 1}, {"X": 1}), game(4, True, {"X": 1}, {})]
    variant = [game(1, True, {"X": 1}, {"Y": 1}), game(2, True, {"X": 1}, {"Y": 1}),
               game(3, True, {"X": 1}, {}, aborted=True), game(5, True, {}, {})]
    comparison = compare_stats(base, variant)
    # seeds on both sides and finished on both: 1 and 2 (3 aborted on the variant side, 4 and 5 one-sided)
    assert comparison.seeds == (1, 2)
    seat1 = comparison.seats[0]
    # seat 1 wins: base 1, 0; variant 1, 1 -> differences 0, 1: mean 0.5, variance 0.5
    assert (seat1.base.successes, seat1.variant.successes) == (1, 2)
    assert seat1.difference.mean == pytest.approx(0.5)
    assert seat1.difference.variance == pytest.approx(0.5)
    cards = {c.name: c for c in comparison.cards}
    # X, seed 1: base holders p1 (won) -> 1, variant p1 (won) -> 1; seed 2: base p1 lost, p2 won -> 0.5,
    # variant p1 won -> 1. Differences 0, 0.5: mean 0.25
    assert cards["X"].difference.n == 2
    assert cards["X"].difference.mean == pytest.approx(0.25)
    assert (cards["X"].base.successes, cards["X"].base.n) == (2, 3)
    assert (cards["X"].variant.successes, cards["X"].variant.n) == (2, 2)
    # Y: only seed 1 has holders on both sides (p2 lost both times) -> one pair, difference 0
    assert (cards["Y"].difference.n, cards["Y"].difference.mean) == (1, 0)
    rows = comparison.rows()
    assert [(r["kind"], r["name"]) for r in rows] == [("seat", "seat 1"), ("seat", "seat 2"), ("card", "X"),
                                                       ("card", "Y")]
    assert rows[2]["games_needed"] == cards["X"].difference.games_needed(0.02)


def test_duplicate_seeds_cannot_be_paired():
    one = record(1, 1, [player(1, True, {}), player(2, False, {})])
    with pytest.raises(ReportError, match="seed 1 appears twice"):
        compare_stats([one, one], [one])


def test_a_record_without_a_needed_key_is_a_report_error():
    broken = dict(RECORDS[0])
    del broken["players"]
    with pytest.raises(ReportError, match="'players'"):
        game_stats([broken])


def test_short_records_without_players_still_give_seat_results():
    short = [dict(record(seed, winner, []), players=[]) for seed, winner in [(1, 1), (2, 1), (3, 2), (4, None)]]
    stats = game_stats(short)
    assert {seat: (p.successes, p.n) for seat, p in stats.seat_wins.items()} == {1: (2, 4), 2: (1, 4)}
    assert card_stats(short) == []


def test_an_interval_never_lies_past_its_rate():
    """At 0 or n successes the formula's end equals the rate only up to rounding (0/2000 gave a
    low end of 1e-19 above 0, which matplotlib refused as a negative error bar)."""
    for n in range(1, 3000, 7):
        for k in (0, n):
            p = wilson(k, n)
            assert p.low <= p.rate <= p.high
