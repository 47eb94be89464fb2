"""Load a ruleset: YAML rule files (with `extends:`), their code and card files, into a `Ruleset`.

Every problem is reported with the file, line and column: YAML and schema errors through
`yamlload`/`schema`, code errors through the parser and the checker; here, at their YAML entries,
card-type labels, attribute defaults outside their `min`/`max`, `code:` and `cards:` entries that
name nothing (and at the first bad byte, a code or card file that is not UTF-8). Nothing is
half-loaded: either a complete, checked `Ruleset` comes back or a `CardrulesError` is raised.
`default_decks` lists the default deck files of every format, for `cardrules validate`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import CardrulesError, ErrorList, RulesError, Span, did_you_mean
from ..lang import ast
from ..lang.parser import parse_block, parse_expression
from . import rulepaths
from .avatars import read_avatars
from .card_types import read_card_types
from .checker import label_problems
from .code_attributes import read_code_spec
from .model import (
    MAX_DECISIONS,
    PLAYERS_OPTION,
    AttrSpec,
    DeckCover,
    DeckRules,
    DeckSection,
    EndCondition,
    MadeZone,
    OptionSpec,
    Phase,
    Requirement,
    Ruleset,
    Statistics,
    ZoneSpec,
)
from .observing import event_texts, observing_problems, read_observing
from .options import chosen_count, located_option, parse_option_value
from .overlay import source_overlay
from .reasons import reason_value
from .rounds import counter_globals, phase_name_problems, read_rounds
from .sources import parse_cards, parse_file, parse_text_at
from .teams import read_score, read_teams
from .yamlload import load_yaml

BUILTIN_GLOBALS = ("turn", "phase", "active")


class Source:
    """One loaded YAML rule file: its data and where each key path is in it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = str(path)
        self.data, self.marks = load_yaml(path)

    def span(self, *key_path) -> Span:
        return self.marks.span(key_path)

    def code_origin(self, *key_path) -> tuple[int, int, bool]:
        line, column, style = self.marks.value_origin(key_path)
        return line, column, style == "|"


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = _merge(base[k], v) if k in base else v
        return out
    return over


class _Located:
    """Which source file each top-level value came from (after `extends:` merging)."""

    def __init__(self) -> None:
        self.sources: dict[tuple, Source] = {}

    def record(self, source: Source, data: dict, prefix: tuple = ()) -> None:
        for k, v in data.items():
            self.sources[prefix + (k,)] = source
            if isinstance(v, dict):
                self.record(source, v, prefix + (k,))

    def source(self, *key_path) -> Source:
        for n in range(len(key_path), 0, -1):
            src = self.sources.get(tuple(key_path[:n]))
            if src is not None:
                return src
        return self.sources[()]


def _read_chain(path: Path, seen: tuple[Path, ...] = ()) -> tuple[dict, _Located, Source]:
    from .schema import validate

    if path in seen:
        raise RulesError(f"'extends' makes a cycle: {' -> '.join(str(p) for p in (*seen, path))}")
    src = Source(path)
    data = src.data
    if not isinstance(data, dict):
        raise RulesError("a ruleset file must be a mapping of keys", src.span())
    validate(data, src.marks, "ruleset", src.file)
    rulepaths.absolutize(data, path, src)
    located = _Located()
    if "extends" in data:
        base_path = rulepaths.extended(data["extends"], path, src.span("extends"))
        base, located, base_src = _read_chain(base_path, (*seen, path))
        merged = _merge(base, {k: v for k, v in data.items() if k != "extends"})
        # the variant alone may be partial; merged with its base it must be a whole ruleset
        validate(merged, base_src.marks.overlay(src.marks), "ruleset", src.file)
    else:
        merged = data
    located.sources[()] = src
    located.record(src, {k: v for k, v in data.items() if k != "extends"})
    return merged, located, src


