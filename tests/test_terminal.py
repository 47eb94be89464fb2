"""The terminal table: `cardrules play` with a person at a terminal, and `cardrules replay --show`.

A scripted person plays through `cardrules play` with stdin; the tests read what was printed
(the compact table, the distinct moves, the log since their last move, the marks on what
changed) and the log written, which says which option each answer took.
"""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.presentation import distinct_moves

GAME = "initiative"
RULE = re.compile(r"─+ turn (\d+) · phase (\w+) · you are P(\d)")


@pytest.fixture(scope="module")
def rules():
    return load(GAME)


def play(capsys, monkeypatch, answers: str, *extra: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code = main(["play", GAME, "--seed", "1", "--players", "human,random", *extra])
    return code, capsys.readouterr().out


def decisions_of(log) -> list[dict]:
    return [e for e in map(json.loads, log.read_text().splitlines()) if e.get("type") == "decision"]


def tables(out: str) -> list[list[str]]:
    """The printed tables, each as its lines from the rule to the prompt for an answer."""
    found, current = [], None
    for line in out.splitlines():
        if RULE.search(line):
            current = [line]
            found.append(current)
        elif current is not None:
            current.append(line)
    return found


def test_a_person_sees_a_compact_table_and_each_move_once(capsys, monkeypatch, rules, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out = play(capsys, monkeypatch, "5\n" + "1\n" * 400, "--log", str(log))
    assert code == 0 and "result: " in out, out[-2000:]
    first = tables(out)[0]
    assert RULE.search(first[0]).groups() == ("1", "select", "1")
    # the state: the other player, then "you", the hidden zones as counts on one line
    state = first[1:first.index("P1, two cards to play:")]
    assert len(state) <= 8, state
    assert any(line.startswith("P2: ") for line in state) and any(line.startswith("P1 (you): ") for line in state)
    assert "  deck 35 · hand 5 hidden" in state
    # cards show what a player needs: no deck-building or resting bookkeeping anywhere
    assert not re.search(r"\bcopies\b|charge 0|resolved|selectable", out)
    hand = next(line for line in state if line.startswith("  hand: "))
    assert "(initiative " in hand
    # the moves as distinct_moves has them, numbered, each label once
    game = rules.new_game(seed=1)
    moves = distinct_moves(game.observation(1), rules)
    assert len(moves) < len(game.decision()[1])  # (this hand has copies: fewer moves than options)
    listed = first[first.index("P1, two cards to play:") + 1:-1]
    assert listed[:len(moves)] == [f"  {n}) {m.label}" for n, m in enumerate(moves, start=1)]
    # then the printed text of each card the moves are about, once per name (issue 32.9)
    names = list(dict.fromkeys(c["name"] for m in moves for c in m.cards))
    assert listed[len(moves):] == [f"  {name}: {rules.card_defs[name].text}" for name in names]
    # the answer "5" took the fifth move's option
    taken = decisions_of(log)[0]
    assert taken["player"] == 1 and taken["option"] == game.decision()[1][moves[4].option].id
    # later tables: the log since the last move, what changed marked
    later = "\n".join("\n".join(t) for t in tables(out)[1:])
    assert "since your last move:\nP2 chooses (hidden)\n" in later  # the other's pick stays hidden
    assert "(* changed since your last move)" in later and re.search(r"\w\* ", later)


def test_the_log_a_person_is_shown_follows_the_game(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out = play(capsys, monkeypatch, "1\n" * 400, "--log", str(log))
    assert code == 0
    # every decision of P2 is in some table's log (as its label, or hidden), in the order taken
    shown = [line for line in out.splitlines() if line.startswith("P2 chooses")]
    theirs = [d for d in decisions_of(log) if d["player"] == 2]
    assert len(shown) == len(theirs) and shown
    for line, decision in zip(shown, theirs):
        assert line in ("P2 chooses (hidden)", f"P2 chooses: {decision['label']}")


def test_an_answer_by_label_or_id_still_works(capsys, monkeypatch, rules, tmp_path):
    game = rules.new_game(seed=1)
    moves = distinct_moves(game.observation(1), rules)
    option = game.decision()[1][moves[2].option]
    for answer in (moves[2].label.upper(), option.id):
        log = tmp_path / "by-label.jsonl"
        code, out = play(capsys, monkeypatch, answer + "\n", "--log", str(log))
        assert code == 0 and "game abandoned" in out
        assert decisions_of(log)[0]["option"] == option.id


def test_replay_show_draws_each_decision(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["play", GAME, "--seed", "4", "--log", str(log), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--show"]) == 0
    out = capsys.readouterr().out
    decisions = decisions_of(log)
    taken = [line for line in out.splitlines() if line.startswith("-> P")]
    assert len(taken) == len(decisions) and out.rstrip().endswith(f"replay identical: {len(log.read_text().splitlines()) - 1} lines")
    for line, decision in zip(taken, decisions):
        number, label = re.fullmatch(r"-> P(\d) chooses (?:\d+\) )?(.*)", line).groups()
        assert int(number) == decision["player"] and label.startswith(decision["label"])
    # each table is the deciding seat's view: its own hand card by card, the other's as a count
    for table, decision in zip(tables(out), decisions):
        assert RULE.search(table[0]).group(3) == str(decision["player"])
    # from one seat's view throughout
    assert main(["replay", str(log), "--show", "--seat", "2"]) == 0
    views = {RULE.search(t[0]).group(3) for t in tables(capsys.readouterr().out)}
    assert views == {"2"}
