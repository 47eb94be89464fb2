"""Writing a balance report: `index.html` (opens from disk: inline CSS, no network), `report.md`
and the PNG charts, into a folder, all at once or not at all (the A/B comparison page: comparepage.py;
what both share: pages.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import charts, sharedpage
from .cards import DEFAULT_MIN_SAMPLE, card_stats
from .decks import deck_results, matchup_results
from .documents import Chart, Document, Section
from .effects import card_effects
from .games import game_stats, pairings
from .headline import agent_cautions, agents_by_seat, measured_change, seats_text
from .jsonreport import FILE as JSON_FILE
from .jsonreport import report_data, write_json
from .missing import explain_all
from .pages import checked_records, record_facts, with_meta, write_document, write_pages
from .records import Record
from .shared import shared_stats
from .tables import (
    aborted_table,
    card_table,
    counters_table,
    deck_table,
    matchup_table,
    overview_table,
    pairings_table,
    reasons_table,
    seat_table,
)


def _chart(sections: list[Section], title: str, drawn: str | None) -> None:
    if drawn is not None:
        sections.append(Chart(title, drawn))


def write_report(records: Iterable[Record], out_dir: str | Path, *, title: str, meta: Mapping[str, Any],
                 min_sample: int = DEFAULT_MIN_SAMPLE, card_info: Mapping[str, Mapping[str, Any]] | None = None,
                 robust_agents: Sequence[str] | None = None, robust_records: Iterable[Record] | None = None,
                 cautions: Sequence[str] = ()) -> Path:
    """Write the balance report of these game records into `out_dir` (index.html, report.md,
    report.json, charts); returns the page's path. Records with teams or scores (shared.py) get
    the cooperative, team and score sections too. `card_info`: each card's type and the
    attributes the card table shows (`{name: {"type": ..., attribute: value}}`).

    `cautions` are shown boxed under the headline (the load warnings about what the records read,
    `statistics:`); a figure that cannot be computed is marked with the reason (report/missing.py).

    The headline names the agents of each seat, with a caution when a seat played randomly (with
    `robust_records`, quoting the change of the first-player advantage and the seats' gap measured
    between the two runs).
    With `robust_records` (the same seeds played by `robust_agents`), a Robustness section sets
    the verdicts of both runs side by side and the headline names those that change.
    """
    records = checked_records(records)
    charts.require_matplotlib()
    game = game_stats(records)
    cards = card_stats(records, min_sample)
    effects = card_effects(records)
    decks, matchups = deck_results(records), matchup_results(records)
    agent_lines = pairings(records)
    with_picks = any(r.get("offers") for r in records)
    facts = with_meta(record_facts(records), meta)
    by_seat = agents_by_seat(records)
    shared = shared_stats(records)
    headline = (f"Agents by seat: {seats_text(by_seat)}", *sharedpage.headline_lines(shared))
    no_hand = not any(p.get("opening") or p.get("drawn") for r in records for p in r["players"])
    robust_section = found = measured = None
    robust_lines: list[str] = []
    if robust_records is not None:
        from .robust import changed_caution, robustness_table, verdicts

        robust = checked_records(robust_records, "robust ")
        robust_agents = list(robust_agents or [])
        found = verdicts(records, robust, min_sample)
        run_agents = [", ".join(names) for names in by_seat.values()]
        robust_section = robustness_table(found, run_agents, robust_agents)
        measured = measured_change(game, game_stats(robust), robust_agents)
        line = changed_caution(found, robust_agents)
        headline += (f"Robustness: rerun on the same seeds by {' vs '.join(robust_agents)}: "
                     f"{sum(v.changed for v in found)} of {len(found)} verdicts change.",)
        if line:
            robust_lines.append(line)
    cautions = [*agent_cautions(by_seat, measured), *cautions, *robust_lines]

    def render(folder: Path) -> None:
        sections: list[Section] = [overview_table(game)]
        if game.aborted_games:
            sections.append(aborted_table(game))
        sections.append(seat_table(game, records))
        sections += sharedpage.sections(shared, charts.score_chart, folder)
        if decks:
            sections.append(deck_table(decks))
        if matchups:
            sections.append(matchup_table(matchups))
        _chart(sections, "Win rate by seat and draw share (95% interval)", charts.seat_chart(game, folder / "seats.png"))
        if agent_lines:
            sections.append(pairings_table(agent_lines))
        sections.append(reasons_table(game))
        _chart(sections, "End reasons", charts.reasons_chart(game, folder / "reasons.png"))
        _chart(sections, "Game length in turns", charts.length_chart(game, folder / "length.png"))
        if game.counters:
            sections.append(counters_table(game))
        if cards:
            sections.append(card_table(effects, cards, min_sample, with_picks, card_info))
            _chart(sections, "Opening-hand effect within the deck, 95% interval",
                   charts.effect_chart(effects, folder / "cards_effect.png"))
        if robust_section is not None:
            sections.append(robust_section)
        sections = explain_all(sections, no_hand, min_sample)
        write_document(folder, Document(title, facts, tuple(sections), headline, tuple(cautions)))
        write_json(folder / JSON_FILE, report_data(
            title=title, facts=facts, game=game, decks=decks, matchups=matchups, effects=effects, cards=cards,
            pairings=agent_lines, card_info=card_info, min_sample=min_sample,
            headline=headline, cautions=cautions, robust=found, shared=shared))

    return write_pages(out_dir, render)

