"""Every ruleset as an OpenSpiel python game (extra `openspiel`; docs/envs.md "OpenSpiel"):
`register("initiative")` registers `cardrules_initiative` with pyspiel and returns the loaded game.
The ruleset's options are game parameters (`cardrules_initiative(round_limit=50)`), and so are
`seed` (-1: drawn by chance; else every game plays with that seed) and `copies` (the action space's
ordinals per card name, `ActionCatalogue(copies=...)`, written `Name:16;Other name:4`: raise it
for a card the rules create many of, when a decision offers more of it than the space can name).

Actions are the ids of the ruleset's fixed action space (`actions.ActionCatalogue`): a multi-part
choice takes several actions of the same player, the option being applied when they make a whole
one. Observations are `game.observation(seat)`: its canonical JSON is the observation string, its
`encoding.ObservationEncoding` vector the observation tensor (read straight from the state, bit for
bit that encoding of the observation; with the player's choice in progress, and the events they
witnessed since their last decision told from their last record).

Chance mode: EXPLICIT_STOCHASTIC, with chance choosing the game's seed and nothing else. The engine
draws every random number (the shuffle of the set-up, any shuffle or random pick of the rules)
from the game's own generator, seeded at creation; given the seed, a game is a deterministic
function of the players' actions. So the first SEED_BYTES moves of every game are chance nodes,
each with 256 equally likely outcomes, that together make a 32-bit seed; then the game starts. This
is an exact model of the engine, not an approximation: no draw of the rules is hidden from the
game tree, they all hang off the seed, which no observation shows. SAMPLED_STOCHASTIC was the
alternative, and OpenSpiel 2.0.2 cannot serialize a python game of that mode (`Game::Serialize`
asks for `GetRNGState`, which python games cannot implement), so neither pickling nor
`serialize_game_and_state` would work. Here a state's `history()` (the seed's bytes, then the
actions) rebuilds it exactly, and `seed=N` gives chance nodes with one outcome: the game of
`rules.new_game(seed=N)`.

Information state of a player: what they saw at each of their past decisions with the action ids
they took there, what they see now, and the ids they have taken so far in a multi-part choice
they are making. The string is `{"seat":S,"decisions":N,"past":H,"now":O,"choosing":[ids]}`: N
past decisions, H the SHA-256 of their records (`{"saw":observation,"took":[ids]}`, canonical
JSON, each followed by a newline; null when N is 0), O the canonical JSON of the observation now,
"choosing" only while they make a multi-part choice. `state.information_state_json(player)` has
the records in full instead of H (near a megabyte at the end of a Bases game: too long for a key).
It holds only what the player saw and did, so two states the player cannot tell apart give the
same string; what they saw between two of their decisions and no longer see at the next one is
not in it. The information state tensor is the observation tensor followed by the player's last
16 decisions (openspiel_recall.py): a function of the information state, bounded.

`resample_from_infostate(player, sampler)` is `game.determinize(seat, random.Random(key))`, the
key drawn from the sampler: everything the player cannot see drawn anew, consistently with their
observation, and their record of past decisions kept, so the copy has the same information state
string and the same legal actions (what ISMCTSBot asserts). The other players' records start afresh
in the copy: what they saw in it before cannot be known from the player's view.

Serialization: OpenSpiel pickles a python state's `__dict__`; here that is one `_Core`, which
pickles as its recipe (the seed's bytes, the actions, and each resampling's player and key) with
the texts of the players' records, and is rebuilt by replaying the recipe: the engine is
deterministic given its seed, and so is `determinize` given its key. (Not through `to_json` and
`load_game_json`: a resumed game has lost its pending decision's site, so the action ids would
change.) A process that reads one must have registered the ruleset first.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as err:  # pragma: no cover (exercised with the imports hidden)
    raise ImportError("the OpenSpiel adapter needs the extra 'openspiel': "
                      "pip install 'cardrules[openspiel]'") from err

from .actions import ActionSpaceError, DecisionActions
from .encoding import event_key, fresh_from_keys
from .openspiel_spec import Spec, canonical, format_copies, parse_copies, rules_for, spec_for
from .returns import CONSTANT_SUM, GENERAL_SUM, IDENTICAL, ZERO_SUM, seat_returns, utility, utility_range

# the game type's utility for each kind of ruleset (envs/returns.py)
_UTILITIES = {IDENTICAL: pyspiel.GameType.Utility.IDENTICAL, CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM,
              ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM, GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM}

SEED_BYTES = 4  # chance nodes at the start of a game, one byte of the 32-bit seed each
SEED_PARAMETER = "seed"
COPIES_PARAMETER = "copies"
RANDOM_SEED = -1  # the parameter's default: chance draws the seed
NAME_PREFIX = "cardrules_"


class UnnamedOptionError(pyspiel.SpielError):
    """A decision offers an option the fixed action space has no id for (more copies of a card
    than its ordinals: raise them with the `copies` parameter)."""


class _Record:
    """One completed decision of a player: the ids they took and the JSON of what they saw then.
    That JSON comes from the state's cache when something asked for it there (ISMCTS does at each
    node of its tree, random_sim_test at every state); else it is worked out only when an
    information state asks, by replaying the recipe up to the decision: a random rollout records
    many decisions and never asks, and copying the game at each one would cost more than playing."""

    __slots__ = ("seat", "took", "saw", "recipe", "at", "_window", "keys")

    def __init__(self, seat: int, took: list[int], saw: str | None, recipe: _Recipe | None = None,
                 at: int = 0) -> None:
        self.seat = seat
        self.took = took
        self.saw = saw
        self.recipe = recipe  # (a recipe only grows, so its first `at` steps stay what they were)
        self.at = at
        self._window: list | None = None
        self.keys: list[tuple] | None = None  # (the keys of `window()`: set from the game as they decided)

    def window(self) -> list:
        """The events the player had witnessed when they decided (`seen` of what they saw)."""
        if self._window is None:
            _fill([self])
            self._window = json.loads(self.saw)["seen"]
        return self._window

    def window_keys(self) -> list[tuple]:
        """The keys (`encoding.event_key`) of `window()`: read from the game when the player
        decided, so the tensors need no replay to work out what they saw."""
        if self.keys is None:
            self.keys = [event_key(e) for e in self.window()]
        return self.keys

    @property
    def text(self) -> str:
        return f'{{"saw":{self.saw},"took":{canonical(self.took)}}}'


class _Chain:
    """A player's records, oldest first, as an immutable linked list that copies of a state
    share. Each link's digest (SHA-256 of the records' JSON texts up to it, each followed by a
    newline) is made once, from its parent's."""

    __slots__ = ("parent", "record", "count", "_hash")

    def __init__(self, parent: _Chain | None, record: _Record) -> None:
        self.parent = parent
        self.record = record
        self.count = 1 if parent is None else parent.count + 1
        self._hash = None

    def links(self, unhashed_only: bool = False) -> list[_Chain]:
        """The links, newest first (a loop: a long game would overflow a recursion)."""
        out: list[_Chain] = []
        link: _Chain | None = self
        while link is not None and not (unhashed_only and link._hash is not None):
            out.append(link)
            link = link.parent
        return out

    @property
    def digest(self) -> str:
        if self._hash is None:
            unhashed = self.links(unhashed_only=True)
            _fill([link.record for link in unhashed])
            for link in reversed(unhashed):
                h = hashlib.sha256() if link.parent is None else link.parent._hash.copy()
                h.update(link.record.text.encode())
                h.update(b"\n")
                link._hash = h
        return self._hash.hexdigest()

    def pairs(self) -> list[tuple[str, list[int]]]:
        records = [link.record for link in reversed(self.links())]
        _fill(records)
        return [(r.saw, r.took) for r in records]

    @staticmethod
    def of(pairs: list[tuple[str, list[int]]], seat: int) -> _Chain | None:
        chain = None
        for saw, took in pairs:
            chain = _Chain(chain, _Record(seat, list(took), saw))
        return chain


