"""Search never peeks (issue 30).

The rules keep no card they are done with: a procedure's names end when it returns.

CARDRULES_LONG=1 checks more positions.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.lang.values import CardRef, Labelled

LONG = bool(os.environ.get("CARDRULES_LONG"))
SHARED = Path(__file__).resolve().parent / "data" / "sharedhands" / "sharedhands.yaml"
GAMES = ("initiative", "lanes", "bases", "hearts", "harvest", "sharedhands")


def _rules(name: str):
    return load(SHARED if name == "sharedhands" else name)


def _cards_in(value, out: set[int]) -> None:
    t = type(value)
    if t is CardRef:
        out.add(value.id)
    elif t is dict:
        for v in value.values():
            _cards_in(v, out)
    elif t is list or t is tuple:
        for v in value:
            _cards_in(v, out)
    elif t is Labelled:
        _cards_in(value.value, out)



# ---------------------------------------------------------------- procedures' names end
@pytest.mark.parametrize("name", GAMES)
def test_the_main_program_keeps_no_finished_procedures_names(name):
    """A procedure written into its caller (a small one, see lang/resumable.py) leaves no name
    behind when it returns, nor does a statement's answer or a loop's list: the main program's
    frame, which lives for the whole game, holds no card hidden from a player at any decision.
    (Bases' mulligan left the cards put back there for the whole game: determinization kept their
    card types at their deck places.)"""
    rules = _rules(name)
    rng = random.Random(3)
    for seed in range(3 if LONG else 1):
        game = rules.new_game(seed=seed, log=False)
        while not game.is_over:
            held: set[int] = set()
            _cards_in(game.frames[0].locals, held)
            hidden = [game.cards[cid] for cid in sorted(held) if cid in game.card_zone and not all(
                game.visible(game.cards[cid], seat) for seat in range(1, rules.player_count + 1))]
            assert not hidden, f"the main program's frame holds hidden cards: {game.frames[0].locals}"
            game.apply(rng.randrange(len(game.decision()[1])))
