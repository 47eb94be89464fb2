"""The report's tables as text: numbers formatted (percentages with their 95% interval, like
`54.2% [51.0, 57.3]`) and laid out in rows, the same for the HTML page and the Markdown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import CardStats
from .decks import DeckResult, MatchupResult, seat_decks
from .documents import Table
from .effects import DETECT, FDR, CardEffect, typical_games_needed
from .games import GameStats, Pairing, Summary
from .intervals import Difference, PairedDifference, Proportion, wilson
from .records import Record

NONE = "—"
UNRANKED_MARK = " †"


def percent(p: Proportion) -> str:
    """'54.2% [51.0, 57.3]', or a dash with no games."""
    if p.rate is None or p.low is None or p.high is None:
        return NONE
    return f"{100 * p.rate:.1f}% [{100 * p.low:.1f}, {100 * p.high:.1f}]"


def points(estimate: float | None, low: float | None = None, high: float | None = None) -> str:
    """A difference in percentage points: '+5.1 pp [-1.2, +9.0]'."""
    if estimate is None:
        return NONE
    text = f"{100 * estimate:+.1f} pp"
    if low is not None and high is not None:
        text += f" [{100 * low:+.1f}, {100 * high:+.1f}]"
    return text


def difference_text(d: Difference | PairedDifference) -> str:
    if isinstance(d, PairedDifference):
        return points(d.mean, d.low, d.high)
    return points(d.estimate, d.low, d.high)


def spread(s: Summary) -> str:
    """'23.1 ± 4.2 (min 10, median 23, max 40)'."""
    if s.mean is None:
        return NONE
    sd = f" ± {s.sd:.1f}" if s.sd is not None else ""
    return f"{s.mean:.1f}{sd} (min {s.minimum:g}, median {s.median:g}, max {s.maximum:g})"


def _mean(value: float | None) -> str:
    return NONE if value is None else f"{value:.2f}"


def overview_table(game: GameStats) -> Table:
    finished = f"{game.finished} finished games"
    rows = [("Finished games", f"{game.finished} of {game.games}", "")]
    if game.balance is not None:
        b = game.balance
        rows.append(("Balance: largest gap between seats",
                     f"seat {b.best_seat} − seat {b.worst_seat}: " + points(b.gap, b.difference.low, b.difference.high),
                     f"{b.difference.n} finished games"))
    rows += [
        ("First player wins", percent(game.first_player), f"{game.first_player.n} games that name one"),
        ("First-player advantage over an even share", difference_text(game.first_player_advantage), ""),
        ("Draws", percent(game.draws), finished),
        ("Timeouts", percent(game.timeouts), finished),
        ("Aborted", f"{game.aborted} ({percent(wilson(game.aborted, game.games))})", f"{game.games} games"),
        ("Unfinished (stopped at the cap of decisions)",
         f"{game.unfinished} ({percent(wilson(game.unfinished, game.games))})", f"{game.games} games"),
        ("Length in turns", spread(game.turns), finished),
        ("Decisions", spread(game.decisions), finished),
    ]
    if game.lead_change_share is not None:
        rows += [("Lead changes, mean", _mean(game.lead_changes_mean), f"{game.lead_change_share.n} games"),
                 ("Games with a lead change", percent(game.lead_change_share), f"{game.lead_change_share.n} games")]
    return Table("Game balance", ("Measure", "Value (95% interval)", "Over"), tuple(rows),
                 note="Win rates are over finished games; a draw is not a win. Balance is paired over the "
                      "same games; the first-player advantage is the first player's win rate minus 1/players.")


def aborted_table(game: GameStats) -> Table:
    rows = tuple((str(a.seed), a.reason, a.rule or NONE) for a in game.aborted_games)
    return Table("Aborted games", ("Seed", "Error", "Rule"), rows,
                 note="These games could not finish; they are left out of every win rate.")


def seat_table(game: GameStats, records: Sequence[Record]) -> Table:
    rows = []
    decks = seat_decks(records)
    for seat, p in sorted(game.seat_wins.items()):
        agents = sorted({str(r["agents"][seat - 1]) for r in records if len(r.get("agents") or ()) >= seat})
        row = (f"seat {seat}", ", ".join(a for a in agents if a) or NONE)
        if decks:
            row += (", ".join(decks.get(seat, ())) or NONE,)
        rows.append((*row, percent(p), str(p.successes), str(p.n)))
    headers = ("Seat", "Agents", *(("Decks",) if decks else ()), "Win rate (95%)", "Wins", "Finished games")
    return Table("Win rate by seat", headers, tuple(rows))


def reasons_table(game: GameStats) -> Table:
    rows = tuple((r.reason or NONE, str(r.count), percent(r.share)) for r in game.reasons)
    return Table("End reasons", ("Reason", "Games", "Share of all games (95%)"), rows)


def counters_table(game: GameStats) -> Table:
    seat_numbers = sorted(game.seat_wins)
    rows = tuple((name, *(_mean(by_seat.get(seat)) for seat in seat_numbers))
                 for name, by_seat in game.counters.items())
    return Table("Counters at the end (mean)", ("Counter", *(f"seat {s}" for s in seat_numbers)), rows)


def pairings_table(lines: Sequence[Pairing]) -> Table:
    seat_numbers = sorted({seat for line in lines for seat in line.wins})
    rows = []
    for line in lines:
        wins = [percent(line.wins[seat]) if seat in line.wins else NONE for seat in seat_numbers]
        rows.append((" vs ".join(line.agents), str(line.games), str(line.finished), *wins, percent(line.draws)))
    headers = ("Agents by seat", "Games", "Finished", *(f"seat {s} wins" for s in seat_numbers), "Draws")
    return Table("Results by agent pairing", headers, tuple(rows))


def _effect_cells(effect: CardEffect | None) -> list[str]:
    if effect is None:
        return [NONE] * 6
    if effect.estimate is None:  # (report/missing.py says why, from the two win rates)
        return [NONE, NONE, NONE, NONE, percent(effect.with_opening), percent(effect.without_opening)]
    return [points(effect.estimate, effect.low, effect.high),
            NONE if effect.z is None else f"{effect.z:+.2f}",
            NONE if effect.q is None else f"{effect.q:.3g}",
            NONE if effect.q is None else "yes" if effect.flagged else "",  # (untested: neither flagged nor not)
            percent(effect.with_opening), percent(effect.without_opening)]


def _draw_turns(effect: CardEffect | None) -> str:
    """The win rate by the turn first drawn, split at the median turn: 'by t5 48.0% (120); later 41.2% (80)'."""
    if effect is None or not effect.draw_turns:
        return NONE
    turns = [t for t in effect.draw_turns for _ in range(t.games)]
    middle = turns[(len(turns) - 1) // 2].turn
    early = [t for t in effect.draw_turns if t.turn <= middle]
    late = [t for t in effect.draw_turns if t.turn > middle]

    def part(group: list) -> str:
        games = sum(t.games for t in group)
        return f"{100 * sum(t.wins for t in group) / games:.1f}% ({games})" if games else NONE

    return f"by turn {middle}: {part(early)}; later: {part(late)}"


def _info_cell(info: Mapping[str, Any] | None, key: str) -> str:
    if info is None or info.get(key) is None:
        return NONE
    value = info[key]
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or NONE
    return str(value)


def ordered_cards(effects: Sequence[CardEffect], cards: Sequence[CardStats]) -> list[str]:
    """The card table's order: the cards in at least the minimum sample of games first, by
    estimated effect (best first, unknown last), then the others alike; then cards no deck held."""
    ranked = {c.name: c.ranked for c in cards}
    order = [e.name for e in effects if ranked.get(e.name, False)] + [e.name for e in effects
                                                                      if not ranked.get(e.name, False)]
    listed = set(order)
    return order + sorted(c.name for c in cards if c.name not in listed)


def card_table(effects: Sequence[CardEffect], cards: Sequence[CardStats], min_sample: int, with_picks: bool,
               card_info: Mapping[str, Mapping[str, Any]] | None = None) -> Table:
    # (the catalogue gives every card the same keys: its type, then the ruleset's `statistics.attributes`)
    attributes = [k for k in next(iter(card_info.values()), {}) if k != "type"] if card_info else []
    headers = ["Card", *(["Type"] if card_info else []), *(a.capitalize() for a in attributes), "Decks",
               "OH effect within deck (95%)", "z", "q (BH)", "Flagged", "WR in OH", "WR not in OH",
               "Games for a +5 pp flag", "GD n", "GD WR", "GIH WR", "IWD (descriptive)", "WR by turn first drawn",
               "Played", "WR played"]
    if with_picks:
        headers += ["Offers", "Taken first", "Mean pick", "WR picked"]
    by_effect = {e.name: e for e in effects}
    by_stats = {c.name: c for c in cards}
    names = ordered_cards(effects, cards)
    rows = []
    for name in names:
        effect, card = by_effect.get(name), by_stats.get(name)
        info = (card_info or {}).get(name)
        row = [name + ("" if card is None or card.ranked else UNRANKED_MARK)]
        if card_info:
            row.append(_info_cell(info, "type"))
        row += [_info_cell(info, a) for a in attributes]
        row.append(", ".join(effect.decks) if effect is not None and effect.decks else NONE)
        row += _effect_cells(effect)
        row.append(NONE if effect is None or effect.games_needed is None else f"{effect.games_needed:,}")
        if card is None:
            row += [NONE] * 5 + [_draw_turns(effect), NONE, NONE]
            if with_picks:
                row += [NONE] * 4
        else:
            row += [str(card.gd.n), percent(card.gd), percent(card.gih), difference_text(card.iwd), _draw_turns(effect),
                    str(card.played), percent(card.wr_played)]
            if with_picks:
                mean_pick = NONE if card.mean_pick_position is None else f"{card.mean_pick_position:.2f}"
                row += [str(card.offers), percent(card.taken_first), mean_pick, percent(card.wr_picked)]
        rows.append(tuple(row))
    flagged = [e.name for e in effects if e.flagged]
    note = (f"Sorted by the opening-hand effect within the deck (OH effect): the win rate of the player-games "
            f"whose opening hand held the card minus that of the games of the same deck, seat, opponents and "
            f"agents where it did not (the shuffle decides which, so the deck's strength, the seat and the "
            f"matchup cancel out); 95% interval, z of the Cochran-Mantel-Haenszel test. Flagged: significant "
            f"after a Benjamini-Hochberg false-discovery-rate correction across the {sum(e.p is not None for e in effects)} "
            f"cards tested (q ≤ {FDR:g})" + (f": {', '.join(flagged)}." if flagged else "; none is.") +
            f" Games for a +{100 * DETECT:g} pp flag: games of this run's mix that would detect a card worth "
            f"+{100 * DETECT:g} points at the observed rates (5% two-sided before the correction, 80% power)"
            + (f"; {typical:,} for the median card. " if (typical := typical_games_needed(effects)) else ". ") +
            "GD: games with the card in the deck; GIH: in the opening hand or drawn; IWD: GIH WR minus the win "
            "rate of games where it was never seen. GIH, IWD and the turn first drawn are descriptive only, not "
            "used to rank: a card not yet drawn means a short game, so they measure game length as much as the card.")
    unranked = [c.name for c in cards if not c.ranked]
    if unranked:
        note += (f" †: below the minimum sample of {min_sample} games in deck, listed after the others: "
                 + ", ".join(unranked) + ".")
    muted = frozenset(i for i, name in enumerate(names) if name in by_stats and not by_stats[name].ranked)
    return Table("Cards", tuple(headers), tuple(rows), note=note, muted=muted)


def deck_table(decks: Sequence[DeckResult]) -> Table:
    seats = sorted({seat for d in decks for seat in d.by_seat})
    rows = tuple((d.name, percent(d.wins), str(d.wins.n),
                  *(percent(d.by_seat[s]) if s in d.by_seat else NONE for s in seats)) for d in decks)
    return Table("Win rate by deck", ("Deck", "Win rate (95%)", "Player-games", *(f"in seat {s}" for s in seats)), rows,
                 note="Over every finished game the deck played, in any seat; a draw is not a win.")


def matchup_table(matchups: Sequence[MatchupResult]) -> Table:
    rows = []
    for m in matchups:
        for name, wins in m.wins.items():
            rows.append((" vs ".join(m.decks), name, percent(wins), str(m.games), percent(m.draws)))
    return Table("Win rate by matchup", ("Matchup", "Deck", "Its win rate (95%)", "Games", "Draws"), tuple(rows),
                 note="Each deck's win rate over the games of that table of decks, every seating pooled.")


def side_by_side_table(base: GameStats, variant: GameStats) -> Table:
    rows = [("Games", str(base.games), str(variant.games)),
            ("Finished", str(base.finished), str(variant.finished)),
            ("Aborted", str(base.aborted), str(variant.aborted)),
            ("Unfinished", str(base.unfinished), str(variant.unfinished))]
    for seat in sorted(set(base.seat_wins) | set(variant.seat_wins)):
        rows.append((f"seat {seat} win rate", percent(base.seat_wins.get(seat, wilson(0, 0))),
                     percent(variant.seat_wins.get(seat, wilson(0, 0)))))
    rows += [("Draws", percent(base.draws), percent(variant.draws)),
             ("Timeouts", percent(base.timeouts), percent(variant.timeouts)),
             ("First player wins", percent(base.first_player), percent(variant.first_player)),
             ("Length in turns", spread(base.turns), spread(variant.turns))]
    return Table("Base and variant", ("Measure", "Base", "Variant"), tuple(rows),
                 note="Over all of each side's finished games.")
