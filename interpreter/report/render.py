"""Writing a balance report: `index.html` (opens from disk: inline CSS, no network), `report.md`
and the PNG charts, into a folder, all at once or not at all (the A/B comparison page: comparepage.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import charts
from .cards import DEFAULT_MIN_SAMPLE, card_stats
from .decks import deck_results, matchup_results
from .documents import Chart, Document, Section, to_html, to_markdown
from .effects import card_effects
from .errors import ReportError
from .folder import write_folder
from .games import game_stats, pairings
from .headline import agent_cautions, agents_by_seat, seats_text
from .jsonreport import FILE as JSON_FILE
from .jsonreport import report_data, write_json
from .missing import explain_all
from .records import Record, check_records
from .tables import (
    NONE,
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

PAGE = "index.html"
MARKDOWN = "report.md"


def _value_text(value: Any) -> str:
    if value is None:
        return NONE
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_value_text(v)}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) or NONE
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return ", ".join(_value_text(v) for v in items) or NONE
    return str(value)


def _distinct(values: Iterable[str]) -> str:
    return "; ".join(sorted(set(values))) or NONE


def _seed_text(records: Sequence[Record]) -> str:
    seeds = sorted({r["seed"] for r in records})
    if not seeds:
        return NONE
    return f"{seeds[0]}–{seeds[-1]} ({len(seeds)} seeds)" if len(seeds) > 1 else str(seeds[0])


def _record_facts(records: Sequence[Record]) -> dict[str, str]:
    return {
        "Ruleset": _distinct(str(r.get("title") or r.get("ruleset") or "") for r in records),
        "Games": str(len(records)),
        "Seeds": _seed_text(records),
        "Agents": _distinct(" vs ".join(map(str, r.get("agents") or [])) for r in records),
        "Options": _distinct(_value_text(r.get("options") or {}) for r in records),
    }


def _with_meta(facts: dict[str, str], meta: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The facts read from the records, with `meta`'s entries replacing those of the same name (any case)."""
    merged = dict(facts)
    for key, value in meta.items():
        name = str(key)
        label = next((k for k in merged if k.lower() == name.lower()), name[:1].upper() + name[1:])
        merged[label] = _value_text(value)
    return tuple(merged.items())


def _chart(sections: list[Section], title: str, drawn: str | None) -> None:
    if drawn is not None:
        sections.append(Chart(title, drawn))


def _write_document(folder: Path, document: Document) -> None:
    (folder / PAGE).write_text(to_html(document), encoding="utf-8")
    (folder / MARKDOWN).write_text(to_markdown(document), encoding="utf-8")


def _checked(records: Iterable[Record], side: str = "") -> list[Record]:
    checked = check_records(records)
    if not checked:
        raise ReportError(f"no {side}game records to report on")
    return checked


def write_report(records: Iterable[Record], out_dir: str | Path, *, title: str, meta: Mapping[str, Any],
                 min_sample: int = DEFAULT_MIN_SAMPLE, card_info: Mapping[str, Mapping[str, Any]] | None = None,
                 robust_agents: Sequence[str] | None = None, robust_records: Iterable[Record] | None = None,
                 cautions: Sequence[str] = ()) -> Path:
    """Write the balance report of these game records into `out_dir` (index.html, report.md,
    report.json, charts); returns the page's path. `card_info`: each card's type and the
    attributes the card table shows (`{name: {"type": ..., attribute: value}}`).

    `cautions` are shown boxed under the headline (the load warnings about what the records read,
    `statistics:`); a figure that cannot be computed is marked with the reason (report/missing.py).

    The headline names the agents of each seat, with a caution when a seat played randomly.
    With `robust_records` (the same seeds played by `robust_agents`), a Robustness section sets
    the verdicts of both runs side by side and the headline names those that change.
    """
    records = _checked(records)
    charts.require_matplotlib()
    game = game_stats(records)
    cards = card_stats(records, min_sample)
    effects = card_effects(records)
    decks, matchups = deck_results(records), matchup_results(records)
    agent_lines = pairings(records)
    with_picks = any(r.get("offers") for r in records)
    facts = _with_meta(_record_facts(records), meta)
    by_seat = agents_by_seat(records)
    headline = (f"Agents by seat: {seats_text(by_seat)}",)
    cautions = [*agent_cautions(by_seat), *cautions]
    no_hand = not any(p.get("opening") or p.get("drawn") for r in records for p in r["players"])
    robust_section = found = None
    if robust_records is not None:
        from .robust import changed_caution, robustness_table, verdicts

        robust = _checked(robust_records, "robust ")
        robust_agents = list(robust_agents or [])
        found = verdicts(records, robust, min_sample)
        run_agents = [", ".join(names) for names in by_seat.values()]
        robust_section = robustness_table(found, run_agents, robust_agents)
        line = changed_caution(found, robust_agents)
        headline += (f"Robustness: rerun on the same seeds by {' vs '.join(robust_agents)}: "
                     f"{sum(v.changed for v in found)} of {len(found)} verdicts change.",)
        if line:
            cautions.append(line)

    def render(folder: Path) -> None:
        sections: list[Section] = [overview_table(game)]
        if game.aborted_games:
            sections.append(aborted_table(game))
        sections.append(seat_table(game, records))
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
        _write_document(folder, Document(title, facts, tuple(sections), headline, tuple(cautions)))
        write_json(folder / JSON_FILE, report_data(
            title=title, facts=facts, game=game, decks=decks, matchups=matchups, effects=effects, cards=cards,
            pairings=agent_lines, card_info=card_info, min_sample=min_sample,
            headline=headline, cautions=cautions, robust=found))

    return _write(out_dir, render)


def _write(out_dir: str | Path, render: Callable[[Path], None]) -> Path:
    write_folder(Path(out_dir), render)
    return Path(out_dir) / PAGE


def _side_summary(records: Sequence[Record]) -> str:
    facts = _record_facts(records)
    return (f"{facts['Ruleset']}, {facts['Games']} games, seeds {facts['Seeds']}, agents {facts['Agents']}, "
            f"options {facts['Options']}")