def load_ruleset(name_or_path: str | Path, options: dict[str, Any] | None = None,
                 extra_cards: list[tuple[str, str, int, int]] = (),
                 override_cards: list[tuple[str, str, int, int]] = (),
                 sources: Mapping[str, str] | None = None, checked: bool = True) -> Ruleset:
    """Read, merge, validate and check a ruleset. Raises CardrulesError on any problem.

    extra_cards: card texts to add to the ruleset's cards, each (text, file, line, column) of
    where the text starts (a scenario's inline cards). override_cards: card texts, in the same
    form, whose cards replace the ruleset's cards of the same names (each must name one).
    sources: texts by path that stand in for those files on disk (an editor's unsaved text; the
    source overlay, overlay.py).
    checked=False: the ruleset as read and built, its code not checked (`definitions` None): what
    a caller compares with a ruleset checked before (scenarios/loading.py, a ruleset with other
    options); every error of reading and building it is raised as by a checked load.
    """
    with source_overlay(sources):
        path = paths.ruleset_path(str(name_or_path))
        data, located, top = _read_chain(path)
        builder = _Builder(data, located, top)
        builder.extra_cards = list(extra_cards)
        builder.override_cards = list(override_cards)
        return builder.build(options or {}, checked)


@dataclass(frozen=True)
class DefaultDeck:
    """A deck file a ruleset names as a default: of one format (or of the ruleset, format None)."""

    path: Path
    format: str | None
    span: Span  # its entry in the ruleset file


def default_decks(name_or_path: str | Path) -> tuple[str | None, list[DefaultDeck]]:
    """A ruleset's deck format option (or None) and every default deck file it names, those of
    each format too, through `extends:`. Raises CardrulesError if the rule files cannot be read."""
    data, located, _top = _read_chain(paths.ruleset_path(str(name_or_path)))
    decks = data.get("decks")
    if not isinstance(decks, dict):
        return None, []
    found: list[DefaultDeck] = []
    places = [((), None)] + [(("formats", f), str(f)) for f in decks.get("formats") or {}]
    for inner, fmt in places:
        key_path = ("decks", *inner, "default")
        entries = data
        for key in key_path:
            entries = entries.get(key) if isinstance(entries, dict) else None
        for i, file in enumerate(entries or ()):
            found.append(DefaultDeck(Path(file), fmt, located.source(*key_path).span(*key_path, i)))
    option = decks.get("format_option")
    return (str(option) if option is not None else None), found


