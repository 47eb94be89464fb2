"""The runtime half of a ruleset: `Rules` holds its compiled `Program` (compile/program.py) and
makes games from it.

`Rules` is shared by every game made from it; `new_game` creates the cards of the decks and starts
the main program (set-up, then the turn loop). What it keeps besides the program are runtime
caches: the default decks, the prototype games of each set of decks, the places of the rule code.
"""

from __future__ import annotations

import math
import random
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..compile.places import Place, place_of, rule_places
from ..compile.program import Program, compile_ruleset
from ..compile.sites import DecisionSite, site_key
from ..errors import NO_SPAN, DeckError, ErrorList, RulesError, RuntimeRuleError, Span, did_you_mean
from ..lang.runtime import Frame
from ..lang.values import ZoneKey
from ..rules.avatars import avatar_cards
from ..rules.decks import Deck, load_deck
from ..rules.model import EVALUATED_PLAYER, Ruleset
from .game import Game, answering_for
from .playout import RULE_ERRORS
from .rule_errors import rule_error_words
from .state import GameState, GameWatcher

_PROGRAM_FIELDS = tuple(f.name for f in fields(Program))


class Rules:
    """A loaded, checked and compiled ruleset with its options: make games with `new_game`.

    Every field of its `program` is an attribute of `Rules` too (`rules.card_defs`,
    `rules.static_reads`, ...): copied once, since the program never changes, so that the engine
    reads them as fast as plain attributes. `max_decisions` is the one a caller may change (the
    cap of decisions of the games it makes from here on)."""

    def __init__(self, ruleset: Ruleset, base: Program | None = None) -> None:
        """`base`: the program of a ruleset this one extends with more cards, whose compiled
        code is reused where the cards change nothing it reads (see `compile_ruleset`)."""
        self._start(compile_ruleset(ruleset, base))

    @classmethod
    def of_program(cls, program: Program) -> Rules:
        """Rules for a compiled program (one shared with other `Rules`: `Program.with_options`),
        with runtime caches of their own; its `requires:` are checked, as a load checks them."""
        rules = cls.__new__(cls)
        rules._start(program)
        return rules

    def _start(self, program: Program) -> None:
        self.program = program
        for name in _PROGRAM_FIELDS:
            setattr(self, name, getattr(program, name))
        self.root_frame = Frame(None, {})
        self._default_decks: list[Deck] | None = None
        self._prototypes: dict[tuple, GameState] = {}  # the decks' cards in place, by the decks' contents
        self._started: dict[tuple, tuple] = {}  # by the decks' contents: (game, frame locals) after the set-up's start
        self._places: list[Place] | None = None  # where each part of the rule code is (`place_of`)
        # who sees a card go from one zone key to another (`ZonesAndCards._known_mask`), by the pair
        self.known_masks: dict[tuple, int] = {}
        self._check_requirements()

    def _check_requirements(self) -> None:
        """The ruleset's `requires:` conditions, evaluated on an empty game at load time."""
        if not self.program.requirements:
            return
        game = GameState(self, 0, log=False)
        errors = [RulesError(req.message, req.span) for req in self.program.requirements
                  if not req.that(game, self.root_frame)]
        if errors:
            raise ErrorList(errors) if len(errors) > 1 else errors[0]

    # ------------------------------------------------------------------ games
    def is_private(self, pending) -> bool:
        """Whether only the deciding player may see this decision's prompt and site (its prompt
        is one of the ruleset's `observation: {private_prompts}`)."""
        return bool(self.private_sites) and site_key(pending.span) in self.private_sites

    def site_of(self, pending) -> DecisionSite | None:
        """The `choose` a decision comes from (None for one the rules' code did not ask)."""
        return self.program.sites_by_key.get(site_key(pending.span))

    @property
    def has_evaluation(self) -> bool:
        """Whether the ruleset declares `evaluate:` (else every unfinished position is worth 0)."""
        return self.program.evaluate_code is not None

    def evaluate(self, game: Game, seat: int) -> float:
        """How well the player in `seat` stands: +inf for a game they won, -inf for one they
        lost, 0 for a draw; in a game not over, the ruleset's `evaluate:` expression with `p`
        bound to them, or 0 if it declares none."""
        state = game.state
        result = state.result
        if result is not None:
            outcome = result.outcome(seat)
            return math.inf * outcome if outcome else 0.0
        code = self.program.evaluate_code
        if code is None:
            return 0.0
        try:
            value = code(state, Frame(None, {EVALUATED_PLAYER: state.players[seat - 1]}))
        except RULE_ERRORS as err:  # (as `GameState._located` reports them in rule code)
            raise RuntimeRuleError(f"evaluate: {rule_error_words(err)}", self.ruleset.evaluate.span) from None
        if type(value) is bool or not isinstance(value, (int, float)):
            raise RuntimeRuleError(f"evaluate: gave {value!r}, not a number", self.ruleset.evaluate.span)
        return float(value)

    @property
    def declares_reward(self) -> bool:
        """Whether the ruleset declares `reward:` (else a game's reward is its result's)."""
        return self.program.reward_code is not None

    def reward(self, game: Game, seat: int) -> float:
        """What the player in `seat` scores for a finished game: the ruleset's `reward:`
        expression with `p` bound to them, or +1 for a win, -1 for a loss, 0 for a draw (in a
        ruleset with teams, the seat's team's: `Result.outcome`); 0 for every player of a game
        stopped unfinished at its cap of decisions."""
        result = game.result
        if result is None:
            raise ValueError("a game has a reward only when it is over")
        if result.unfinished:
            return 0.0
        if self.program.reward_code is None:
            return result.outcome(seat)
        return float(number_of(game.state, seat, self.program.reward_code, self.ruleset.reward, "reward"))

    def score_of(self, game: Game, seat: int) -> float | None:
        """The player's score by the ruleset's `statistics.score` (by default its `evaluate:`),
        or None if it has none: who leads, for the balance records and the searching agents."""
        stats = self.statistics
        if stats.score is None:
            return None
        return number_of(game.state, seat, stats.score, stats.score_expr, "statistics.score")

    def counters_of(self, game: Game, seat: int) -> dict[str, float]:
        """The player's end-of-game counters (`statistics.counters`), by name."""
        return {name: number_of(game.state, seat, code, expr, f"statistics.counters.{name}")
                for name, code, expr in self.statistics.counters}

    def observation_encoder(self, layout, seat: int):
        """What fills the vector of `layout` (an envs `ObservationEncoding`) of the player in
        `seat`, in any game of these rules, straight from its state, bit for bit as encoding
        `game.observation(seat)` would (engine/encode.py): `.entries(game, choosing, fresh)` gives
        {index: value}, `.window(game)` the keys of the events the player witnessed. Made once
        per layout, rules and seat."""
        from .encode import encoder_for

        return encoder_for(self, layout, seat)

    def deck(self, source: Any, seat: int = 1) -> Deck:
        """Load and validate one deck: a deck file path, a mapping {card: count} or a list of names."""
        return load_deck(source, self, seat)

    def default_decks(self) -> list[Deck]:
        """The ruleset's default decks, one per seat (loaded once, then reused)."""
        if self._default_decks is None:
            d = self.ruleset.decks
            files = list(d.defaults) if d is not None else []
            for file in files:  # (at the ruleset's decks: a missing file has no place of its own)
                if not Path(file).is_file():
                    raise DeckError(f"the default deck {file} does not exist", d.span,
                                    hint="default: entries are relative to the ruleset file's folder")
            self._default_decks = [self.deck(files[i % len(files)], i + 1)
                                   for i in range(self.deck_count)] if files else []
        return self._default_decks

    def new_game(self, seed: int = 0, decks: list | None = None, log: bool | str = True,
                 watcher: GameWatcher | None = None, max_decisions: int | None = None) -> Game:
        """A new game, set up and running until its first decision (a `watcher` follows it
        from its start). `max_decisions`: its cap of decisions (default: the ruleset's
        `limits: {max_decisions}`, else 100000); a decision due past it ends the game unfinished.
        `log`: True, the log holds the events, the decisions and the end; False, nothing;
        "events", the events and the end without the decisions (what a game's record reads:
        a decision's entry names its option, which costs a label per decision).

        The seed-free start of the set-up (see `Compiler.main_program`) runs once per set of
        decks, in a game kept for that; each new game starts from a copy of it."""
        game, frame = self._started_game(seed, decks, log)
        game.watcher = watcher
        game.max_decisions = self.decision_cap(max_decisions)
        game.start(frame)
        return Game(game)

    def decision_cap(self, max_decisions: int | None) -> int:
        """A game's cap of decisions: the one given (a whole number from 1 on), else the ruleset's."""
        if max_decisions is None:
            return self.max_decisions
        if type(max_decisions) is not int or max_decisions < 1:
            raise ValueError(f"max_decisions must be a whole number from 1 on, not {max_decisions!r}")
        return max_decisions

    def _started_game(self, seed: int, decks: list | None, log: bool | str) -> tuple[GameState, Frame]:
        """A game after the seed-free start of the set-up (if the set-up has one), and its main
        program's frame there."""
        if self.set_up_start is None:
            return self.empty_state(seed, decks, log), Frame(self.main, {})
        loaded = self._decks(decks)
        key = tuple((d.cards, d.sections) for d in loaded)
        started = self._started.get(key)
        if started is None:
            prototype = self.empty_state(0, decks, log=False)
            frame = Frame(self.set_up_start, {})
            prototype.run_through(frame)
            started = (prototype, frame.locals)
            _keep(self._started, key, started)
        prototype, names = started
        game = _copy_of(prototype, seed, loaded, log)
        frame = Frame(self.main, dict(names))
        frame.pc = self.set_up_pc
        return game, frame

    def play_out(self, decide, seed: int = 0, decks: list | None = None, log: bool | str = False,
                 watcher: GameWatcher | None = None, max_decisions: int | None = None) -> Game:
        """A new game played to its end by `decide`, as `new_game(...).play_out(decide,
        fast=True)` plays it, and faster: the set-up and the turns run in their rollout form
        too. Returns the game (`answered`: its number of decisions); if `decide` fails, its
        error is raised (see `GameState.play_out`). A `watcher` follows the game from its start;
        `max_decisions` as for `new_game`."""
        game, frame = self._started_game(seed, decks, log)
        game.watcher = watcher
        game.max_decisions = self.decision_cap(max_decisions)
        played = Game(game)
        game.play_from_start(answering_for(played, decide), frame)
        return played

    def empty_game(self, seed: int = 0, decks: list | None = None, log: bool | str = True, made: bool = True) -> Game:
        """A game with its decks in place and nothing run yet (`empty_state`, as the public `Game`)."""
        return Game(self.empty_state(seed, decks, log, made))

    def empty_state(self, seed: int = 0, decks: list | None = None, log: bool | str = True, made: bool = True) -> GameState:
        """The engine's state (`GameState`) of a game with its decks in place and nothing run yet
        (scenarios arrange it further; `made=False`: without the cards of `decks.made` either,
        for a position given in full).

        The cards of each set of decks are made once; later games start from a copy of them."""
        loaded = self._decks(decks)
        key = (tuple((d.cards, d.sections) for d in loaded), made)
        prototype = self._prototypes.get(key)
        if prototype is None:
            prototype = self._place_decks(GameState(self, 0, log=False), loaded, made)
            _keep(self._prototypes, key, prototype)
        return _copy_of(prototype, seed, loaded, log)

    def _decks(self, decks: list | None) -> list[Deck]:
        if decks is None:
            return self.default_decks()
        if len(decks) != self.deck_count:
            needs = f"{self.deck_count} decks" if self.deck_count > 1 else "one deck, for the table"
            raise DeckError(f"{self.name} needs {needs}, got {len(decks)}")
        return [d if isinstance(d, Deck) else self.deck(d, i + 1) for i, d in enumerate(decks)]

    @property
    def deck_count(self) -> int:
        """How many decks a game takes: one per player, or one for the table when the decks go to
        a shared zone."""
        d = self.ruleset.decks
        shared = d is not None and d.zone in self.ruleset.zones and not self.ruleset.zones[d.zone].per_player
        return 1 if shared else self.player_count

    def _place_decks(self, game: GameState, loaded: list[Deck], made: bool = True) -> GameState:
        rules = self.ruleset.decks
        zone = rules.zone if rules else None
        section_zones = {sec.name: sec.zone for sec in (rules.sections if rules else ())}
        shared = self.deck_count == 1 and self.player_count > 1
        for seat, deck in enumerate(loaded, start=1):
            owner = None if shared else game.players[seat - 1]
            for name in deck.cards:
                game.new_card(self.card_defs[name], ZoneKey(zone, 0 if shared else seat, ""), owner)
            for section, names in deck.sections:
                key = game.zone_key(section_zones[section], owner, None)
                for name in names:
                    game.new_card(self.card_defs[name], key, owner)
        for zone in rules.made if rules and made else ():
            spec = self.ruleset.zones[zone.zone]
            owners = game.players if spec.per_player else [None]
            for owner in owners:
                key = ZoneKey(zone.zone, owner.seat if owner else 0, "")
                for defn in self._made_cards(zone):
                    game.new_card(defn, key, owner)
        self._place_avatars(game)
        return game

    def _place_avatars(self, game: GameState) -> None:
        """`avatars:`: each player's card in their own zone, seat 1 the first card of the type."""
        avatars = self.ruleset.avatars
        if avatars is None:
            return
        names = avatar_cards(self.ruleset, self.card_defs)
        for player in game.players:
            defn = self.card_defs[names[(player.seat - 1) % len(names)]]
            game.new_card(defn, ZoneKey(avatars.zone, player.seat, ""), player)

    def _made_cards(self, made) -> list:
        """The cards `decks.made` puts in its zone, one entry per copy, in the card set's order."""
        out = []
        for defn in self.card_defs.values():
            lineage = self.ruleset.card_types[defn.type].lineage or (defn.type,)  # (a subtype is taken too)
            if defn.token or (made.types is not None and not set(lineage) & set(made.types)):
                continue
            if isinstance(made.copies, int):
                copies = made.copies
            else:  # (the card's printed value, else its type's default)
                spec = self.ruleset.card_types[defn.type].attributes[made.copies]
                copies = defn.attrs.get(made.copies, spec.default)
            out += [defn] * int(copies or 0)
        return out

    def place_of(self, span: Span | None) -> str | None:
        """The part of the rules whose code holds the span (a procedure, a function, the set-up, a
        phase, an end condition), or None: for runtime errors (found once, on the first)."""
        if self._places is None:
            self._places = rule_places(self.ruleset, self.definitions)
        return place_of(self._places, span)

    def card_span(self, name: str) -> Span:
        defn = self.card_defs.get(name)
        return defn.span if defn else NO_SPAN

    def unknown_card(self, name: str) -> str:
        return f"no card named {name!r}{did_you_mean(name, self.card_defs)}"


