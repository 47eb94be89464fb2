"""What a ruleset says about observations beyond its zones and attributes: who witnesses each
event (an event's `visibility`), how many of the latest witnessed events an observation lists
(`observation: {seen: N}`) and which decisions' prompts only the deciding player sees
(`observation: {private_prompts: [...]}`). Read from the YAML by the loader, checked against the
rule code here; the engine compiles it (`Rules.event_witnesses`, `Rules.private_sites`).

Event visibility, per declared event (a plain template is `public`; `null`, an event not
printed, a check point, is `hidden`):

- `public`: every player witnesses it (an event the rules emit without declaring it too);
- `hidden`: nobody does (it is still logged and triggers abilities);
- `player:ARG`: only the player passed in the event's argument ARG (`owner` is short for
  `player:player`); an emit that passes no ARG is an error at load.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import Span, ValidationError, did_you_mean
from ..lang import ast
from .model import Observing, Ruleset

PUBLIC = "public"
HIDDEN = "hidden"
OWNER = "owner"
PLAYER_PREFIX = "player:"


def event_texts(raw_events: dict | None) -> dict[str, str | None]:
    """The log template of each declared event (`{text: ...}` entries read as their text)."""
    out: dict[str, str | None] = {}
    for name, raw in (raw_events or {}).items():
        out[name] = raw.get("text") if isinstance(raw, dict) else raw
    return out


def read_observing(raw_events: dict | None, raw: dict | None, span: Callable[..., Span]) -> Observing:
    """The ruleset's `observation:` key and its events' visibility (`span(*key_path)`: where a
    key is written, for errors found later)."""
    raw = raw or {}
    visibility: dict[str, str] = {}
    spans: dict[str, Span] = {}
    for name, entry in (raw_events or {}).items():
        if entry is None:
            visibility[name] = HIDDEN
        elif isinstance(entry, dict) and entry.get("visibility", PUBLIC) != PUBLIC:
            seen_by = entry["visibility"]
            visibility[name] = PLAYER_PREFIX + "player" if seen_by == OWNER else seen_by
    prompts = tuple(raw.get("private_prompts") or ())
    for i, _prompt in enumerate(prompts):
        spans[f"private_prompts.{i}"] = span("observation", "private_prompts", i)
    return Observing(seen=int(raw.get("seen", Observing.seen)), event_visibility=visibility,
                     private_prompts=prompts, spans=spans)


def witness_argument(visibility: str) -> str | None:
    """The argument that names the one witness of an event of this visibility, if it has one."""
    return visibility[len(PLAYER_PREFIX):] if visibility.startswith(PLAYER_PREFIX) else None


def written_prompts(ruleset: Ruleset) -> dict[str, list[Any]]:
    """Every prompt written in a `choose` or `may` of the rule code and cards, with its nodes."""
    found: dict[str, list[Any]] = {}
    for node in ruleset.code_nodes():
        if isinstance(node, (ast.Choose, ast.May)) and node.label is not None:
            found.setdefault(node.label, []).append(node)
    return found


def observing_problems(ruleset: Ruleset) -> list[ValidationError]:
    """What the rule code contradicts: a private prompt that no decision is asked with, an emit
    of an event seen by the player in an argument that it does not pass."""
    observing = ruleset.observing
    problems = []
    prompts = written_prompts(ruleset)
    for i, prompt in enumerate(observing.private_prompts):
        if prompt not in prompts:
            problems.append(ValidationError(
                f"private prompt {prompt!r} is the prompt of no choose or may{did_you_mean(prompt, prompts)}",
                observing.spans.get(f"private_prompts.{i}"),
                hint="list a prompt as written in the rule code or a card: choose \"PROMPT\" from ..."))
    arguments = {name: witness_argument(v) for name, v in observing.event_visibility.items()}
    for node in ruleset.code_nodes():
        if isinstance(node, ast.Emit) and arguments.get(node.event):
            argument = arguments[node.event]
            if argument not in {a.name for a in node.args}:
                declared = OWNER if argument == "player" else PLAYER_PREFIX + argument
                problems.append(ValidationError(
                    f"event {node.event!r} is seen only by the player in its argument {argument!r} "
                    f"(visibility: {declared}), but this emit passes no {argument!r}",
                    node.span, hint=f"pass it: emit {node.event}({argument}: PLAYER, ...)"))
    return problems