class _Recipe:
    """What rebuilds a state from nothing: the spec, the seed parameter, and the steps (chance
    outcomes and action ids, and ("resample", player, key) for each resampling)."""

    __slots__ = ("spec", "fixed_seed", "steps")

    def __init__(self, spec: Spec, fixed_seed: int, steps: list) -> None:
        self.spec = spec
        self.fixed_seed = fixed_seed
        self.steps = steps

    def replay(self, stops: dict[int, list[_Record]] | None = None) -> _Core:
        """The state the steps make (the engine is deterministic given its seed, and so is
        `determinize` given its key); on the way, fill each record of `stops` at its position."""
        core = _Core(self.spec, self.fixed_seed)
        for position, step in enumerate(self.steps):
            for record in (stops or {}).get(position, ()):
                record.saw, record.recipe = core.observation_text(record.seat - 1), None
            if isinstance(step, tuple):
                _resample, player, key = step
                core = core.resampled(player, key)
            else:
                core.apply(step, record=False)
        for record in (stops or {}).get(len(self.steps), ()):
            record.saw, record.recipe = core.observation_text(record.seat - 1), None
        return core


def _fill(records: list[_Record]) -> None:
    """Work out what each record's player saw where it has no text yet: one replay per recipe."""
    waiting: dict[int, tuple[_Recipe, dict[int, list[_Record]]]] = {}
    for record in records:
        if record.saw is None:
            recipe, stops = waiting.setdefault(id(record.recipe), (record.recipe, {}))
            stops.setdefault(record.at, []).append(record)
    for recipe, stops in waiting.values():
        _Recipe(recipe.spec, recipe.fixed_seed, recipe.steps[:max(stops)]).replay(stops)


