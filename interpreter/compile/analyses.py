"""What the rules' code does, worked out once when a ruleset is compiled (`compile_ruleset`,
compile/program.py): the events abilities listen to, the attributes static abilities read or
modify, the zones whose changes may change continuous effects, who witnesses each event, the
private prompts, the keywords a static ability may grant, limits shared by every declaration of
an attribute, and the anchors of replacements. Each reads the lowered form of the code
(lang/lower.py's `LoweredRuleset`: its definitions by name, and the code as written, `nodes`)."""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import Span
from ..lang import ir
from ..lang.checker import BUILTIN_EVENTS
from ..lang.code_members import CALL
from ..lang.lower import LoweredRuleset
from ..rules.model import Ruleset
from ..rules.observing import HIDDEN, witness_argument, written_prompts
from .sites import site_key

# what reads an attribute: `c.NAME`, `game.NAME`, `options.NAME`, `event.NAME`
_ATTRIBUTES = (ir.GetAttr, ir.Global, ir.Option, ir.EventArg)


def ability_events(low: LoweredRuleset) -> tuple[set[str], set[str]]:
    """Events some triggered ability listens to, procedures some replacement replaces."""
    triggers: set[str] = set()
    replaced: set[str] = set()
    for a in all_abilities(low):
        if a.kind == "triggered":
            triggers.add(a.event)
        elif a.kind == "replacement":
            replaced.add(a.event)
    return triggers, replaced


def all_abilities(low: LoweredRuleset) -> Iterator[ir.Ability]:
    """The abilities of every card (its own and its parts') and of every keyword."""
    for card in low.cards.values():
        yield from card.abilities
        for part in card.parts:
            yield from part.abilities
    for keyword in low.keywords.values():
        yield from keyword.abilities


_TEMPORARY = ("modify_until", "grant_until", "silence")


def until_events(low: LoweredRuleset) -> set[str]:
    """Events named by `modify ... until E` and `grant ... until E` anywhere in the code."""
    return {n.arg("until") for n in low.nodes() if type(n) is ir.GameOp and n.op in _TEMPORARY and n.arg("until")}


# what a move clears or reads on a card besides its place and a reveal to every player: an
# attachment, a silence, effects that last while it stays in its zone (`until it leaves`), the
# players it was shown to (`reveal c to P`)
_MARKING_OPS = frozenset({"attach", "detach", "silence", "modify_until", "grant_until"})


def plain_moves(low: LoweredRuleset, watched: frozenset[str], wanted: set[str]) -> bool:
    """Whether moving a card of this ruleset changes nothing but where it is and, for a card going
    to its first owner, its owner, and for a card revealed to every player, that it no longer
    is, once nothing keeps what each player saw (`stamps_kept` in engine/state_fields.py): no
    ability is static, triggered or a replacement (time stamps order those, and nothing else
    reads them), no code attaches, silences, makes effects that last a while or reveals cards to
    some players only, no zone is watched by effects and no rule waits for `moved`."""
    if watched or "moved" in wanted:
        return False
    if any(a.kind in ("static", "triggered", "replacement") for a in all_abilities(low)):
        return False
    return not any(type(n) is ir.GameOp and n.op in _MARKING_OPS
                   or type(n) is ir.Call and n.name == "reveal" and len(n.args) > 1 for n in low.nodes())


def modified_attributes(low: LoweredRuleset) -> set[str]:
    """Attribute names some static ability or `modify ... until` changes: every other attribute
    reads as its stored value, which compiled code may read directly."""
    targets = [n.arg("target") if type(n) is ir.GameOp else n.target for n in low.nodes()
               if type(n) is ir.GameOp and n.op == "modify_until" or type(n) is ir.StaticEffect and n.kind == "modify"]
    return {t.name for t in targets if type(t) in _ATTRIBUTES}


def static_nodes(low: LoweredRuleset) -> Iterator[ir.Node]:
    """Every node of every static ability, and of every function they call (transitively), and
    of every card's code they call (`call(c.NAME, ...)`)."""
    pending: list = [a for a in all_abilities(low) if a.kind == "static"]
    seen_functions: set[str] = set()
    while pending:
        for node in ir.walk(pending.pop()):
            yield node
            if type(node) is not ir.Call:
                continue
            name = node.name
            if name in low.functions and name not in seen_functions:
                seen_functions.add(name)
                fn = low.functions[name]
                pending.append(fn.value if fn.value is not None else fn.body)
            if (name == CALL and CALL not in low.functions and node.args and type(node.args[0]) in _ATTRIBUTES
                    and f"code {node.args[0].name}" not in seen_functions):  # every card's code of it
                code = node.args[0].name
                seen_functions.add(f"code {code}")
                pending.extend(fn.value if fn.value is not None else fn.body for c in low.cards.values()
                               for fn in c.code if fn.name == code)


