"""One game of a batch, played where a backend runs it: never raises for the game itself.

Game i of a batch run with `--seed S` has the seed `game_seed(S, i)` (a keyed hash, below) and its
agents are seeded from that seed and their seat, so every backend and every number of workers plays
the same games, batches at different S play unrelated games, and `cardrules play GAME --seed
<a record's seed>` plays that record's game again. A game that cannot finish (a rule that loops
past the step budget, a rule error, an agent that raises) comes back as an aborted record with
its seed, the reason and the rule's place; the batch goes on. A game stopped at its cap of
decisions comes back as a record marked `unfinished`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..agents import decider, make_agent, searches
from ..errors import CardrulesError
from .records import RecordWatcher, aborted_record, game_record, result_record
from .spec import BatchSpec, deck_names, rules_for

# (record, its JSON Lines log or None)
Outcome = tuple[dict[str, Any], list[str] | None]


SEED_BITS = 52  # game seeds are below 2**52: exact as numbers in every JSON reader (JavaScript too)
_HALF = SEED_BITS // 2
_ROUNDS = 4


def game_seed(batch_seed: int, index: int) -> int:
    """The seed of game `index` (0, 1, ...) of a batch run with `--seed batch_seed`.

    A permutation of 0 .. 2**52-1 keyed by the batch seed: four Feistel rounds on the two 26-bit
    halves of `index`, each round XORing into one half the low 26 bits of
    BLAKE2b-32("{batch_seed}/{round}/{other half}", person "cardrules-seed") (big-endian). Being a
    permutation, the games of one batch never share a seed; being keyed by a hash, batches at
    neighbouring seeds share no more games than unrelated ones (almost surely none). The same in
    every process and on every machine (no Python `hash`)."""
    if not 0 <= index < 1 << SEED_BITS:
        raise ValueError(f"a batch holds at most 2**{SEED_BITS} games, not game {index}")
    mask = (1 << _HALF) - 1
    left, right = index >> _HALF, index & mask
    for round_ in range(_ROUNDS):
        key = f"{batch_seed}/{round_}/{right}".encode()
        mixed = int.from_bytes(hashlib.blake2b(key, digest_size=4, person=b"cardrules-seed").digest(), "big")
        left, right = right, left ^ (mixed & mask)
    return left << _HALF | right


def game_seeds(batch_seed: int, first: int, end: int) -> list[int]:
    """The seeds of games `first` .. `end - 1` of the batch run with `--seed batch_seed`."""
    return [game_seed(batch_seed, i) for i in range(first, end)]


def agent_seed(game_seed: int, seat: int) -> str:
    """The seed of the agent in `seat` for the game with `game_seed` (same in every process)."""
    return f"{game_seed}/P{seat}"


def play_game(spec: BatchSpec, seed: int) -> Outcome:
    rules, decks = rules_for(spec)
    names = deck_names(rules, decks)
    watcher = RecordWatcher(rules, names) if spec.records else None
    log = True if spec.logs else "events" if spec.records else False  # (a record reads the events alone)
    try:
        agents = [make_agent(n, seed=agent_seed(seed, seat)) for seat, n in enumerate(spec.agents, start=1)]
        decide = decider(agents) if watcher is None else watcher.deciding(decider(agents))
        if searches(agents):  # (they copy the game at their decisions: the form that can be copied)
            game = rules.new_game(seed=seed, decks=decks, log=log, watcher=watcher, max_decisions=spec.max_decisions)
            game.play_out(decide)
        else:
            game = rules.play_out(decide, seed=seed, decks=decks, log=log, watcher=watcher,
                                  max_decisions=spec.max_decisions)
    except CardrulesError as err:
        span = getattr(err, "span", None)
        rule = f"{span.file}:{span.line}:{span.column}" if span is not None and span.file else None
        turns = watcher.turns if watcher is not None else None
        return _named(aborted_record(rules, seed, spec.agents, f"{type(err).__name__}: {err.message}", rule, turns),
                      names), None
    except Exception as err:  # an agent's own error (a user's module:Class agent): the game is aborted
        turns = watcher.turns if watcher is not None else None
        return _named(aborted_record(rules, seed, spec.agents, f"agent error: {type(err).__name__}: {err}", None,
                                     turns), names), None
    if watcher is not None:
        record = game_record(rules, game, watcher, seed, spec.agents)
    else:
        record = result_record(rules, game, seed, spec.agents)
    _named(record, names)
    lines = None
    if spec.logs:
        from ..logs import log_lines

        lines = log_lines(game, list(spec.agents))
    return record, lines


def _named(record: dict[str, Any], names: list[str] | None) -> dict[str, Any]:
    """The record with the name of each seat's deck (`decks`: null where the players get no decks)."""
    record["decks"] = names
    return record


def play_seeds(spec: BatchSpec, seeds: list[int]) -> list[Outcome]:
    """The games of these seeds, in order (a backend's unit of work)."""
    return [play_game(spec, seed) for seed in seeds]
