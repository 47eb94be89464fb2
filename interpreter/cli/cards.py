"""`cardrules cards`: the cards of a ruleset as a table, or one card in full.

One card shows where it is written (file:line), its printed rules text (`text = "..."`), its source
as written, its canonical form (the language's printer) and its abilities, its own and those its
keywords bring. The table has a text column when some card has printed text.

What is printed does not depend on where the checkout lies or on the terminal's width: files are
shown relative to the working folder (or the shipped data), the lines of one card are printed
whole (the terminal wraps them; rich neither breaks nor cuts them), and the table's cells wrap,
long words folded, instead of ending in "…".
"""

from __future__ import annotations

from pathlib import Path

from ..errors import did_you_mean
from .common import UsageError, out_console, shown


def _value(v) -> str:
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "none"
    if isinstance(v, str):
        return repr(v) if v == "" else v
    return str(v)


def _attrs(defn) -> str:
    """The attributes printed on the card (not the card type's defaults)."""
    return ", ".join(f"{k} {_value(v)}" for k, v in (getattr(defn, "attrs", None) or {}).items())


def _keywords(defn) -> str:
    out = []
    for name, args in defn.keywords:
        out.append(name + (f" {' '.join(_value(a) for a in args)}" if args else ""))
    return ", ".join(out)


def _where(span, short: bool = False, column: bool = False) -> str:
    if span is None or not span.line:
        return "-"
    return f"{Path(span.file).name if short else shown(span.file)}:{span.line}" + (f":{span.column}" if column else "")


def _kind(rules, defn) -> str:
    """The card's type, with those it extends: 'token_piece, a piece'."""
    ctype = rules.ruleset.card_types.get(defn.type)
    parents = (ctype.lineage[1:] if ctype is not None else ())
    return defn.type + "".join(f", a {p}" for p in parents)


def find_card(rules, name: str):
    defs = rules.card_defs
    if name in defs:
        return defs[name]
    folded = [d for n, d in defs.items() if n.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise UsageError(f"{rules.name} has no card named {name!r}{did_you_mean(name, defs)} "
                     f"('cardrules cards {rules.name}' lists its {len(defs)} cards)")


def list_cards(rules) -> int:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(f"{rules.title}: {len(rules.card_defs)} cards"))
    texts = any(getattr(defn, "text", None) for defn in rules.card_defs.values())  # (a column only if some card has text)
    for column in ("name", "type", "attributes", "keywords", "parts", "abilities", *(["text"] if texts else []),
                   "where"):
        table.add_column(column, overflow="fold")  # (a narrow terminal wraps a cell, never cuts it)
    for name, defn in rules.card_defs.items():
        kind = _kind(rules, defn) + (" (token)" if defn.token else "")
        table.add_row(Text(name), Text(kind), Text(_attrs(defn)), Text(_keywords(defn)),
                      Text(", ".join(defn.parts)), Text(str(len(defn.abilities)) if defn.abilities else ""),
                      *([Text(defn.text or "")] if texts else []), Text(_where(defn.span, short=True)))
    out_console().print(table)
    return 0


def _source_text(span) -> str | None:
    """The card's text as written in its file (its span's lines)."""
    if span is None or not span.line:
        return None
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    end = span.end_line or span.line
    return "\n".join(lines[span.line - 1:end])


def _ability_line(ability, via: str = "") -> str:
    kind = ability.kind
    text = kind
    if kind in ("triggered", "replacement"):
        text += f" {'on' if kind == 'triggered' else 'instead of'} {ability.event}"
    if kind == "static":
        text += " " + ", ".join(getattr(e, "attr", "") or f"grants {getattr(e, 'keyword', '')}"
                                for e in ability.statics)
    if kind == "activated" and ability.label:
        text += f" {ability.label!r}"
    if ability.condition is not None:
        text += " (with a condition)"
    if ability.part:
        text += f", while part {ability.part}"
    if via:
        text += f", from keyword {via}"
    if ability.span is not None and ability.span.line:
        text += f"  [{_where(ability.span)}]"
    return text


def show_card(rules, name: str) -> int:
    from rich.rule import Rule
    from rich.text import Text

    defn = find_card(rules, name)
    console = out_console()

    def say(text: str, **style) -> None:  # (a whole line: the terminal wraps it, rich does not)
        console.print(Text(text, **style), soft_wrap=True)

    say(f"{defn.name}  ({_kind(rules, defn)}{', token' if defn.token else ''})", style="bold")
    say(f"defined at {_where(defn.span)}")
    if getattr(defn, "text", None):
        say(f"text: {defn.text}")
    made = getattr(defn.source, "made_by", None)
    if made is not None:  # a card made by a template: which, and with which values
        say(f"made by {made.describe(where=_where(made.template.span, column=True))}")
    initial = {k: v for k, v in (getattr(defn, "initial", {}) or {}).items() if k not in defn.code}  # (code: below)
    if initial:
        say("attributes: " + ", ".join(f"{k} {_value(v)}" for k, v in initial.items()))
    if defn.keywords:
        say("keywords: " + _keywords(defn))
    if defn.parts:
        say("parts: " + ", ".join(defn.parts))

    console.print(Rule(Text("source")))
    source = _source_text(defn.span)
    say(source if source is not None else "(the source file cannot be read)")

    console.print(Rule(Text("canonical form")))
    say(_canonical(defn))

    console.print(Rule(Text("abilities")))
    lines = [_ability_line(a) for a in defn.abilities]
    keyword_abilities = getattr(rules, "keyword_abilities", {})
    for kw_name, _args in defn.keywords:
        lines += [_ability_line(a, via=kw_name) for a in keyword_abilities.get(kw_name, ())]
    lines += [f"part {p}: its effect when it resolves" for p in defn.parts]
    for line in lines:
        say(f"- {line}")
    if not lines:
        say("none")
    return 0


def _canonical(defn) -> str:
    if defn.source is None:
        return "(no source)"
    try:
        from ..lang.printer import to_source
    except ImportError as err:
        return f"(the printer is not available: {err})"
    try:
        return to_source(defn.source)
    except Exception as err:  # the printer is young: show the rest of the card anyway
        return f"(the printer failed on this card: {type(err).__name__}: {err})"


def run_cards(rules, name: str | None) -> int:
    return show_card(rules, name) if name else list_cards(rules)