class _Core:
    """Everything a state holds, as one object: OpenSpiel copies it with `copy.deepcopy` (a clone
    of the engine game) and pickles it (as its recipe, replayed when read)."""

    def __init__(self, spec: Spec, fixed_seed: int) -> None:
        self.spec = spec
        self.fixed_seed = fixed_seed
        self.recipe = _Recipe(spec, fixed_seed, [])
        self.seed_bytes: list[int] = []
        self.game = None  # the engine game, once chance has drawn the seed
        self.prefix: list[int] = []  # ids taken so far in the current multi-part choice
        self.seen: list[_Chain | None] = [None] * spec.players
        self.origin = ""  # how a resampled state came to be (for `__str__`)
        self._cursor: DecisionActions | None = None
        self._legal: list[int] | None = None
        self._observed: dict[int, tuple[dict, str | None]] = {}  # player -> (observation, its JSON), now

    # ------------------------------------------------------------------ copies
    def __deepcopy__(self, memo: dict) -> _Core:
        new = _Core.__new__(_Core)
        new.spec = self.spec
        new.fixed_seed = self.fixed_seed
        new.recipe = _Recipe(self.spec, self.fixed_seed, list(self.recipe.steps))
        new.seed_bytes = list(self.seed_bytes)
        new.game = None if self.game is None else self.game.clone()
        new.prefix = list(self.prefix)
        new.seen = list(self.seen)
        new.origin = self.origin
        new._cursor = None
        new._legal = self._legal
        new._observed = dict(self._observed)
        return new

    def __reduce__(self):
        payload = {
            "fixed_seed": self.fixed_seed,
            "steps": list(self.recipe.steps),
            "seen": [[] if chain is None else chain.pairs() for chain in self.seen],
            "origin": self.origin,
        }
        return _restore_core, (self.spec.source, self.spec.options, self.spec.copies, payload)

    # ------------------------------------------------------------------ play
    def current_player(self) -> int:
        if self.game is None:
            return pyspiel.PlayerId.CHANCE
        if self.game.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.game.decision()[0] - 1

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.fixed_seed != RANDOM_SEED:
            return [(self.fixed_seed >> (8 * len(self.seed_bytes)) & 0xFF, 1.0)]
        return [(b, 1.0 / 256) for b in range(256)]

    def cursor(self) -> DecisionActions:
        if self._cursor is None:
            cursor = DecisionActions(self.spec.catalogue, self.game)
            for action in self.prefix:
                cursor.take(action)
            self._cursor = cursor
        return self._cursor

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            if self.game is None:
                self._legal = [b for b, _p in self.chance_outcomes()]
            elif self.game.is_over:
                self._legal = []
            else:
                try:
                    self._legal = sorted(self.cursor().legal())
                except ActionSpaceError as err:
                    raise UnnamedOptionError(str(err)) from None
        return self._legal

    def apply(self, action: int, record: bool = True) -> None:
        """Take one action; an illegal one raises pyspiel.SpielError and changes nothing. (A
        replay need not `record` what the decider saw: the records are restored after it.)"""
        if self.game is None:
            if action not in self.legal_actions():
                raise pyspiel.SpielError(f"chance outcome {action} is not one of {self._outcomes_text()}")
            self.recipe.steps.append(action)
            self.seed_bytes.append(action)
            self._legal = None
            if len(self.seed_bytes) == SEED_BYTES:
                seed = sum(b << (8 * i) for i, b in enumerate(self.seed_bytes))
                self.game = self.spec.rules.new_game(seed=seed, log=False)
                self._observed = {}
            return
        if self.game.is_over:
            raise pyspiel.SpielError(f"action {action}: the game is over")
        if action not in self.legal_actions():
            raise pyspiel.SpielError(f"action {action} ({self.spec.catalogue.describe(action)}) is not legal "
                                     f"now; legal: {self.legal_actions()}")
        cursor = self.cursor()
        index = cursor.take(action)
        self._legal = None
        if index is None:
            self.recipe.steps.append(action)
            self.prefix.append(action)
            return
        seat = cursor.seat
        if record:
            _observation, saw = self._observed.get(seat - 1, (None, None))
            took = [*self.prefix, action]
            entry = _Record(seat, took, saw) if saw is not None else \
                _Record(seat, took, None, self.recipe, len(self.recipe.steps))
            entry.keys = self.spec.encoding.window(self.game, seat)
            self.seen[seat - 1] = _Chain(self.seen[seat - 1], entry)
        self.recipe.steps.append(action)
        self.prefix = []
        self._cursor = None
        self._observed = {}
        self.game.apply(index)

    def _outcomes_text(self) -> str:
        return "0..255" if self.fixed_seed == RANDOM_SEED else str(self.legal_actions())

    def returns(self) -> list[float]:
        """Each seat's return from the result (envs/returns.py: a team's result for each
        member, a scoring game's scores)."""
        return seat_returns(self.spec.rules, None if self.game is None else self.game.result, self.spec.players)

    # ------------------------------------------------------------------ what a player knows
    def observation(self, player: int) -> dict | None:
        if self.game is None:
            return None
        seen = self._observed.get(player)
        if seen is None:
            seen = self._observed[player] = (self.game.observation(player + 1), None)
        return seen[0]

    def observation_text(self, player: int) -> str:
        seen = self._observed.get(player)
        if seen is None or seen[1] is None:
            observation = self.observation(player)
            if observation is None:
                return "null"
            seen = self._observed[player] = (observation, canonical(observation))
        return seen[1]

    def information_state(self, player: int, whole: bool = False) -> str:
        """The player's information state: their past decisions as a count and a digest (or,
        `whole`, as the list of records), what they see now, and their partial choice."""
        chain = self.seen[player]
        if whole:
            records = [] if chain is None else [link.record for link in reversed(chain.links())]
            _fill(records)
            past = f'"decisions":[{",".join(r.text for r in records)}]'
        else:
            past = '"decisions":0,"past":null' if chain is None else \
                f'"decisions":{chain.count},"past":"{chain.digest}"'
        text = f'{{"seat":{player + 1},{past},"now":{self.observation_text(player)}'
        if self.prefix and self.current_player() == player:
            text += f',"choosing":{canonical(self.prefix)}'
        return text + "}"

    def tensor(self, player: int, out: np.ndarray) -> None:
        """The encoding of what the player sees now (read from the state: bit for bit that of
        their observation), with their choice in progress; the events they witnessed since their
        last decision are told from their record of it."""
        out.fill(0.0)
        if self.game is None:
            return
        choosing = self.cursor().prefix if self.prefix and self.current_player() == player else ()
        chain = self.seen[player]
        before = None if chain is None else chain.record.window_keys()
        encoding = self.spec.encoding
        fresh = fresh_from_keys(before, encoding.window(self.game, player + 1))
        encoding.encode_state_into(self.game, player + 1, out, choosing, fresh)

    def information_tensor(self, player: int, out: np.ndarray) -> None:
        """The observation tensor, then the player's last RECALL decisions (openspiel_recall.py)."""
        recall = self.spec.recall
        self.tensor(player, out[:recall.base])
        links = []
        link = self.seen[player]
        while link is not None and len(links) <= recall.recall:  # (one more: the window before the oldest)
            links.append(link)
            link = link.parent
        _fill([link.record for link in links])
        recall.write_records([link.record for link in links], out)

    def resampled(self, player: int, key: int) -> _Core:
        """A copy with everything `player` cannot see drawn anew from `key` (see the module's
        docstring); the partial choice is kept if it is theirs, else dropped (it is hidden)."""
        rng = random.Random(key)
        new = _Core(self.spec, self.fixed_seed)
        new.origin = self.origin
        new.recipe.steps = [*self.recipe.steps, ("resample", player, key)]
        if self.game is None:
            drawn = self.fixed_seed == RANDOM_SEED
            new.seed_bytes = [rng.randrange(256) if drawn else b for b in self.seed_bytes]
            return new
        new.seed_bytes = list(self.seed_bytes)
        new.game = self.game.determinize(player + 1, rng)
        new.seen[player] = self.seen[player]
        if self.current_player() == player:
            new.prefix = list(self.prefix)
        return new

    def describe(self) -> str:
        name = self.spec.rules.name
        if self.game is None:
            return f"{name}: chance draws the seed ({len(self.seed_bytes)} of {SEED_BYTES} bytes)"
        result = self.game.result
        if result is not None:
            who = ("unfinished" if result.unfinished else "a draw") if result.winner is None else f"P{result.winner} won"
            return f"{name} (seed {self.game.setup.seed}): over, {who} ({result.reason})"
        seat, pending = self.game.decision()
        choosing = f" (choosing: {' '.join(map(str, self.prefix))})" if self.prefix else ""
        return f"{name} (seed {self.game.setup.seed}): P{seat} decides '{pending.prompt}'{choosing}"


