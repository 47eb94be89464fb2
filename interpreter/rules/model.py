"""The rule model: a ruleset as plain dataclasses, read from YAML, before any code is compiled.

It is what the rule files say (zones, attributes, card types, options, turn structure, end
conditions, deck rules) with every name resolved and every value typed; code strings stay as
parsed AST with their spans. `interpreter.compile` compiles it into a `Program`, which
`interpreter.engine.rules.Rules` runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import Span
from ..lang import ast

if TYPE_CHECKING:
    from ..errors import RuleWarning
    from .avatars import Avatars
    from .checker import Definitions

ATTRIBUTE_TYPES = ("int", "bool", "text", "list", "player", "card", "ability")
VISIBILITIES = ("public", "owner", "hidden")


# the cap of decisions of a game when neither its ruleset (`limits: {max_decisions}`) nor its
# caller (`--max-decisions`, `new_game(max_decisions=...)`) gives one
MAX_DECISIONS = 100_000


@dataclass(frozen=True)
class ZoneSpec:
    name: str
    per_player: bool
    ordered: bool
    visibility: str
    active: bool
    rows: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class AttrSpec:
    name: str
    type: str
    default: Any
    min: int | None
    max: int | None
    visibility: str
    required: bool
    span: Span
    values: tuple[str, ...] | None = None  # a text attribute's allowed values (`values:`), if any
    shown_in: tuple[str, ...] | None = None  # a card attribute: the zones where it is drawn (`shown_in:`); None: all
    # code attributes (type function or condition): the parameters of the code, and the kind it gives
    params: tuple[str, ...] | None = None
    returns: str | None = None

    @property
    def clamp(self) -> tuple[int | None, int | None] | None:
        if self.min is None and self.max is None:
            return None
        return (self.min, self.max)


@dataclass(frozen=True)
class CardType:
    name: str
    attributes: dict[str, AttrSpec]
    token: bool
    label: str | None
    span: Span
    display: tuple[str, ...] | None = None  # what a player is shown of such a card (`display:`); None: a default
    extends: str | None = None  # the card type this one extends (`extends:`), if any
    # this type, then the one it extends, and so on (`c is T` holds for each); () as (name,)
    lineage: tuple[str, ...] = ()


@dataclass(frozen=True)
class Teams:
    """The ruleset's teams (`teams:`): each team's seats (sorted, every seat in exactly one
    team), its name, and the attributes every team has. `cooperative`: `partnerships: all`, one
    team of every player."""

    seats: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    attributes: dict[str, AttrSpec]
    cooperative: bool
    span: Span

    def team_of(self, seat: int) -> int:
        """The index (from 0) of the team of the player in `seat`."""
        return next(i for i, seats in enumerate(self.seats) if seat in seats)


@dataclass(frozen=True)
class Score:
    """A scoring game (`score:`): the int attribute of players (`per: player`) or of teams
    (`per: team`) that holds the score; `rewards`: "end" (the environments reward the result at
    the end) or "steps" (each change of a player's score as it happens)."""

    per: str
    attribute: str
    rewards: str
    span: Span


OPTION_TYPES = ("int", "bool", "choice", "text", "list")
LIST_ITEM_TYPES = ("int", "text", "choice")
# The option that sets the number of players of a ruleset whose `players:` is a range; no entry of
# `options:` may take this name.
PLAYERS_OPTION = "players"


@dataclass(frozen=True)
class OptionSpec:
    """An option: its type (for a list, `of` is the type of its items: `min`, `max` and `values`
    then hold for each item), its default, and whether `none` is a value too (`nullable`)."""

    name: str
    type: str
    default: Any
    min: int | None
    max: int | None
    values: tuple[str, ...]
    description: str
    span: Span
    nullable: bool = False
    of: str | None = None


@dataclass(frozen=True)
class Phase:
    name: str  # '' for a step of code that is no phase of its own (a round's `start: CODE`)
    body: tuple[ast.Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Round:
    """A level of the turn structure that holds turns (a deal, a trick): the ruleset's
    `turn.rounds`, outermost first. `game.NAME` counts its rounds (within the enclosing one);
    `start` runs as one begins, `end` as it ends, and it ends when `until` holds after one of
    the rounds (or turns) it holds; the outermost level's rounds follow one another until the
    game ends."""

    name: str
    start: tuple[Phase, ...]
    end: tuple[Phase, ...]
    until: ast.Expr | None
    span: Span


@dataclass(frozen=True)
class Statistics:
    """What the balance report counts (the ruleset's `statistics:`); None or empty where the
    ruleset leaves it to the defaults (`Rules.statistics` resolves them)."""

    hand: str | None = None
    played: tuple[str, ...] = ()
    picked: str | None = None
    offered: str | None = None
    score: ast.Expr | None = None
    counters: tuple[tuple[str, ast.Expr], ...] = ()
    timeouts: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()  # card attributes the report's card table shows beside the type
    spans: dict[str, Span] = field(default_factory=dict, compare=False)  # "hand", "played.0", ...


@dataclass(frozen=True)
class EndCondition:
    when: ast.Expr
    winner: ast.Expr | None
    loser: ast.Expr | None
    draw: bool
    reason: str
    check_on: tuple[str, ...] | None
    span: Span
    # `reason:` as an expression when it shows values ("reached {...} points"), else None
    reason_value: ast.Expr | None = None


@dataclass(frozen=True)
class Requirement:
    """A load-time condition on the rules and the card set, with the message when it fails."""

    that: ast.Expr
    message: str
    span: Span


@dataclass(frozen=True)
class DeckSection:
    """Another part of a deck file (e.g. the bases beside the main deck), with its own zone."""

    name: str
    zone: str
    size: int | None
    min_size: int | None
    allowed_types: tuple[str, ...] | None
    counts: tuple[tuple[str, Any, int], ...]  # (attribute, value, how many cards have it)


@dataclass(frozen=True)
class DeckCover:
    """Every value of `attribute` on main-deck cards is among the values of `by` in `section`."""

    attribute: str
    section: str
    by: str


@dataclass(frozen=True)
class MadeZone:
    """A zone filled from the card set as every game begins (`decks.made`): each card of the
    given types (every card that is not a token, without `types`), `copies` times (a number, or
    the name of a card attribute holding it), in the card set's order; in a zone of each
    player, every player gets the cards."""

    zone: str
    types: tuple[str, ...] | None
    copies: int | str
    span: Span


@dataclass(frozen=True)
class DeckRules:
    zone: str
    size: int | None
    min_size: int | None
    max_copies: str | None
    allowed_types: tuple[str, ...] | None
    defaults: tuple[str, ...]
    span: Span
    sections: tuple[DeckSection, ...] = ()
    cover: DeckCover | None = None
    made: tuple[MadeZone, ...] = ()  # zones filled from the card set (`decks.made`)


@dataclass(frozen=True)
class Observing:
    """What observations show of events and decisions (the ruleset's `observation:` key and its
    events' `visibility`, see rules/observing.py): how many of the latest events a player
    witnessed are listed (`seen`), who witnesses an event that not everyone does
    (`event_visibility`: name -> `hidden` or `player:ARG`), and the prompts of decisions that
    only the deciding player sees."""

    seen: int = 20
    event_visibility: dict[str, str] = field(default_factory=dict)
    private_prompts: tuple[str, ...] = ()
    spans: dict[str, Span] = field(default_factory=dict, compare=False)  # "private_prompts.0": where written


# the name the ruleset's `evaluate:` expression gives the player it weighs
EVALUATED_PLAYER = "p"

@dataclass
class Ruleset:
    name: str
    title: str
    file: str
    player_count: int  # the number of players of games of this ruleset, as loaded
    option_specs: dict[str, OptionSpec]
    options: dict[str, Any]
    zones: dict[str, ZoneSpec]
    globals: dict[str, AttrSpec]
    player_attributes: dict[str, AttrSpec]
    card_types: dict[str, CardType]
    events: dict[str, str | None]
    modules: list[ast.Module]
    card_modules: list[ast.Module]
    setup: tuple[ast.Stmt, ...]
    turn_active: str
    phases: list[Phase]
    end: list[EndCondition]
    decks: DeckRules | None
    requires: list[Requirement] = field(default_factory=list)
    step_budget: int = 200_000
    # the cap of decisions in one game (`limits: {max_decisions}`): past it a game ends unfinished
    max_decisions: int = MAX_DECISIONS
    evaluate: ast.Expr | None = None  # how well player `p` stands (see `Rules.evaluate`)
    statistics: Statistics = field(default_factory=Statistics)
    reward: ast.Expr | None = None  # what player `p` scores at the end (see `Rules.reward`)
    observing: Observing = field(default_factory=Observing)  # events seen, private prompts
    # the numbers of players the ruleset may be loaded with (`players: {min, max}`; a fixed
    # count is (n, n)); None: only player_count
    player_range: tuple[int, int] | None = None
    rounds: list[Round] = field(default_factory=list)  # `turn.rounds`, outermost first
    # the option whose value names the deck format (`decks.format_option`), set by the loader
    deck_format_option: str | None = None
    # set by the checker (rules/checker.py) once the whole ruleset is checked: the procedures,
    # functions, keywords and cards its code files define, and what loaded but likely means
    # something else, in the order of their places (`validate` shows them)
    definitions: Definitions | None = field(default=None, repr=False, compare=False)
    warnings: tuple[RuleWarning, ...] = field(default=(), repr=False, compare=False)
    teams: Teams | None = None  # `teams:` (None: no teams declared)
    score: Score | None = None  # `score:` (None: not a scoring game)
    avatars: Avatars | None = None  # `avatars:` (None: players have no card standing for them)

    def steps(self):
        """Every step of code the turn structure runs, as (how a message names it, Phase):
        the rounds' starts and ends, then the turn's phases."""
        for level in self.rounds:
            for when, phases in (("start", level.start), ("end", level.end)):
                for phase in phases:
                    yield (f"phase {phase.name}" if phase.name else f"the {when} of a {level.name}"), phase
        for phase in self.phases:
            yield f"phase {phase.name}", phase

    def code_nodes(self) -> tuple:
        """Every AST node of the ruleset's code: code and card files, set-up, phases (walked
        once: the checks and the compiler (compile/) each look through them)."""
        nodes = self.__dict__.get("_code_nodes")
        if nodes is None:
            nodes = self.__dict__["_code_nodes"] = tuple(self._walk_code())
        return nodes

    def _walk_code(self):
        for module in [*self.modules, *self.card_modules]:
            yield from ast.walk(module)
        yield from ast.walk(self.setup)
        for _where, phase in self.steps():
            yield from ast.walk(phase.body)
        for level in self.rounds:
            if level.until is not None:
                yield from ast.walk(level.until)
