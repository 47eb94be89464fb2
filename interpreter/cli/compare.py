"""`cardrules compare BASE [VARIANT]`: what does a change do? Both sides play the same seeds and
seatings (common random numbers), so each seed gives a paired outcome; the differences in seat and
card win rates come with intervals labelled with their level (95%), and the number of games that
would detect a 2-point shift at the variance seen. A card is flagged only when its own figure (its
opening-hand effect within its deck) changed beyond chance, after Holm's correction across cards
(report/compare.py); the others are context.

A side is a ruleset (a game name or a file) with options; the variant may instead be an override
file, which redefines cards of BASE, or BASE with `--replace CARD=OTHER` (every copy of CARD in
the decks becomes OTHER: what is this card worth?). The main difference is the win rate of the
seats whose decks hold a changed card (or seat 1's, when no card changed); `--until-significant`
plays in ten looks and stops at the first where its z crosses a group-sequential boundary
(O'Brien-Fleming or Pocock, report/sequential.py) whose overall false-alarm rate is alpha; it then
gives the repeated confidence interval, and an early stop says that the estimate is biased away
from zero and by how much at most. Games aborted or unfinished (stopped at their cap of
decisions) on either side are left out of the pairs, and make the exit status 1. In a scoring
game each seat's (or team's) mean final score is compared too, paired by seed (`scores`).
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
from ..report.folder import REPORT_FILES
from ..report.records import winners_of
from ..rules.loader import load_ruleset
from ..rules.yamlload import load_yaml
from .batchrun import run_batch, writable_folder
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
    from ..report.comparepage import write_comparison
    from ..report.intervals import paired_difference, z_for
    from ..report.sequential import boundary as sequential_boundary
    from ..report.sequential import look_ends

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

    looks = min(LOOKS, args.games) if args.until_significant else 1
    plan = sequential_boundary(args.boundary, looks, args.alpha) if args.until_significant else None
    z_fixed = z_for(args.alpha)
    base_records: dict[int, dict] = {}
    variant_records: dict[int, dict] = {}
    interrupted = stopped_early = False
    main = None
    look = 0
    with open_backend(args.backend, args.workers, args.address) as backend:
        ends = look_ends(args.games, looks)
        for look in range(1, looks + 1):
            # (games start..end of the batch: the seeds `simulate --seed` plays too)
            seeds = game_seeds(args.seed, ends[look - 2] if look > 1 else 0, ends[look - 1])
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
            main = paired_difference(xs, ys, z_fixed)
            if plan is not None and crossed(main, plan.critical[look - 1]) and look < looks:
                stopped_early = True
                break
    base_list = [base_records[s] for s in sorted(base_records)]
    variant_list = [variant_records[s] for s in sorted(variant_records)]
    comparison = compare_stats(base_list, variant_list, replace=variant.replace, alpha=args.alpha)
    rows = comparison.rows()
    rows.sort(key=lambda r: (r["kind"] != "seat", r["base_name"] not in changed))  # (stable: then by p)
    result = {
        "ruleset": base_rules.name, "base": _side_name(base), "variant": _side_name(variant),
        "agents": list(agents), "seed": args.seed, "games": len(comparison.seeds),
        "looks": look, "stopped_early": stopped_early, "interrupted": interrupted,
        "alpha": args.alpha, "changed_cards": changed,
        "main": _main_dict(main, changed, bool(changed) and _every_seat_holds(base_list, changed),
                           _sequential(main, plan, look, stopped_early)),
        "card_flags": f"Holm's step-down correction across the {sum(r['change_p'] is not None for r in rows)} "
                      f"cards tested, family-wise error rate {args.alpha:g}",
        "base_summary": summarize(base_list, base_rules.player_count),
        "variant_summary": summarize(variant_list, variant_rules.player_count),
        "rows": rows,
    }
    if comparison.scores:  # (a scoring game: each seat's or team's mean final score, paired)
        result["scores"] = [s.to_json() for s in comparison.scores]
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
                "main difference": _main_text(result["main"]), "card flags": result["card_flags"]}
        if result["main"] is not None and result["main"]["sequential"] is not None:
            meta["sequential test"] = _sequential_text(result["main"])
        index = write_comparison(base_list, variant_list, report_dir, title=f"{base_rules.title}: A/B", meta=meta,
                                 rows=rows, flags=result["card_flags"], scores=comparison.scores)
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
        xs.append(sum(s in winners_of(b) for s in seats) / len(seats))
        ys.append(sum(s in winners_of(v) for s in seats) / len(seats))
    return xs, ys


def _finished(record: dict) -> bool:
    """Whether the game ended by its rules (not aborted, not stopped at its cap of decisions)."""
    return not record.get("aborted") and not record.get("unfinished")


def _every_seat_holds(records: list[dict], changed: list[str]) -> bool:
    """Whether, in every finished game, every player's deck holds a changed card."""
    finished = [r for r in records if _finished(r)]
    return bool(finished) and all(any(c in p["deck"] for c in changed) for r in finished for p in r["players"])


