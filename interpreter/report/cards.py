"""Per-card win-rate metrics in the style of 17lands: games in deck, in opening hand, drawn,
never seen, the improvement when drawn (IWD), and the draft's pick metrics.

A "player-game" is one player's side of one finished game; its success is that player winning
(a draw is not a win). Aborted games are left out of every card metric.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .intervals import Difference, Proportion, difference, wilson
from .records import Record, card_names, check_records, finished, held, player_won

DEFAULT_MIN_SAMPLE = 30


@dataclass(frozen=True)
class CardStats:
    """One card's metrics; `ranked` is False when fewer than min_sample player-games held it."""

    name: str
    gd: Proportion  # games in deck
    oh: Proportion  # in the opening hand
    gih: Proportion  # in the opening hand or drawn
    gns: Proportion  # in the deck but never seen (not in the opening hand, never drawn)
    iwd: Difference  # gih rate - gns rate, Newcombe interval
    played: int  # times played, in all
    wr_played: Proportion  # player-games where it was played at least once
    offers: int  # draft offers that held it
    taken_first: Proportion  # share of those offers where it was the first pick
    mean_pick_position: float | None  # 1 = first; over the offers where it was taken
    wr_picked: Proportion  # player-games whose player picked it
    ranked: bool


class _Tally:
    """Wins and player-games of one metric of one card."""

    def __init__(self) -> None:
        self.wins = 0
        self.games = 0

    def add(self, won: bool) -> None:
        self.games += 1
        self.wins += bool(won)

    def proportion(self) -> Proportion:
        return wilson(self.wins, self.games)


def card_stats(records: Iterable[Record], min_sample: int = DEFAULT_MIN_SAMPLE) -> list[CardStats]:
    """Every card the records mention: the ranked by IWD, best first, then the unranked by IWD."""
    records = check_records(records)
    games = finished(records)
    tallies: dict[tuple[str, str], _Tally] = defaultdict(_Tally)
    times_played: dict[str, int] = defaultdict(int)
    for record in games:
        for player in record["players"]:
            won = player_won(record, player)
            seen = set(player.get("deck", {})) | set(player.get("opening", {})) | set(player.get("drawn", {}))
            for card in seen:
                in_deck = held(player, "deck", card)
                in_opening = held(player, "opening", card)
                was_drawn = held(player, "drawn", card)
                if in_deck:
                    tallies[card, "gd"].add(won)
                    if not in_opening and not was_drawn:
                        tallies[card, "gns"].add(won)
                if in_opening:
                    tallies[card, "oh"].add(won)
                if in_opening or was_drawn:
                    tallies[card, "gih"].add(won)
            for card, count in player.get("played", {}).items():
                times_played[card] += count
                if count > 0:
                    tallies[card, "played"].add(won)
            for card, count in player.get("picked", {}).items():
                if count > 0:
                    tallies[card, "picked"].add(won)
    picks = _pick_tallies(games)
    stats = []
    for card in card_names(games):
        gd = tallies[card, "gd"].proportion()
        gih = tallies[card, "gih"].proportion()
        gns = tallies[card, "gns"].proportion()
        offered, first, positions = picks.get(card, (0, 0, []))
        stats.append(CardStats(
            name=card, gd=gd, oh=tallies[card, "oh"].proportion(), gih=gih, gns=gns, iwd=difference(gih, gns),
            played=times_played[card], wr_played=tallies[card, "played"].proportion(),
            offers=offered, taken_first=wilson(first, offered),
            mean_pick_position=sum(positions) / len(positions) if positions else None,
            wr_picked=tallies[card, "picked"].proportion(), ranked=gd.n >= min_sample,
        ))
    return sorted(stats, key=_card_order)


def _pick_tallies(games: list[Record]) -> dict[str, tuple[int, int, list[int]]]:
    """Per card: offers holding it, offers where it was the first pick, its pick positions (1-based)."""
    offered: dict[str, int] = defaultdict(int)
    first: dict[str, int] = defaultdict(int)
    positions: dict[str, list[int]] = defaultdict(list)
    for record in games:
        for offer in record.get("offers") or []:
            order = list(offer.get("picks", []))
            for card in set(offer.get("cards", [])):
                offered[card] += 1
                if order and order[0] == card:
                    first[card] += 1
                if card in order:
                    positions[card].append(order.index(card) + 1)
    return {card: (offered[card], first[card], positions[card]) for card in offered}


def _card_order(card: CardStats) -> tuple[bool, bool, float, str]:
    """Ranked before unranked; within each, IWD descending with unknown IWD last; then by name."""
    iwd = card.iwd.estimate
    return (not card.ranked, iwd is None, -(iwd or 0.0), card.name)
