"""The report's tables as text: numbers formatted (percentages with their 95% interval, like
`54.2% [51.0, 57.3]`) and laid out in rows, the same for the HTML page and the Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CardStats
from .documents import Table
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
    for seat, p in sorted(game.seat_wins.items()):
        agents = sorted({str(r["agents"][seat - 1]) for r in records if len(r.get("agents") or ()) >= seat})
        rows.append((f"seat {seat}", ", ".join(a for a in agents if a) or NONE, percent(p), str(p.successes), str(p.n)))
    return Table("Win rate by seat", ("Seat", "Agents", "Win rate (95%)", "Wins", "Finished games"), tuple(rows))


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


def card_table(cards: Sequence[CardStats], min_sample: int, with_picks: bool) -> Table:
    headers = ["Card", "GD n", "GD WR", "OH WR", "GIH WR", "GNS WR", "IWD", "Played", "WR played"]
    if with_picks:
        headers += ["Offers", "Taken first", "Mean pick", "WR picked"]
    rows = []
    for card in cards:
        mean_pick = NONE if card.mean_pick_position is None else f"{card.mean_pick_position:.2f}"
        row = [card.name + ("" if card.ranked else UNRANKED_MARK), str(card.gd.n), percent(card.gd),
               percent(card.oh), percent(card.gih), percent(card.gns), difference_text(card.iwd),
               str(card.played), percent(card.wr_played)]
        if with_picks:
            row += [str(card.offers), percent(card.taken_first), mean_pick, percent(card.wr_picked)]
        rows.append(tuple(row))
    unranked = [c.name for c in cards if not c.ranked]
    note = ("GD: games with the card in the deck; OH: in the opening hand; GIH: in the opening hand or drawn; "
            "GNS: in the deck but never seen; IWD: GIH WR − GNS WR (improvement when drawn); WR: the win rate "
            "of those player-games, with its 95% interval. Sorted by IWD.")
    if unranked:
        note += (f" †: below the minimum sample of {min_sample} games in deck, listed after the ranked cards: "
                 + ", ".join(unranked) + ".")
    muted = frozenset(i for i, c in enumerate(cards) if not c.ranked)
    return Table("Cards", tuple(headers), tuple(rows), note=note, muted=muted)


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