class _Builder:
    def __init__(self, data: dict, located: _Located, top: Source) -> None:
        self.data = data
        self.located = located
        self.top = top
        self.errors: list[CardrulesError] = []
        self.extra_cards: list[tuple[str, str, int, int]] = []
        self.override_cards: list[tuple[str, str, int, int]] = []
        self.deck_format_option: str | None = None

    def span(self, *key_path) -> Span:
        src = self.located.source(*key_path)
        try:
            return src.span(*key_path)
        except (KeyError, IndexError, TypeError):
            return src.span()

    # --------------------------------------------------------------- pieces
    def attr_spec(self, name: str, raw: dict, *key_path) -> AttrSpec:
        kind = raw.get("type", "int")
        default = raw.get("default")
        required = "default" not in raw and kind in ("int", "text", "bool") and key_path[0] == "card_types"
        if default is None and kind == "list":
            default = []
        elif default is None and "default" not in raw:
            default = {"int": 0, "bool": False, "text": ""}.get(kind)
        self.check_limits(raw, default, key_path)
        values = tuple(str(v) for v in raw["values"]) if "values" in raw else None
        if values is not None and "default" not in raw:
            # (not "": an enumerated value is one of its values, or none yet; a card type's
            # attribute that its cards must print starts so on its tokens, which need not)
            default = None
        if values is not None and "default" in raw and default is not None and default not in values:
            self.errors.append(RulesError(f"attribute {name!r}: its default {default!r} is not one of its values: "
                                          f"{', '.join(values)}{did_you_mean(str(default), values)}",
                                          self.span(*key_path, "default")))
        shown_in = tuple(str(z) for z in raw["shown_in"]) if "shown_in" in raw else None
        if shown_in is not None and key_path[0] != "card_types":
            self.errors.append(RulesError(f"attribute {name!r}: shown_in says in which zones a card shows it; "
                                          f"{key_path[0].replace('_', ' ')} are not in a zone",
                                          self.span(*key_path, "shown_in"), hint="remove shown_in here"))
            shown_in = None
        params, returns = read_code_spec(self, name, raw, key_path)
        return AttrSpec(name, kind, default, raw.get("min"), raw.get("max"), raw.get("visibility", "public"),
                        required, self.span(*key_path), values, shown_in, params, returns)

    def player_option(self, raw: Any) -> OptionSpec:
        """The number of players as an option: `players: N` (a fixed count) or
        `players: {min, max, default}` (default: min), its min not above its max and its default
        within them."""
        if not isinstance(raw, dict):
            count = int(raw)
            return OptionSpec(PLAYERS_OPTION, "int", count, count, count, (), "the number of players",
                              self.span("players"))
        low, high = raw["min"], raw["max"]
        default = raw.get("default", low)
        if low > high:
            self.errors.append(RulesError(f"players: its min {low} is above its max {high}",
                                          self.span("players", "min")))
            high = low
        elif not low <= default <= high:
            self.errors.append(RulesError(f"players: its default {default} is {_outside(default, low, high)}",
                                          self.span("players", "default")))
            default = low
        return OptionSpec(PLAYERS_OPTION, "int", default, low, high, (),
                          raw.get("description", "the number of players"), self.span("players"))

    def check_others_zone(self, name: str, raw: dict) -> None:
        """`visibility: others` hides a zone's cards from its own player alone: a shared zone has
        no player of its own, so it would be public in all but name."""
        if raw.get("visibility") == "others" and raw.get("per", "player") != "player":
            self.errors.append(RulesError(
                f"zone {name!r}: visibility others shows its cards to every player but the zone's own, "
                "and a shared zone has no player of its own",
                self.span("zones", name, "visibility"),
                hint="make it `per: player`, or choose public, owner or hidden"))

    def check_limits(self, raw: dict, default: Any, key_path: tuple) -> None:
        """An attribute's `min` is not above its `max`, and its default is within them."""
        low, high = raw.get("min"), raw.get("max")
        if _is_int(low) and _is_int(high) and low > high:
            self.errors.append(RulesError(f"attribute {key_path[-1]!r}: its min {low} is above its max {high}",
                                          self.span(*key_path, "min")))
        elif _is_int(default) and "default" in raw and not _within(default, low, high):
            self.errors.append(RulesError(f"attribute {key_path[-1]!r}: its default {default} is "
                                          f"{_outside(default, low, high)}",
                                          self.span(*key_path, "default")))

    def label(self, tname: str, template: Any, attributes: dict[str, AttrSpec]) -> str | None:
        """A card type's label, checked: its fields name attributes of that card type or card
        properties, each shown plainly (a format spec only on a number or a text)."""
        if template is None:
            return None
        for problem in label_problems(str(template), tname, attributes):
            self.errors.append(RulesError(problem, self.span("card_types", tname, "label")))
        return str(template)

    def code(self, text: str, *key_path) -> tuple[ast.Stmt, ...]:
        src = self.located.source(*key_path)
        line, column, block = src.code_origin(*key_path)
        return parse_block(str(text), src.file, line, column, block)

    def expression(self, text: str, *key_path) -> ast.Expr:
        src = self.located.source(*key_path)
        line, column, _block = src.code_origin(*key_path)
        return parse_expression(str(text), src.file, line, column)

    def overridden(self, card_modules: list[ast.Module]) -> list[ast.Module]:
        """The card modules with each card that an override text defines replaced by its new
        definition; an override naming no card of the ruleset is an error there."""
        overrides = []
        for text, file, line, column in self.override_cards:
            m = self.guarded(parse_text_at, text, file, line, column)
            if m is not None:
                overrides.append(m)
        known = {item.name for m in card_modules for item in m.items if isinstance(item, ast.CardDef)}
        replaced = set()
        for m in overrides:
            for item in m.items:
                if not isinstance(item, ast.CardDef):
                    self.errors.append(RulesError("an override file redefines cards only; this is not a card",
                                                  item.span))
                elif item.name not in known:
                    self.errors.append(RulesError(f"the override redefines {item.name!r}, but the ruleset has no "
                                                  f"card of that name{did_you_mean(item.name, known)}", item.span))
                else:
                    replaced.add(item.name)
        kept = [ast.Module(tuple(i for i in m.items if not (isinstance(i, ast.CardDef) and i.name in replaced)),
                           m.span) for m in card_modules]
        return kept + overrides

    def statistics(self, raw: dict) -> Statistics:
        key = ("statistics",)
        score = self.guarded(self.expression, raw["score"], *key, "score") if "score" in raw else None
        counters = []
        for name, text in (raw.get("counters") or {}).items():
            expr = self.guarded(self.expression, text, *key, "counters", name)
            if expr is not None:
                counters.append((name, expr))
        return Statistics(hand=raw.get("hand"), played=tuple(raw.get("played") or ()), picked=raw.get("picked"),
                          offered=raw.get("offered"), score=score, counters=tuple(counters),
                          timeouts=tuple(raw.get("timeouts") or ()), attributes=tuple(raw.get("attributes") or ()),
                          spans=self.statistics_spans(raw))

    def statistics_spans(self, raw: dict) -> dict[str, Span]:
        spans = {name: self.span("statistics", name) for name in ("hand", "picked", "offered") if name in raw}
        for i, _event in enumerate(raw.get("played") or ()):
            spans[f"played.{i}"] = self.span("statistics", "played", i)
        for i, _name in enumerate(raw.get("attributes") or ()):
            spans[f"attributes.{i}"] = self.span("statistics", "attributes", i)
        return spans

    def deck_rules(self, raw: dict, options: dict[str, Any]) -> DeckRules:
        """The deck rules, with the entry of `formats` that the format option picks merged in."""
        if "format_option" in raw:
            option = raw["format_option"]
            self.deck_format_option = option
            if option not in options:
                self.errors.append(RulesError(f"decks.format_option names {option!r}, which is not an option"
                                              f"{did_you_mean(option, options)}", self.span("decks", "format_option")))
            elif options[option] is not None:  # (None: the option's value is wrong, and reported)
                chosen = (raw.get("formats") or {}).get(str(options[option]))
                if chosen is None:
                    self.errors.append(RulesError(f"decks.formats has no entry for {option} = {options[option]!r}",
                                                  self.span("decks", "formats")))
                else:
                    raw = _merge(raw, chosen)
        sections = []
        for name, sec in (raw.get("sections") or {}).items():
            counts = tuple((c["attribute"], c["value"], c["count"]) for c in sec.get("counts") or ())
            sections.append(DeckSection(name, sec["zone"], sec.get("size"), sec.get("min_size"),
                                        tuple(sec["allowed_types"]) if "allowed_types" in sec else None, counts))
        cover = None
        if "cover" in raw:
            c = raw["cover"]
            cover = DeckCover(c["attribute"], c["section"], c["by"])
        made = tuple(MadeZone(m["zone"], tuple(m["types"]) if "types" in m else None, m.get("copies", 1),
                              self.span("decks", "made", i)) for i, m in enumerate(raw.get("made") or ()))
        return DeckRules(raw.get("zone", "deck"), raw.get("size"), raw.get("min_size"), raw.get("max_copies"),
                         tuple(raw["allowed_types"]) if "allowed_types" in raw else None,
                         tuple(raw.get("default", ())), self.span("decks"), tuple(sections), cover, made)

    def read_entry(self, path: Path, key: str, index: int) -> list[ast.Module]:
        """The modules of one `code:` or `cards:` entry (a path checked by _absolutize); one that
        names nothing, or that cannot be read, is an error at the entry."""
        what = "file" if key == "code" else "card folder or file"
        try:
            if not path.exists():
                raise RulesError(f"no such {what}: {path}", self.span(key, index),
                                 hint=f"{key}: entries are relative to the ruleset file's folder")
            if key == "code":
                if path.is_dir():
                    raise RulesError(f"code file {path} is a folder", self.span(key, index),
                                     hint="code: names files of rule code (*.rules)")
                return parse_file(path, ".rules")
            return parse_cards(path)
        except RulesError as err:
            if err.span is None:
                raise RulesError(err.message, self.span(key, index), err.hint) from None
            raise
        except OSError as err:  # (unreadable: its permissions; never its content)
            raise RulesError(f"cannot read {what} {err.filename or path}: {err.strerror}",
                             self.span(key, index)) from None

    def guarded(self, fn, *args):
        try:
            return fn(*args)
        except ErrorList as err:
            self.errors.extend(err.errors)
        except CardrulesError as err:
            self.errors.append(err)
        return None

    # --------------------------------------------------------------- the whole ruleset
    def build(self, option_values: dict[str, Any], checked: bool = True) -> Ruleset:
        d = self.data
        option_specs = {}
        for name, raw in (d.get("options") or {}).items():
            if name == PLAYERS_OPTION:
                self.errors.append(RulesError(
                    f"'{PLAYERS_OPTION}' is the option of the number of players: declare it as the top-level "
                    f"players: {{min: 2, max: 4, default: 2}}, not in options", self.span("options", name)))
                continue
            option_specs[name] = OptionSpec(
                name, raw.get("type", "int"), raw.get("default"), raw.get("min"), raw.get("max"),
                tuple(str(v) for v in raw.get("values", ())), raw.get("description", ""),
                self.span("options", name), bool(raw.get("nullable", False)), raw.get("of"))
        options = {}
        for name, spec in option_specs.items():
            options[name] = self.guarded(located_option, spec, spec.default, self.span("options", name, "default"))
        players = self.player_option(d.get("players", 2))
        if players.min != players.max:  # a range: the count is an option like the others
            option_specs[PLAYERS_OPTION] = players
            options[PLAYERS_OPTION] = players.default
        player_count = players.default
        for name, raw in option_values.items():
            if name == PLAYERS_OPTION:
                count = self.guarded(chosen_count, players, raw, d["name"])
                if count is not None:
                    player_count = count
                    if PLAYERS_OPTION in options:
                        options[PLAYERS_OPTION] = count
                continue
            if name not in option_specs:
                self.errors.append(RulesError(
                    f"{d['name']} has no option {name!r}{did_you_mean(name, option_specs)}",
                    hint="options: " + (", ".join(sorted(option_specs)) or "none")))
                continue
            options[name] = self.guarded(parse_option_value, option_specs[name], raw)

        zones = {}
        for name, raw in (d.get("zones") or {}).items():
            zones[name] = ZoneSpec(name, raw.get("per", "player") == "player", bool(raw.get("ordered", False)),
                                   raw.get("visibility", "public"), bool(raw.get("active", False)),
                                   tuple(raw.get("rows", ())), self.span("zones", name))
            self.check_others_zone(name, raw)
        globals_ = {n: self.attr_spec(n, r, "globals", n) for n, r in (d.get("globals") or {}).items()}
        for n in globals_:
            if n in BUILTIN_GLOBALS:
                self.errors.append(RulesError(f"'{n}' is a built-in global (game.{n}); choose another name",
                                              self.span("globals", n)))
        player_attrs = {n: self.attr_spec(n, r, "player_attributes", n)
                        for n, r in (d.get("player_attributes") or {}).items()}
        teams = read_teams(self, d.get("teams"), player_count)
        score = read_score(self, d.get("score"), teams, player_attrs)
        card_types = read_card_types(self, d.get("card_types") or {}, zones)
        avatars, avatar_modules = read_avatars(self, d.get("avatars"), zones, card_types)

        modules = list(avatar_modules)  # (first: a rule file defining avatar() again is told at its own line)
        for i, file in enumerate(d.get("code") or []):
            m = self.guarded(self.read_entry, Path(file), "code", i)
            if m is not None:
                modules.extend(m)
        card_modules = []
        for i, folder in enumerate(d.get("cards") or []):
            m = self.guarded(self.read_entry, Path(folder), "cards", i)
            if m is not None:
                card_modules.extend(m)

        for text, file, line, column in self.extra_cards:
            m = self.guarded(parse_text_at, text, file, line, column)
            if m is not None:
                card_modules.append(m)
        if self.override_cards:
            card_modules = self.overridden(card_modules)

        setup = self.guarded(self.code, d.get("setup", ""), "setup") if d.get("setup") else ()
        turn = d.get("turn") or {}
        phases = []
        for i, raw in enumerate(turn.get("phases") or []):
            body = self.guarded(self.code, raw.get("do", ""), "turn", "phases", i, "do")
            phases.append(Phase(raw["name"], body or (), self.span("turn", "phases", i)))
        taken = {**{n: "a built-in global" for n in BUILTIN_GLOBALS}, **{n: "a global" for n in globals_},
                 **{n: "a player attribute" for n in player_attrs}}
        rounds = read_rounds(self, turn, taken)
        self.errors.extend(phase_name_problems(rounds, phases))
        globals_.update(counter_globals(rounds))
        end = []
        for i, raw in enumerate(d.get("end") or []):
            when = self.guarded(self.expression, raw["when"], "end", i, "when")
            winner = self.guarded(self.expression, raw["winner"], "end", i, "winner") if "winner" in raw else None
            loser = self.guarded(self.expression, raw["loser"], "end", i, "loser") if "loser" in raw else None
            draw = "draw" in raw and raw["draw"] is not False
            reason = raw.get("reason") or _default_reason(raw)
            check_on = tuple(raw["check_on"]) if "check_on" in raw else None
            valued = self.guarded(reason_value, self, raw["reason"], "end", i, "reason") if "reason" in raw else None
            if when is not None:
                end.append(EndCondition(when, winner, loser, draw, str(reason), check_on, self.span("end", i),
                                        valued))
        requires = []
        for i, raw in enumerate(d.get("requires") or []):
            that = self.guarded(self.expression, raw["that"], "requires", i, "that")
            if that is not None:
                requires.append(Requirement(that, raw["message"], self.span("requires", i, "that")))
        evaluate = self.guarded(self.expression, d["evaluate"], "evaluate") if "evaluate" in d else None
        statistics = self.statistics(d.get("statistics") or {})
        reward = self.guarded(self.expression, d["reward"], "reward") if "reward" in d else None
        decks = None
        if "decks" in d:
            decks = self.deck_rules(d["decks"], options)
        if self.errors:
            raise ErrorList(self.errors) if len(self.errors) > 1 else self.errors[0]
        ruleset = Ruleset(
            name=d["name"], title=d.get("title", d["name"]), file=self.top.file,
            player_count=player_count, player_range=(players.min, players.max), option_specs=option_specs,
            options=options, zones=zones,
            globals=globals_, player_attributes=player_attrs, card_types=card_types,
            events=event_texts(d.get("events")), modules=modules, card_modules=card_modules, setup=setup or (),
            turn_active=turn.get("active", "none"), phases=phases, end=end, decks=decks, requires=requires,
            step_budget=int(d.get("step_budget", 200_000)),
            max_decisions=int((d.get("limits") or {}).get("max_decisions", MAX_DECISIONS)), evaluate=evaluate, statistics=statistics,
            reward=reward, rounds=rounds, observing=read_observing(d.get("events"), d.get("observation"), self.span),
            deck_format_option=self.deck_format_option, teams=teams, score=score, avatars=avatars)
        if not checked:
            return ruleset
        from .checker import check_ruleset

        check_ruleset(ruleset)
        problems = observing_problems(ruleset)
        if problems:
            raise ErrorList(problems) if len(problems) > 1 else problems[0]
        return ruleset


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _within(value: int, low: Any, high: Any) -> bool:
    return not (_is_int(low) and value < low) and not (_is_int(high) and value > high)


def _outside(value: int, low: Any, high: Any) -> str:
    """Why value is not within [low, high]: 'below its min 0' or 'above its max 10'."""
    return f"below its min {low}" if _is_int(low) and value < low else f"above its max {high}"


def _default_reason(raw: dict) -> str:
    """The reason an end condition without `reason:` reports: a draw's text (or "draw"); for a
    winner or a loser, its `when` as written (a winner is no draw, so "draw" would mislead)."""
    if "draw" in raw and raw["draw"] is not False:
        return raw["draw"] if isinstance(raw["draw"], str) else "draw"
    return " ".join(str(raw["when"]).split())