def crossed(main, critical: float) -> bool:
    """Whether the paired difference reaches the look's critical |z|, raised for a variance
    estimated from its pairs (report/sequential.py)."""
    from ..report.sequential import crosses, for_estimated_variance

    return main is not None and crosses(main.mean, main.se, for_estimated_variance(critical, main.n))


def _sequential(main, plan, look: int, stopped_early: bool) -> dict[str, Any] | None:
    """The sequential test's facts: the boundary, the look it ended at, the repeated confidence
    interval and, after an early stop, the bound on how much the estimate overstates the truth."""
    if plan is None or main is None:
        return None
    from ..report.sequential import for_estimated_variance

    critical = for_estimated_variance(plan.critical[look - 1], main.n)
    z = None if main.se in (None, 0) or main.mean is None else main.mean / main.se
    half = None if main.se is None or math.isinf(critical) else critical * main.se
    low = high = None
    if half is not None and main.mean is not None:
        low, high = main.mean - half, main.mean + half
    return {"boundary": plan.kind, "looks_planned": plan.looks, "alpha": plan.alpha,
            "critical": list(plan.critical), "look": look, "z": z, "critical_at_look": critical,
            "critical_note": f"the boundary's {plan.critical[look - 1]:.3f} as a t quantile with {main.n - 1} "
                             "degrees of freedom (the variance is estimated)",
            "crossed": crossed(main, plan.critical[look - 1]),
            "repeated_level": 1 - plan.alpha, "repeated_low": low, "repeated_high": high,
            "single_look_level": round(1 - plan.nominal(look), 4),
            "stopped_early": stopped_early, "bias_bound": half if stopped_early else None,
            "description": plan.describe()}


def _main_dict(main, changed: list[str], every_seat: bool, sequential: dict | None) -> dict[str, Any] | None:
    if main is None:
        return None
    from ..report.intervals import level_of

    measure = f"win rate of the decks holding {', '.join(changed)}" if changed else "seat 1 win rate"
    if every_seat:
        measure += " (every deck holds it, so the change cannot move it: read the seat rows)"
    return {"measure": measure,
            "pairs": main.n, "difference": main.mean, "level": level_of(main.z), "low": main.low, "high": main.high,
            "significant": sequential["crossed"] if sequential is not None else main.significant,
            "games_needed": main.games_needed(SHIFT), "sequential": sequential}


def _side_name(spec: BatchSpec) -> str:
    parts = [shown(spec.game) if Path(spec.game).exists() else spec.game]
    parts += [f"{k}={v}" for k, v in spec.options]
    parts += [f"override {shown(t[1])}" for t in spec.override]
    parts += [f"{old} -> {new}" for old, new in spec.replace]
    return " ".join(parts)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:+.1f}"


def _interval(level: float, low: float | None, high: float | None, what: str = "interval") -> str:
    from ..report.intervals import level_text

    shown_interval = f"[{_pct(low)}, {_pct(high)}]" if low is not None and high is not None else "[?]"
    return f"{level_text(level)} {what} {shown_interval}"


def _main_text(main: dict | None) -> str:
    if main is None:
        return "no paired games"
    sequential = main["sequential"]
    if sequential is None:
        flag = "significant" if main["significant"] else "not significant"
        return (f"{main['measure']}: {_pct(main['difference'])} points, "
                f"{_interval(main['level'], main['low'], main['high'])}, {flag}")
    flag = "significant (crossed the boundary)" if main["significant"] else "not significant (boundary not crossed)"
    return (f"{main['measure']}: {_pct(main['difference'])} points, "
            f"{_interval(sequential['repeated_level'], sequential['repeated_low'], sequential['repeated_high'], 'repeated interval')}"
            f" (fixed-sample {_interval(main['level'], main['low'], main['high'])}, not adjusted for the looks), {flag}")