def static_reads(low: LoweredRuleset) -> set[str]:
    """Attribute names that static abilities read (directly or through functions they call):
    writing one of them invalidates the cached targets of continuous effects."""
    return {node.name for node in static_nodes(low) if type(node) in _ATTRIBUTES}


_LOCATION_READERS = {"position", "zone", "row"}
_REACHES_ANY_CARD = {"attachments"}  # built-ins that may give a card in any zone


def watched_zones(ruleset, low: LoweredRuleset, static_reads: set[str]) -> frozenset[str]:
    """The zones whose changes may change what continuous effects do: the active zones (where
    static, triggered and replacement abilities work) and every zone a static ability reads
    (directly or through functions). A move between two other zones leaves the cached effects
    valid. Where a static ability may both get hold of a card in any zone (through a card-valued
    attribute) and read where a card is, every zone is watched."""
    zones = {z.name for z in ruleset.zones.values() if z.active}
    locates = reaches_any = False
    for node in static_nodes(low):
        if type(node) is ir.Call:
            if node.name in ruleset.zones:
                zones.add(node.name)
            elif node.name in _LOCATION_READERS:
                locates = True
            elif node.name in _REACHES_ANY_CARD:
                reaches_any = True
        elif type(node) in _ATTRIBUTES and node.name in _LOCATION_READERS:
            locates = True
    card_valued = {"attached_to"} | {a.name for a in declared_attributes(ruleset) if a.type in ("card", "list", "ability")}
    if static_reads & card_valued:
        reaches_any = True
    if locates and reaches_any:
        return frozenset(ruleset.zones)
    return frozenset(zones)


def event_witnesses(ruleset: Ruleset, low: LoweredRuleset) -> dict[str, str]:
    """Who witnesses each event the rules declare or emit (see rules/observing.py): "" for every
    player, else the argument that names the one player who does. Events nobody witnesses
    (`hidden`) and the built-in ones (emitted only when a rule waits for them) are left out."""
    visibility = ruleset.observing.event_visibility
    names = set(ruleset.events) | {node.event for node in low.nodes() if type(node) is ir.Emit}
    witnesses = {}
    for name in sorted(names - set(BUILTIN_EVENTS)):
        seen_by = visibility.get(name)
        if seen_by != HIDDEN:
            witnesses[name] = (witness_argument(seen_by) if seen_by else None) or ""
    return witnesses


def private_points(ruleset: Ruleset) -> tuple[Span, ...]:
    """The spans of every `choose` and `may` asked with a private prompt, in the order of their
    place (file, line, column)."""
    private = set(ruleset.observing.private_prompts)
    spans = {site_key(node.span): node.span for prompt, nodes in written_prompts(ruleset).items()
             if prompt in private for node in nodes}
    return tuple(spans[key] for key in sorted(spans))


def grantable_keywords(card_defs) -> frozenset[str]:
    """Every keyword that a static ability may grant: only cards' own static abilities (printed,
    and those of their printed keywords) are ever active, so their grants are all known here."""
    found = set()
    for defn in card_defs:
        for ability, local_values in defn.static_abilities:
            for eff in ability.statics:
                if eff.mode == "grant":
                    found.add(eff.keyword or local_values[eff.keyword_param])
    return frozenset(found)


def declared_attributes(ruleset: Ruleset) -> list:
    """Every declared attribute: the game's, the players', each card type's."""
    return [*ruleset.globals.values(), *ruleset.player_attributes.values(),
            *(a for t in ruleset.card_types.values() for a in t.attributes.values())]


def uniform_limits(ruleset, names: set[str]) -> dict[str, tuple]:
    """The limits (min, max) of each of these attributes that has the same ones wherever it is
    declared (on players and on every card type that has it)."""
    out: dict[str, tuple] = {}
    for name in names:
        specs = [ruleset.player_attributes.get(name)]
        specs += [t.attributes.get(name) for t in ruleset.card_types.values()]
        limits = {spec.clamp for spec in specs if spec is not None}
        if len(limits) == 1 and None not in limits:
            out[name] = limits.pop()
    return out


def replacement_anchors(ability_lists) -> dict[str, tuple[str, str]]:
    """The procedures every replacement of which starts its condition with the same anchor,
    `event.X == self` or `event.X == self.attached_to`: only the card passed as X, or the cards
    attached to it, can replace a call of them (`GameState.call`)."""
    anchors: dict[str, tuple[str, str] | None] = {}
    for abilities in ability_lists:
        for a in abilities:
            if a.kind == "replacement":
                seen = anchors.setdefault(a.event, a.anchor)
                if seen != a.anchor:
                    anchors[a.event] = None
    return {name: anchor for name, anchor in anchors.items() if anchor is not None}