def _restore_core(source: str, options: dict[str, Any], copies: str, payload: dict) -> _Core:
    """A pickled `_Core` rebuilt: its recipe replayed, its records restored."""
    core = _Recipe(spec_for(source, options, copies), payload["fixed_seed"], list(payload["steps"])).replay()
    core.seen = [_Chain.of(pairs, seat + 1) for seat, pairs in enumerate(payload["seen"])]
    core.origin = payload["origin"]
    return core


# ---------------------------------------------------------------------- the pyspiel classes
class CardrulesState(pyspiel.State):
    """A state of a cardrules game; all it holds is `_core` (see `_Core`)."""

    def __init__(self, game: CardrulesGame) -> None:
        super().__init__(game)
        self._core = _Core(game.spec, game.fixed_seed)

    def current_player(self) -> int:
        return self._core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {len(self._core.seed_bytes) + 1}: {action}"
        return self._core.spec.catalogue.describe(action)

    def is_terminal(self) -> bool:
        core = self._core
        return core.game is not None and core.game.is_over

    def returns(self) -> list[float]:
        return self._core.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> CardrulesState:
        """A state the player cannot tell from this one, the unseen drawn anew (see the module)."""
        key = int(probability_sampler() * 2**53)
        state = CardrulesState(self.get_game())
        core = self._core.resampled(player_id, key)
        core.origin += f"resampled for P{player_id + 1} (key {key}) after history {list(self.history())}; "
        state._core = core
        return state

    def information_state_json(self, player: int) -> str:
        """The information state with the past in full: each of the player's decisions as
        {"saw": their observation, "took": [action ids]} (the string's "past" is the SHA-256 of
        these texts, each followed by a newline)."""
        return self._core.information_state(player, whole=True)

    def __str__(self) -> str:
        core = self._core
        return f"{core.describe()}\n{core.origin}history: {' '.join(map(str, self.history()))}"


