"""`cardrules compare BASE [VARIANT]`: what does a change do? Both sides play the same seeds and
seatings (common random numbers), so each seed gives a paired outcome; the differences in seat and
card win rates come with 95% intervals, a flag where they are significant, and the number of games
that would detect a 2-point shift at the variance seen.

A side is a ruleset (a game name or a file) with options; the variant may instead be an override
file, which redefines cards of BASE, or BASE with `--replace CARD=OTHER` (every copy of CARD in
the decks becomes OTHER: what is this card worth?). The main difference is the win rate of the
seats whose decks hold a changed card (or seat 1's, when no card changed); `--until-significant`
plays in ten looks and stops at the first where it is significant at alpha/10 (Bonferroni), so the
chance of a false alarm stays at most alpha. Games aborted or unfinished (stopped at their cap of
decisions) on either side are left out of the pairs, and make the exit status 1.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path
from typing import Any

from ..backends import BatchSpec, game_seeds, open_backend, rules_for
from ..errors import RulesError
from ..rules.loader import load_ruleset
from ..rules.yamlload import load_yaml
from .batchrun import REPORT_FILES, run_batch, writable_folder
from .common import (
    UsageError,
    batch_agents,
    command_line_options,
    err_console,
    out_console,
    parse_option_pairs,
    shown,
)
from .simulate import incomplete_status, summarize

LOOKS = 10  # looks of --until-significant
SHIFT = 0.02  # the shift "games needed" is for
OVERRIDE_KEYS = {"ruleset", "description", "cards"}
VANILLA = "vanilla"  # --replace CARD=vanilla: the card without its abilities


def run_compare(args) -> int:
    from ..report.charts import require_matplotlib
    from ..report.compare import compare_stats
    from ..report.intervals import Z95, paired_difference, z_for
    from ..report.render import write_comparison

    shared = parse_option_pairs(args.option)
    replace = _replacements(args.replace)
    base = BatchSpec.of(args.base, {**shared, **parse_option_pairs(args.base_option)}, records=True, label="base")
    with command_line_options(dict(base.options), lambda: load_ruleset(base.game)):
        rules_for(base)
    variant = _variant(args, base, {**shared, **parse_option_pairs(args.variant_option)}, replace)
    if variant.rules_key == base.rules_key:
        raise UsageError("the variant is the same as BASE: give a VARIANT, --variant-option or --replace")
    if not 0 < args.alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1, not {args.alpha}")
    report_dir = writable_folder(args.report, "--report", REPORT_FILES, (".png", ".svg")) if args.report else None
    if report_dir is not None:
        require_matplotlib()
    base_rules, _ = rules_for(base)
    with command_line_options({**dict(variant.options), **dict(variant.replace)},
                              lambda: load_ruleset(variant.game, override_cards=list(variant.override))):
        variant_rules, _ = rules_for(variant)
    _same_game(base_rules, variant_rules, args)
    agents = tuple(batch_agents(args.agents, base_rules.player_count, "compare", base_rules.player_range))
    base = dataclasses.replace(base, agents=agents, max_decisions=args.max_decisions)
    variant = dataclasses.replace(variant, agents=agents, max_decisions=args.max_decisions)
    changed = _changed_cards(base_rules, variant_rules, replace)

    looks = LOOKS if args.until_significant else 1
    z_look = z_for(args.alpha / looks) if args.until_significant else Z95
    block = math.ceil(args.games / looks)
    base_records: dict[int, dict] = {}
    variant_records: dict[int, dict] = {}
    interrupted = stopped_early = False
    main = None
    look = 0
    with open_backend(args.backend, args.workers, args.address) as backend:
        for look in range(1, looks + 1):
            start = (look - 1) * block  # (games start .. of the batch: the seeds `simulate --seed` plays too)
            seeds = game_seeds(args.seed, start, min(args.games, start + block))
            if not seeds:
                break
            for side, records, label in ((base, base_records, "base"), (variant, variant_records, "variant")):
                batch = run_batch(side, seeds, args.backend, args.workers, args.address, not args.json,
                                  label=f"{label} {look}/{looks}" if looks > 1 else label, backend=backend)
                records.update(batch.records)
                if batch.interrupted:
                    interrupted = True
                    break
            if interrupted:
                break
            xs, ys = _main_pairs(base_records, variant_records, changed, base_rules.player_count)
            main = paired_difference(xs, ys, z_look)
            if args.until_significant and main.significant and look < looks:
                stopped_early = True
                break
    base_list = [base_records[s] for s in sorted(base_records)]
    variant_list = [variant_records[s] for s in sorted(variant_records)]
    comparison = compare_stats(base_list, variant_list)
    rows = comparison.rows()
    rows.sort(key=lambda r: (r["kind"] != "seat", r["name"] not in changed))  # (stable: then by difference)
    result = {
        "ruleset": base_rules.name, "base": _side_name(base), "variant": _side_name(variant),
        "agents": list(agents), "seed": args.seed, "games": len(comparison.seeds),
        "looks": look, "stopped_early": stopped_early, "interrupted": interrupted,
        "alpha": args.alpha if args.until_significant else None, "changed_cards": changed,
        "main": _main_dict(main, changed, bool(changed) and _every_seat_holds(base_list, changed)),
        "base_summary": summarize(base_list, base_rules.player_count),
        "variant_summary": summarize(variant_list, variant_rules.player_count),
        "rows": rows,
    }
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        _print(result)
    if interrupted:
        err_console().print(f"interrupted after {len(comparison.seeds)} paired games"
                            + ("; no report written" if report_dir else ""))
        return 130
    if report_dir is not None:
        meta = {"base": result["base"], "variant": result["variant"], "agents": list(agents),
                "games": result["games"], "seeds": f"game_seed({args.seed}, 0..)", "changed cards": ", ".join(changed) or "none",
                "main difference": _main_text(result["main"])}
        index = write_comparison(base_list, variant_list, report_dir, title=f"{base_rules.title}: A/B", meta=meta,
                                 rows=rows)
        if not args.json:
            err_console().print(f"report: {index}")
    return max(incomplete_status(result["base_summary"]), incomplete_status(result["variant_summary"]))


def _replacements(pairs: list[str] | None) -> tuple[tuple[str, str], ...]:
    out = []
    for pair in pairs or ():
        old, sep, new = pair.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise UsageError(f'--replace takes "CARD=OTHER", not {pair!r}')
        out.append((old.strip(), new.strip()))
    return tuple(out)


def _variant(args, base: BatchSpec, options: dict, replace: tuple) -> BatchSpec:
    """The variant side: a ruleset, an override file of BASE, or BASE itself with other options
    or replaced cards."""
    vanilla = tuple(old for old, new in replace if new.lower() == VANILLA)
    if vanilla:
        if args.variant is not None:
            raise UsageError(f"--replace CARD={VANILLA} changes BASE's cards: give no VARIANT with it")
        replace = tuple((old, new) for old, new in replace if new.lower() != VANILLA)
        base_rules, _ = rules_for(base)
        return BatchSpec.of(args.base, options, records=True, replace=replace, label="variant",
                            override=tuple(_vanilla_text(base_rules, name) for name in vanilla))
    if args.variant is None:
        return BatchSpec.of(args.base, options, records=True, replace=replace, label="variant")
    path = Path(args.variant)
    if path.is_file() and path.suffix in (".yaml", ".yml"):
        data, marks = load_yaml(path)
        if isinstance(data, dict) and "name" not in data and isinstance(data.get("cards"), str):
            return BatchSpec.of(args.base, options, records=True, replace=replace, label="variant",
                                override=(_override_text(path, data, marks, args.base),))
    return BatchSpec.of(args.variant, options, records=True, replace=replace, label="variant")


def _vanilla_text(rules, name: str) -> tuple[str, str, int, int]:
    """The card as a vanilla stand-in: its type and attributes, its parts empty, no keywords and
    no abilities (what are its abilities worth?)."""
    from ..errors import DeckError, did_you_mean
    from ..lang.printer import to_source

    definition = rules.definitions.cards.get(name)
    if definition is None:
        raise DeckError(f"--replace: no card named {name!r}{did_you_mean(name, sorted(rules.card_defs))}")
    parts = tuple(dataclasses.replace(part, body=(), abilities=()) for part in definition.parts)
    plain = dataclasses.replace(definition, keywords=(), abilities=(), parts=parts)
    return (to_source(plain), f"<{name} as a vanilla stand-in>", 1, 1)


def _override_text(path: Path, data: dict, marks, base_game: str) -> tuple[str, str, int, int]:
    for key in data:
        if key not in OVERRIDE_KEYS:
            raise RulesError(f"an override file has {', '.join(sorted(OVERRIDE_KEYS))}; not {key!r}",
                             marks.span((key,), key=True))
    named = data.get("ruleset")
    if named is not None and Path(str(named)).stem != Path(base_game).stem:
        raise RulesError(f"this override is for {named!r}, but BASE is {base_game!r}", marks.span(("ruleset",)))
    line, column, _style = marks.value_origin(("cards",))
    return (data["cards"], str(path), line, column)


def _same_game(base_rules, variant_rules, args) -> None:
    shared = set(base_rules.card_defs) & set(variant_rules.card_defs)
    if base_rules.player_count != variant_rules.player_count or not shared:
        raise UsageError(f"{args.base} ({base_rules.title}) and {args.variant} ({variant_rules.title}) are "
                         "different games: compare two versions of one game")


def _changed_cards(base_rules, variant_rules, replace: tuple) -> list[str]:
    """The cards the variant changes: those replaced in the decks, and those defined otherwise."""
    from ..lang.printer import to_source

    changed = {old for old, _new in replace}
    base_defs = base_rules.definitions.cards
    variant_defs = variant_rules.definitions.cards
    for name, definition in base_defs.items():
        other = variant_defs.get(name)
        if other is not None and to_source(other) != to_source(definition):
            changed.add(name)
    return sorted(changed)


def _main_pairs(base: dict[int, dict], variant: dict[int, dict], changed: list[str],
                players: int) -> tuple[list[float], list[float]]:
    """Per seed finished on both sides: the mean win (1/0) of the seats whose BASE deck holds a
    changed card, on each side (seat 1 when no card changed)."""
    xs, ys = [], []
    for seed in sorted(set(base) & set(variant)):
        b, v = base[seed], variant[seed]
        if not _finished(b) or not _finished(v):
            continue
        if changed:
            seats = [p["seat"] for p in b["players"] if any(c in p["deck"] for c in changed)]
        else:
            seats = [1]
        if not seats:
            continue
        xs.append(sum(b["winner"] == s for s in seats) / len(seats))
        ys.append(sum(v["winner"] == s for s in seats) / len(seats))
    return xs, ys


def _finished(record: dict) -> bool:
    """Whether the game ended by its rules (not aborted, not stopped at its cap of decisions)."""
    return not record.get("aborted") and not record.get("unfinished")


def _every_seat_holds(records: list[dict], changed: list[str]) -> bool:
    """Whether, in every finished game, every player's deck holds a changed card."""
    finished = [r for r in records if _finished(r)]
    return bool(finished) and all(any(c in p["deck"] for c in changed) for r in finished for p in r["players"])


