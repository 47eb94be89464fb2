"""Ruleset options' values: what an option takes, in words, and one value type-checked against
its declaration (from YAML, from Python or from `--option NAME=VALUE` text), a wrong one a
RulesError naming the option and what it takes."""

from __future__ import annotations

from typing import Any

from ..errors import RulesError, Span, did_you_mean
from .model import PLAYERS_OPTION, OptionSpec

# the word that stands for no value in `--option NAME=none` (a nullable option's "nothing")
NONE_WORD = "none"


def option_takes(spec: OptionSpec) -> str:
    """What an option takes, in words: 'a whole number from 1 to 5', 'one of a, b, or none',
    'a list of whole numbers from 1 to 5 (comma-separated)', ..."""
    if spec.type == "list":
        what = f"a list of {_item_words(spec, spec.of or 'text', plural=True)} (comma-separated)"
    else:
        what = _item_words(spec, spec.type)
    return f"{what}, or none" if spec.nullable else what


def _item_words(spec: OptionSpec, kind: str, plural: bool = False) -> str:
    if kind == "int":
        number = "whole numbers" if plural else "a whole number"
        if spec.min is not None and spec.max is not None:
            return f"{number} from {spec.min} to {spec.max}"
        if spec.min is not None:
            return f"{number}, at least {spec.min}"
        if spec.max is not None:
            return f"{number}, at most {spec.max}"
        return number
    if kind == "bool":
        return "true or false"
    if kind == "choice":
        return ("values among " if plural else "one of ") + ", ".join(spec.values)
    return "texts" if plural else "any text"


def parse_option_value(spec: OptionSpec, raw: Any) -> Any:
    """Type-check one option value (from YAML, Python or `--option k=v` text); raise RulesError
    naming the option and what it takes if it is wrong. `none` (or None) is the value of a
    nullable option; a list is given as a list, or as text with its items between commas."""
    if raw is None or (spec.nullable and isinstance(raw, str) and raw.strip().lower() == NONE_WORD):
        if spec.nullable:
            return None
        raise RulesError(f"option {spec.name} takes {option_takes(spec)}, not none",
                         hint="declare the option with nullable: true to allow none")
    if spec.type != "list":
        return _option_item(spec, spec.type, raw, f"option {spec.name}", option_takes(spec))
    if isinstance(raw, str):
        items: list[Any] = [item.strip() for item in raw.split(",")] if raw.strip() else []
    elif isinstance(raw, (list, tuple)):
        items = list(raw)
    else:
        raise RulesError(f"option {spec.name} takes {option_takes(spec)}, not {raw!r}")
    kind = spec.of or "text"
    return [_option_item(spec, kind, item, f"option {spec.name}, item {i},", _item_words(spec, kind))
            for i, item in enumerate(items, start=1)]


def _option_item(spec: OptionSpec, kind: str, raw: Any, what: str, takes: str) -> Any:
    """One value of an option of this kind (an option's value, or an item of a list option's);
    `what` names it in a message, `takes` says what it takes."""
    value = raw
    if kind == "int":
        if isinstance(raw, str):
            try:
                value = int(raw)
            except ValueError:
                raise RulesError(f"{what} takes {takes}, not {raw!r}") from None
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{what} takes {takes}, not {raw!r}")
        bounds = f" ({_item_words(spec, kind)})" if spec.min is not None and spec.max is not None else ""
        if spec.min is not None and value < spec.min:
            raise RulesError(f"{what} must be at least {spec.min}, not {value}{bounds}")
        if spec.max is not None and value > spec.max:
            raise RulesError(f"{what} must be at most {spec.max}, not {value}{bounds}")
    elif kind == "bool":
        if isinstance(raw, str):
            lowered = raw.lower()
            if lowered not in ("true", "false", "yes", "no", "1", "0"):
                raise RulesError(f"{what} takes {takes}, not {raw!r}")
            value = lowered in ("true", "yes", "1")
        if not isinstance(value, bool):
            raise RulesError(f"{what} takes {takes}, not {raw!r}")
    elif kind == "text":
        if not isinstance(raw, str):
            raise RulesError(f"{what} takes {takes}, not {raw!r}")
    else:
        if isinstance(raw, (list, tuple, dict)):
            raise RulesError(f"{what} takes {takes}, not {raw!r}")
        value = str(raw)
        if value not in spec.values:
            raise RulesError(f"{what} takes {takes}, not {raw!r}" + did_you_mean(value, spec.values))
    return value


def chosen_count(players: OptionSpec, raw: Any, game: str) -> int:
    """The number of players asked for (`--option players=N`), within the ruleset's range."""
    if players.min != players.max:
        return parse_option_value(players, raw)
    count = parse_option_value(OptionSpec(PLAYERS_OPTION, "int", None, 1, None, (), "", players.span), raw)
    if count != players.min:
        raise RulesError(f"option {PLAYERS_OPTION}: {game} is played by {players.min} players exactly, not {count}",
                         hint="a ruleset for more or fewer players declares players: {min: 2, max: 4, default: 2}")
    return count


def located_option(spec: OptionSpec, raw: Any, span: Span) -> Any:
    """An option's value from a rule file, a wrong one an error at its place there."""
    try:
        return parse_option_value(spec, raw)
    except RulesError as err:
        raise RulesError(err.message, span) from None