def number_of(game: GameState, seat: int, code, expr, what: str) -> float:
    """A ruleset expression in `p` for the player in `seat`, which must give a number."""
    span = getattr(expr, "span", None)
    try:
        value = code(game, Frame(None, {EVALUATED_PLAYER: game.players[seat - 1]}))
    except RULE_ERRORS as err:
        raise RuntimeRuleError(f"{what}: {rule_error_words(err)}", span) from None
    if type(value) is bool or not isinstance(value, (int, float)):
        raise RuntimeRuleError(f"{what}: gave {value!r}, not a number", span)
    return value


def _copy_of(prototype: GameState, seed: int, decks: list[Deck], log: bool | str) -> GameState:
    """A new game from a copy of a prototype game, with its own seed, decks and logging."""
    if log is not True and log is not False and log != "events":
        raise ValueError(f"log must be True, False or \"events\", not {log!r}")
    game = prototype.clone(rng=random.Random(seed))
    game.own_rows()  # (a new game writes most of its cards' rows: see `GameState.own_rows`)
    game.seed = seed
    game.logging = log
    game.decks = decks
    return game


def _keep(cache: dict, key: tuple, value) -> None:
    """Keep a prototype for these decks, up to 32 sets of decks."""
    if len(cache) < 32:
        cache[key] = value

