"""`Game`: one game as its players, agents and tools drive it; the public API of a running game.

A facade of twenty-two members over the engine's `GameState` (engine/state.py), which holds the
state and is the runtime generated rule code calls. What a researcher or a tool needs is here:
the decision and its options, taking one, what a player may see, copies for search, saving,
playing to the end, the log and the result. Everything else (zones, attribute dicts, frames,
caches) is the engine's and may change between versions; tools that arrange or inspect a
position (scenarios, tests, record writers) reach it through `state`.

    from interpreter import load
    game = load("initiative").new_game(seed=7)
    while not game.is_over:
        seat, options = game.decision()
        game.apply(options[0])
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..lang.values import CardRef, PlayerRef
    from .decisions import Option, Pending
    from .events import Result
    from .state import GameState


class Game:
    """One game of a compiled ruleset (make it with `Rules.new_game`, or load a saved one with
    `interpreter.load_game_json`). `state` is the engine's state of it (`GameState`): not part
    of this API."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __getattr__(self, name: str) -> Any:
        # (only for a name the facade lacks: say where the engine's members went)
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
    def seed(self) -> int:
        return self.state.seed

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
    def prompt(self) -> str:
        """The words of the decision due ("" when none is)."""
        return self.state.prompt

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
    def observation(self, player: int | PlayerRef, detail: bool = True) -> dict:
        """What the player may see, as plain JSON (engine/observe.py); `detail=False` is cheaper
        (no card attributes, option labels or events)."""
        return self.state.observation(player, detail)

    def observation_encoder(self, layout, player: int | PlayerRef):
        """What fills `player`'s vector of `layout` (an envs `ObservationEncoding`) straight from
        the state, bit for bit as encoding `observation(player)` would (engine/encode.py):
        `.entries(game, choosing, fresh)` gives {index: value}, `.window(game)` the keys of the
        events the player witnessed. Made once per layout, rules and player."""
        return self.state.observation_encoder(layout, player)

    def visible(self, card: CardRef, seat: int) -> bool:
        """Whether the player in `seat` may see this card."""
        return self.state.visible(card, seat)

    def read(self, obj, name: str):
        """An attribute of a card, a player, a team or the game (`game.GAME`), as the rules read
        it (continuous effects applied)."""
        return self.state.read(obj, name)

    # ------------------------------------------------------------------ copies and saving
    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy (same state and random generator, or `rng`), for search."""
        return Game(self.state.clone(rng))

    def determinize(self, player: int | PlayerRef, rng: random.Random) -> Game:
        """An independent copy in which everything `player` may not see is drawn anew from `rng`,
        consistently with what they see (engine/determinize.py)."""
        return Game(self.state.determinize(player, rng))

    def to_json(self) -> dict:
        """The game as plain JSON (`interpreter.load_game_json` loads it back)."""
        return self.state.to_json()

    # ------------------------------------------------------------------ the log
    @property
    def log(self) -> list[dict]:
        """The events and decisions so far, as JSON-ready dicts."""
        return self.state.log

    def log_since(self, start: int) -> list[dict]:
        """The log entries from index `start` on (cheap to poll after each decision)."""
        return self.state.log_since(start)

    @property
    def log_length(self) -> int:
        return len(self.state.log_entries)

    def perform(self, procedure: str, controller: int | None = None, **args: Any) -> None:
        """Run a ruleset procedure now (for tests and scripts), until it ends or a decision is due."""
        self.state.perform(procedure, controller, **args)


# the public members, for tests/test_game_facade.py and docs/agents.md ("The game")
PUBLIC = tuple(sorted(n for n in vars(Game) if not n.startswith("_")))


def answering_for(game: Game, decide: Callable[[Game], Any]) -> Callable[[GameState], Any]:
    """`decide` as the engine's play-out calls it (with its state): given the facade instead."""
    def answer(_state: GameState) -> Any:
        return decide(game)

    return answer