def _main_dict(main, changed: list[str], every_seat: bool) -> dict[str, Any] | None:
    if main is None:
        return None
    measure = f"win rate of the decks holding {', '.join(changed)}" if changed else "seat 1 win rate"
    if every_seat:
        measure += " (every deck holds it, so the change cannot move it: read the seat rows)"
    return {"measure": measure,
            "pairs": main.n, "difference": main.mean, "low": main.low, "high": main.high,
            "significant": main.significant, "games_needed": main.games_needed(SHIFT)}


def _side_name(spec: BatchSpec) -> str:
    parts = [shown(spec.game) if Path(spec.game).exists() else spec.game]
    parts += [f"{k}={v}" for k, v in spec.options]
    parts += [f"override {shown(t[1])}" for t in spec.override]
    parts += [f"{old} -> {new}" for old, new in spec.replace]
    return " ".join(parts)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:+.1f}"


def _main_text(main: dict | None) -> str:
    if main is None:
        return "no paired games"
    interval = f"[{_pct(main['low'])}, {_pct(main['high'])}]" if main["low"] is not None else "[?]"
    flag = "significant" if main["significant"] else "not significant"
    return f"{main['measure']}: {_pct(main['difference'])} points {interval}, {flag}"


def _print(result: dict) -> None:
    from rich.table import Table
    from rich.text import Text

    console = out_console()
    console.print(Text(f"{result['base']}  vs  {result['variant']}: {result['games']} paired games"
                       + (f", stopped early at look {result['looks']}" if result["stopped_early"] else "")))
    console.print(Text(_main_text(result["main"])))
    for side in ("base", "variant"):
        summary = result[f"{side}_summary"]
        if summary["aborted"] or summary["unfinished"]:  # (left out of every pair: say so)
            console.print(Text(f"{side}: {summary['aborted']} aborted, {summary['unfinished']} unfinished "
                               f"of {summary['games']} games (not paired)"))
    table = Table(show_header=True)
    for name, justify in (("", "left"), ("base WR", "right"), ("variant WR", "right"), ("difference", "right"),
                          ("95% interval", "right"), ("", "left"), ("games for ±2 pts", "right")):
        table.add_column(name, justify=justify)
    cards = [r for r in result["rows"] if r["kind"] == "card"]
    shown_rows = [r for r in result["rows"] if r["kind"] == "seat"] + cards[:15]
    for r in shown_rows:
        table.add_row(Text(r["name"]), _rate(r["base_rate"]), _rate(r["variant_rate"]), Text(_pct(r["difference"])),
                      Text(f"[{_pct(r['low'])}, {_pct(r['high'])}]" if r["low"] is not None else ""),
                      Text("significant" if r["significant"] else ""),
                      Text(str(r["games_needed"]) if r["games_needed"] is not None else ""))
    console.print(table)
    if len(cards) > 15:
        console.print(Text(f"... and {len(cards) - 15} more cards (--json or --report lists them all)"))


def _rate(value: float | None):
    from rich.text import Text

    return Text("-" if value is None else f"{100 * value:.1f}%")