class CardrulesObserver:
    """The PyObserver of a cardrules game: for an observation, the observation encoding as the
    tensor and the observation's JSON as the string; for the information state (perfect recall),
    that tensor followed by the player's last RECALL decisions, and the information state string."""

    def __init__(self, spec: Spec, iig_obs_type, params) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is not None and (not iig_obs_type.public_info or
                                         iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("a cardrules game observes for one player, with what is public and what is "
                             "theirs (private_info=SINGLE_PLAYER, public_info=True)")
        self.remembers = iig_obs_type is not None and iig_obs_type.perfect_recall
        self.tensor = np.zeros(spec.recall.size if self.remembers else spec.encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardrulesState, player: int) -> None:
        if self.remembers:
            state._core.information_tensor(player, self.tensor)
        else:
            state._core.tensor(player, self.tensor)

    def string_from(self, state: CardrulesState, player: int) -> str:
        core = state._core
        return core.information_state(player) if self.remembers else core.observation_text(player)


class CardrulesGame(pyspiel.Game):
    """A cardrules ruleset as an OpenSpiel game; its parameters are the ruleset's options, `seed`
    and `copies`."""

    SOURCE = ""  # the ruleset's name or path: set by `register` on the class it makes per ruleset
    GAME_TYPE: pyspiel.GameType

    def __init__(self, params: dict | None = None) -> None:
        params = dict(self.GAME_TYPE.parameter_specification, **(params or {}))
        self.fixed_seed = int(params.pop(SEED_PARAMETER))
        copies = format_copies(parse_copies(str(params.pop(COPIES_PARAMETER))))
        if not (self.fixed_seed == RANDOM_SEED or 0 <= self.fixed_seed < 2 ** (8 * SEED_BYTES)):
            raise ValueError(f"seed must be -1 (drawn by chance) or 0..{2 ** (8 * SEED_BYTES) - 1}, "
                             f"not {self.fixed_seed}")
        self.spec = spec_for(self.SOURCE, params, copies)
        players = self.spec.players
        low, high, total = utility_range(self.spec.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.catalogue.size,
            max_chance_outcomes=256,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            # the game's cap of decisions (the ruleset's `limits: {max_decisions}`, else 100000):
            # past it the engine ends the game unfinished, a terminal state with returns 0
            max_game_length=self.spec.rules.max_decisions)
        super().__init__(self.GAME_TYPE, info,
                         {**params, SEED_PARAMETER: self.fixed_seed, COPIES_PARAMETER: copies})

    def new_initial_state(self, *args) -> CardrulesState:
        if args:
            raise ValueError("a cardrules game has one initial state (before chance draws the seed)")
        return CardrulesState(self)

    def max_chance_nodes_in_history(self) -> int:
        return SEED_BYTES

    def make_py_observer(self, iig_obs_type=None, params=None) -> CardrulesObserver:
        return CardrulesObserver(self.spec, iig_obs_type, params)


# ---------------------------------------------------------------------- registration
@dataclass
class _Registered:
    source: str
    game_class: type


_REGISTERED: dict[str, _Registered] = {}


def _source(ruleset: str | Path) -> str:
    """A shipped ruleset's name as it is; a path made absolute (it names the ruleset everywhere)."""
    path = Path(ruleset)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        return str(path.resolve())
    return str(ruleset)


def game_name(ruleset: str | Path) -> str:
    """The short name a ruleset is registered under: cardrules_<the ruleset's declared name>."""
    rules = rules_for(_source(ruleset), {})
    return NAME_PREFIX + "".join(c if c.isalnum() else "_" for c in rules.name.lower())


def register(ruleset: str | Path, options: dict[str, Any] | None = None, seed: int | None = None,
             copies: dict[str, int] | None = None):
    """Register the ruleset as `cardrules_<name>` (once per process) and return
    `pyspiel.load_game` of it with these options, seed (None: drawn by chance) and action-space
    ordinals per card name (`ActionCatalogue`'s `copies`)."""
    source = _source(ruleset)
    defaults = rules_for(source, {})
    name = game_name(ruleset)
    known = _REGISTERED.get(name)
    if known is None:
        for own in (SEED_PARAMETER, COPIES_PARAMETER):
            if own in defaults.options:
                raise ValueError(f"{defaults.name} has an option named {own!r}, which the OpenSpiel game "
                                 "needs for its own parameter")
        game_type = pyspiel.GameType(
            short_name=name,
            long_name=f"cardrules {defaults.title or defaults.name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=_UTILITIES[utility(defaults)],
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=defaults.player_count,
            min_num_players=defaults.player_count,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={**defaults.options, SEED_PARAMETER: RANDOM_SEED, COPIES_PARAMETER: ""})
        game_class = type(f"CardrulesGame_{name[len(NAME_PREFIX):]}", (CardrulesGame,),
                          {"SOURCE": source, "GAME_TYPE": game_type, "__module__": __name__})
        pyspiel.register_game(game_type, game_class)
        known = _REGISTERED[name] = _Registered(source, game_class)
    elif known.source != source:
        raise ValueError(f"{name} is already registered for {known.source}, not {source}")
    chosen = dict(options or {})
    rules_for(source, chosen)  # (wrong options raise here, located, before pyspiel sees them)
    return pyspiel.load_game(name, {**chosen, SEED_PARAMETER: RANDOM_SEED if seed is None else int(seed),
                                    COPIES_PARAMETER: format_copies(copies)})
