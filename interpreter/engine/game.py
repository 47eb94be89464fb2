"""`Game`: one game as its players, agents and tools drive it; the public API of a running game.

A facade of twenty-three members over the engine's `GameState` (engine/state.py), which holds the
state and is the runtime generated rule code calls. What a researcher or a tool needs is here:
what the game was started with, the decision (its seat, prompt and options), taking one, what a
player may see, where each card is, copies for search, saving, playing to the end, the log and
the result.
Everything else (zones, card rows, frames, caches) is the engine's and may change between
versions; tools that arrange a position (scenarios, tests) reach it through `state`. The one
hook a viewer sets (`on_automatic_choice`) is a function of this module, not a member.

    from interpreter import load
    game = load("initiative").new_game(seed=7)
    while not game.is_over:
        seat, options = game.decision()
        game.apply(options[0])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .playout import ByCount

if TYPE_CHECKING:
    from ..lang.values import CardRef, PlayerRef, ZoneKey
    from ..rules.decks import Deck
    from .decisions import Option, Pending
    from .events import Result
    from .state import GameState


@dataclass(frozen=True)
class Setup:
    """What a game was started with (`Rules.new_game`'s arguments, as a log's header gives them)."""

    seed: int | None
    """Its seed; None for a determinized copy (its generator was drawn anew)."""
    decks: tuple[Deck, ...]
    """The decks it was dealt from (`Deck`s: their names and cards), seat 1 first; () for a
    ruleset without decks and for a game loaded from JSON."""
    max_decisions: int
    """Its cap of decisions (`new_game(max_decisions=...)`, else the ruleset's): a decision due
    past it ends the game unfinished."""


class Game:
    """One game of a compiled ruleset (make it with `Rules.new_game`, or load a saved one with
    `interpreter.load_game_json`). `state` is the engine's state of it (`GameState`): not part
    of this API."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __getattr__(self, name: str) -> Any:
        # (only for a name the facade lacks: say where it went)
        moved = MOVED.get(name)
        if moved is not None:
            raise AttributeError(f"'Game' has no attribute {name!r}: use {moved}")
        if name != "state" and not name.startswith("__") and hasattr(self.state, name):
            raise AttributeError(f"'Game' has no attribute {name!r}: the game's API is {', '.join(PUBLIC)}; "
                                 f"the engine's state (`game.state.{name}`) is not part of it and may change")
        raise AttributeError(f"'Game' has no attribute {name!r}")

    def __repr__(self) -> str:
        s = self.state
        where = "over" if s.result is not None else f"turn {s.globals.get('turn')}"
        return f"<Game {s.rules.name} seed={s.seed} {where}>"

    # ------------------------------------------------------------------ what the game is
    @property
    def rules(self):
        """The compiled ruleset (`Rules`) this game plays."""
        return self.state.rules

    @property
    def players(self) -> list[PlayerRef]:
        """The players, seat 1 first."""
        return self.state.players

    @property
    def setup(self) -> Setup:
        """What the game was started with: its seed, decks and cap of decisions."""
        s = self.state
        return Setup(s.seed, tuple(s.decks), s.max_decisions)

    # ------------------------------------------------------------------ playing
    @property
    def is_over(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> Result | None:
        """Who won or lost and why, the scores and teams (`Result`); None while the game goes on."""
        return self.state.result

    def decision(self) -> tuple[int, Pending]:
        """The player who must decide now (seat, 1-based) and the legal options (a read-only
        sequence of Option, each made when first read). GameStateError if none is due."""
        return self.state.decision()

    @property
    def pending(self) -> Pending | None:
        """The decision due now, as `decision()` gives it (its seat, prompt and options), or None
        when none is (the game is over, or its rules are running)."""
        return self.state.pending

    @property
    def decision_count(self) -> int:
        """How many decisions the game has asked for since it began, the one due now included
        (choices with one option, which the engine takes itself, are not asked)."""
        return self.state.decisions

    def apply(self, option: Option | int | str) -> None:
        """Take a decision: an Option from `decision()`, its index, its id or its label.
        An illegal decision raises IllegalDecisionError (a ValueError) and leaves the game
        unchanged; with no decision pending, GameStateError."""
        self.state.apply(option)

    def play_out(self, decide: Callable[[Game], Any], fast: bool = False) -> int:
        """Play on to the end, `decide(game)` answering each decision (with anything `apply`
        takes), the rules not stopping at each decision; `fast=True` runs them as plain Python,
        for games thrown away if `decide` fails (see `GameState.play_out`). Returns the number
        of decisions taken."""
        return self.state.play_out(answering_for(self, decide), fast)

    # ------------------------------------------------------------------ what a player sees
    def observation(self, player: int | PlayerRef, detail: bool = True, reveal_all: bool = False) -> dict:
        """What the player may see, as plain JSON (engine/observe.py); `detail=False` is cheaper
        (no card attributes, option labels or events). `reveal_all=True`: as if every card of the
        game were revealed to every player (a spectator's or a replay's view of the cards; the
        attributes and decisions the player may not see stay masked)."""
        if not reveal_all:
            return self.state.observation(player, detail)
        copy = self.state.clone()
        copy.revealed = set(copy.cards)
        return copy.observation(player, detail)

    def visible(self, card: CardRef, seat: int) -> bool:
        """Whether the player in `seat` may see this card."""
        return self.state.visible(card, seat)

    def read(self, obj, name: str):
        """An attribute of a card, a player, a team or the game (`interpreter.GAME`), as the rules read
        it (continuous effects applied)."""
        return self.state.read(obj, name)

    @property
    def cards(self) -> Mapping[int, CardRef]:
        """Every card in the game now, by id, in the order they were made (a read-only view that
        follows the game); a card deleted from the game (a token gone) is no longer in it."""
        return MappingProxyType(self.state.cards)

    def where(self, card: CardRef) -> tuple[ZoneKey, int] | None:
        """Where the card is: its zone's key (zone name, owner's seat or 0 for a shared zone,
        row or "") and its position there (1 for the first, as the rules' `position`); None
        for a card no longer in the game."""
        key = self.state.card_zone.get(card.id)
        if key is None:
            return None
        return key, self.state.zones[key].index(card) + 1

    @property
    def scores(self) -> tuple | None:
        """Each seat's score now in a scoring game (the ruleset's `score:`; a team's for each of
        its members), as `result.scores` gives them at the end; None in a game without one."""
        return self.state._scores()

    # ------------------------------------------------------------------ copies and saving
    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy (same state and random generator, or `rng`), for search."""
        return Game(self.state.clone(rng))

    def determinize(self, player: int | PlayerRef, rng: random.Random) -> Game:
        """An independent copy in which everything `player` may not see is drawn anew from `rng`,
        consistently with what they see (engine/determinize.py). GameStateError while
        `play_out(fast=True)` plays the game (it cannot be copied then), as for `clone`."""
        self.state._not_rolling("copied")  # (before determinize reads the pending decision's labels)
        return Game(self.state.determinize(player, rng))

    def to_json(self) -> dict:
        """The game as plain JSON (`interpreter.load_game_json` loads it back)."""
        return self.state.to_json()

    # ------------------------------------------------------------------ the log
    @property
    def log(self) -> list[dict]:
        """The events and decisions so far, as JSON-ready dicts."""
        return self.state.log

    def log_since(self, start: int, values: bool = False) -> list[dict]:
        """The log entries from index `start` on: cheap to poll after each decision, as
        `new = game.log_since(cursor); cursor += len(new)`. With
        `values=True`, an event's `args` hold the values themselves (cards, players, abilities,
        as `read` and `where` take them) rather than their text in the log: for tools that
        follow the cards of the events (records, a table that masks hidden cards)."""
        if not values:
            return self.state.log_since(start)
        from .serialize import log_entry

        return [{"type": "event", "event": e[1], "args": dict(e[2])} if e[0] == "event" else log_entry(self.state, e)
                for e in self.state.log_entries[start:]]

    def perform(self, procedure: str, controller: int | None = None, **args: Any) -> None:
        """Run a ruleset procedure now (for tests and scripts), until it ends or a decision is due."""
        self.state.perform(procedure, controller, **args)


# the public members, for tests/test_game_facade.py and the README ("Python API")
PUBLIC = tuple(sorted(n for n in vars(Game) if not n.startswith("_")))

# members that were the facade's once, and what gives the same now
MOVED = {
    "seed": "game.setup.seed", "decks": "game.setup.decks", "max_decisions": "game.setup.max_decisions",
    "prompt": "game.pending.prompt", "log_length": "the count of what game.log_since(start) gives",
    "GAME": "interpreter.GAME", "observation_encoder": "game.rules.observation_encoder(layout, seat)",
}


def on_automatic_choice(game: Game, look: Callable[[], None]) -> None:
    """Have `look()` called at each choice the engine takes on its own (a choice with one
    option, never asked), before it takes it: for a viewer that must read the game at that
    moment (the label of a token about to leave). It only looks: the choice is taken as before;
    a hook set earlier (a scenario's, which may have such choices asked) still answers, and
    copies of the game share the hook."""
    state = game.state
    before = state.one_option

    def hook(s: GameState, pending: Pending) -> bool:
        look()
        return before(s, pending) if before is not None else False

    state.one_option = hook


def answering_for(game: Game, decide: Callable[[Game], Any]) -> Callable[[GameState], Any]:
    """`decide` as the engine's play-out calls it (with its state): given the facade instead. A
    decider by count (`ByCount`) reads the decision alone, which the state gives as the facade does."""
    if type(decide) is ByCount:
        return decide

    def answer(_state: GameState) -> Any:
        return decide(game)

    return answer