def _sequential_text(main: dict) -> str:
    """The boundary, the look, and after an early stop the bias warning with its bound."""
    from ..report.intervals import level_text

    s = main["sequential"]
    z = "-" if s["z"] is None else f"{abs(s['z']):.2f}"
    text = (f"{s['description']}; look {s['look']} of {s['looks_planned']}: |z| {z} against {s['critical_at_look']:.2f}, "
            f"{s['critical_note']} (one look's own level {level_text(s['single_look_level'])})")
    if s["stopped_early"]:
        text += (f". Stopped early: an estimate taken because it crossed a boundary is biased away from zero "
                 f"(upwards in size); it overstates the true difference by at most {100 * s['bias_bound']:.1f} points "
                 f"(the half-width of the {level_text(s['repeated_level'])} repeated interval, which covers the truth "
                 f"at every look at once)")
    return text


def _print(result: dict) -> None:
    from rich.table import Table
    from rich.text import Text

    from ..report.intervals import level_text

    console = out_console()
    console.print(Text(f"{result['base']}  vs  {result['variant']}: {result['games']} paired games"
                       + (f", stopped early at look {result['looks']}" if result["stopped_early"] else "")))
    console.print(Text(_main_text(result["main"])))
    if result["main"] is not None and result["main"]["sequential"] is not None:
        console.print(Text(_sequential_text(result["main"])))
    for side in ("base", "variant"):
        summary = result[f"{side}_summary"]
        if summary["aborted"] or summary["unfinished"]:  # (left out of every pair: say so)
            console.print(Text(f"{side}: {summary['aborted']} aborted, {summary['unfinished']} unfinished "
                               f"of {summary['games']} games (not paired)"))
    seats = [r for r in result["rows"] if r["kind"] == "seat"]
    level = level_text(seats[0]["level"]) if seats else "95%"
    table = Table(show_header=True)
    for name, justify in (("", "left"), ("base WR", "right"), ("variant WR", "right"), ("difference", "right"),
                          (f"{level} interval", "right"), ("", "left"), ("games for ±2 pts", "right")):
        table.add_column(name, justify=justify)
    for r in seats:
        table.add_row(Text(r["name"]), Text(_rate(r["base_rate"])), Text(_rate(r["variant_rate"])), Text(_pct(r["difference"])),
                      Text(f"[{_pct(r['low'])}, {_pct(r['high'])}]" if r["low"] is not None else ""),
                      Text(f"significant at {level}" if r["significant"] else ""),
                      Text(str(r["games_needed"]) if r["games_needed"] is not None else ""))
    console.print(table)
    if result.get("scores"):
        table = Table(show_header=True, title="mean final score (95% intervals)")
        for name, justify in (("", "left"), ("base", "right"), ("variant", "right"), ("difference", "right"),
                              ("95% interval", "right"), ("", "left")):
            table.add_column(name, justify=justify)
        for s in result["scores"]:
            table.add_row(Text(s["name"]), Text(_score(s["base"]["mean"])), Text(_score(s["variant"]["mean"])),
                          Text(_score(s["difference"], signed=True)),
                          Text(f"[{_score(s['low'], True)}, {_score(s['high'], True)}]" if s["low"] is not None else ""),
                          Text("significant at 95%" if s["significant"] else ""))
        console.print(table)
    cards = [r for r in result["rows"] if r["kind"] == "card"]
    if not cards:
        return
    table = Table(show_header=True, title="cards: GD WR is the deck's (context); OH effect = win rate with the card "
                                          "in the opening hand minus without, within its deck")
    for name, justify in (("card", "left"), ("GD WR base → variant", "right"), ("OH effect base", "right"),
                          ("OH effect variant", "right"), (f"change, {level} interval", "right"), ("p", "right"),
                          ("flag", "left")):
        table.add_column(name, justify=justify)
    for r in cards[:15]:
        change = (f"{_pct(r['change'])} [{_pct(r['change_low'])}, {_pct(r['change_high'])}]"
                  if r["change"] is not None else f"- ({r['no_test']})")
        table.add_row(Text(r["name"]), Text(f"{_rate(r['base_rate'])} → {_rate(r['variant_rate'])}"),
                      Text(_pct(r["base_effect"])), Text(_pct(r["variant_effect"])), Text(change),
                      Text("-" if r["change_p"] is None else f"{r['change_p']:.3f}"),
                      Text("changed" if r["flagged"] else ""))
    console.print(table)
    console.print(Text(f"flag: the OH effect changed beyond chance ({result['card_flags']})"))
    if len(cards) > 15:
        console.print(Text(f"... and {len(cards) - 15} more cards (--json or --report lists them all)"))


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _score(value: float | None, signed: bool = False) -> str:
    return "-" if value is None else f"{value:+.2f}" if signed else f"{value:.2f}"
