"""Fuzzing the loaders: generated card text and mutated shipped files, each loaded the way the
project loads it, must load cleanly or fail with the project's own located error.

Six kinds of case (`KINDS`):

- ``text``: card text generated from grammar/cardrules.lark (`hypothesis.extra.lark.from_lark`),
  sometimes mutated, loaded as a card file or a rule code file of a copy of tests/data/toy;
- ``cards``, ``rules``: a shipped ``cards/<game>/*.cards`` or ``rulesets/<game>/*.rules`` file,
  mutated (`mutations`), loaded with its game's ruleset (`interpreter.load`), and when it loads,
  the start of a game played (`PLAY_DECISIONS` random decisions): a file the loader accepts must
  not break the engine;
- ``ruleset``: a shipped ``rulesets/<game>/*.yaml``, mutated, loaded with `interpreter.load` (and
  played, as above);
- ``deck``: a shipped ``rulesets/<game>/decks/*.yaml``, mutated, read with ``rules.deck(path)``;
- ``scenario``: a ``tests/scenarios/<game>/*.yaml``, mutated, checked (`check_scenario`) and run
  (`run_scenario`).

Every case runs in a copy of the checkout's data made once (`Workspace`): the mutated file is
written over its copy and restored afterwards. A case's `Outcome` is ``clean``, ``located`` (a
`CardrulesError` each of whose errors starts with a real ``file:line:col`` -- an existing file, a
line it has, a column on that line -- or, for an error about a whole file, names the file),
``unlocated`` (a `CardrulesError` without such a place), ``traceback`` (any other exception) or
``hang`` (more than `TIME_LIMIT` seconds of CPU time). The last three are failures; so is an error whose text
cannot be printed (not encodable as UTF-8: the command line prints every error).

`check` runs a kind's cases with Hypothesis: in ``assert`` mode (the tests) the first failure
fails, and Hypothesis shrinks it; in ``survey`` mode (benchmarks/fuzz.py) every case is counted in
`TALLY` and failures are collected, not raised. tests/fuzz/ holds the tests, benchmarks/fuzz.py
the long run.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import random
import re
import shutil
import signal
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from interpreter import load
from interpreter.errors import CardrulesError, ErrorList
from interpreter.lang.builtins import BUILTINS
from interpreter.lang.parser import _parser, grammar_text, reserved_words
from interpreter.lang.runtime import CONTEXT_NAMES, TYPE_NAMES
from interpreter.scenarios import _RULES_CACHE, check_scenario, run_scenario

REPO = Path(__file__).resolve().parents[2]
KINDS = ("text", "cards", "rules", "ruleset", "deck", "scenario")
# The number of card-text cases (every kind of file gets a tenth as many): by default, and in the
# long run (CARDRULES_LONG=1, as for the property tests, README; --fuzz-cases N overrides both).
DEFAULT_CASES = 100
LONG_CASES = 10_000
TIME_LIMIT = 5.0  # seconds of CPU time one case may take, load and all (`run_case`)
PLAY_DECISIONS = 30  # decisions played after a mutated ruleset, card or rule file loads
OUTCOMES = ("clean", "located", "unlocated", "traceback", "hang")
FAILURES = ("unlocated", "traceback", "hang")


def default_cases() -> int:
    """Card-text cases when no count is given: `LONG_CASES` with CARDRULES_LONG=1, else `DEFAULT_CASES`."""
    return LONG_CASES if os.environ.get("CARDRULES_LONG") == "1" else DEFAULT_CASES


def cases_for(kind: str, total: int) -> int:
    """How many cases of a kind a run of `total` (--fuzz-cases) tries: all for card text, a tenth
    (at least 1) for each kind of file."""
    return total if kind == "text" else max(1, total // 10)


# ---------------------------------------------------------------- outcomes
class Hang(BaseException):
    """Raised by the alarm in a case past its time limit (a BaseException: no `except Exception`
    in the code under test can swallow it)."""


@dataclass
class Outcome:
    """What one case did: its kind of outcome, the error text or traceback, how long it took."""

    kind: str
    detail: str = ""
    seconds: float = 0.0
    signature: str = ""  # for failures: what makes two of them the same defect

    @property
    def failed(self) -> bool:
        return self.kind in FAILURES


@dataclass
class Tally:
    """Counts of outcomes by case kind, the slowest case, and the first failure of each signature.
    (Under pytest the counts include the cases Hypothesis runs again while it shrinks a failure.)"""

    counts: dict[str, Counter] = field(default_factory=dict)
    seconds: Counter = field(default_factory=Counter)
    slowest: dict[str, float] = field(default_factory=dict)
    failures: dict[str, tuple[str, Outcome, str]] = field(default_factory=dict)  # signature -> (kind, outcome, case)

    def add(self, kind: str, outcome: Outcome, case: str) -> None:
        self.counts.setdefault(kind, Counter())[outcome.kind] += 1
        self.seconds[kind] += outcome.seconds
        self.slowest[kind] = max(self.slowest.get(kind, 0.0), outcome.seconds)
        if outcome.failed:
            self.failures.setdefault(f"{kind}: {outcome.signature}", (kind, outcome, case))

    def rows(self) -> list[dict[str, Any]]:
        """One row per kind: tried, each outcome, seconds in cases, the slowest case."""
        return [{"kind": kind, "tried": sum(c.values()), **{o: c[o] for o in OUTCOMES},
                 "seconds": round(self.seconds[kind], 1), "slowest": round(self.slowest[kind], 2)}
                for kind, c in self.counts.items()]

    def table(self) -> str:
        """The counts as a text table."""
        head = ("kind", "tried", *OUTCOMES, "seconds", "slowest")
        lines = ["  ".join(f"{h:>9}" for h in head)]
        for row in self.rows():
            lines.append("  ".join(f"{row[h]!s:>9}" for h in head))
        return "\n".join(lines)


TALLY = Tally()


def _lines(path: Path) -> list[str]:
    """The lines of a file as its reader counts them: YAML breaks lines at \\r, \\n, NEL, LS and
    PS; Lark (card and rule code) at \\n only."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    if path.suffix in (".yaml", ".yml"):
        return re.split("\r\n|[\r\n\x85\u2028\u2029]", text)
    return text.split("\n")


def where_problem(error: CardrulesError, files: Sequence[Path]) -> str | None:
    """Why one error is not located (None if it is): its text must start with its span
    ``file:line:col:`` at an existing file, a line it has and a column on that line (or just past
    its end); an error without a place must name one of `files` (an error about a whole file)."""
    text = str(error)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        return f"its text cannot be printed ({err.reason} at {err.start})"
    span = error.span
    if span is None or span.line <= 0:
        if any(str(f) in text or f.name in text for f in files):
            return None
        return f"no place, and it names none of {[f.name for f in files]}"
    if not text.startswith(f"{error.where()}: ") or not error.where().endswith(f":{span.line}:{span.column}"):
        return f"its text does not start with {span}"
    path = Path(span.file)
    if not path.is_file():
        return f"{span.file} is not a file"
    lines = _lines(path)
    if span.line > len(lines):
        return f"line {span.line} is past the end of the file ({len(lines)} lines)"
    if not 1 <= span.column <= len(lines[span.line - 1]) + 2:
        return f"column {span.column} is not on line {span.line} ({len(lines[span.line - 1])} characters)"
    return None


def classify(error: BaseException, files: Sequence[Path]) -> Outcome:
    """The outcome of a case that raised `error`."""
    if isinstance(error, Hang):
        return Outcome("hang", "".join(traceback.format_exception(error)), signature=_raise_site(error))
    if isinstance(error, CardrulesError):
        for e in _flat(error):
            problem = where_problem(e, files)
            if problem is not None:
                return Outcome("unlocated", f"{problem}:\n{e}", signature=f"{type(e).__name__}: {problem}"
                               f" ({_raise_site(e)})")
        return Outcome("located", str(error))
    return Outcome("traceback", "".join(traceback.format_exception(error)),
                   signature=f"{type(error).__name__} at {_raise_site(error)}: {_gist(error)}")


def _flat(error: CardrulesError) -> list[CardrulesError]:
    """The single errors of an error, through ErrorLists inside ErrorLists."""
    if not isinstance(error, ErrorList):
        return [error]
    return [single for e in error.errors for single in _flat(e)]


def _gist(error: BaseException) -> str:
    """An exception's message with its particulars (quoted names, numbers) blanked, so that one
    defect met with different names has one signature."""
    text = str(error).split("\n", 1)[0][:200]
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text))


def _raise_site(error: BaseException) -> str:
    """Where in the project's code an exception was raised: the innermost frame under interpreter/
    (or the innermost at all), as file:line."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "interpreter" in Path(f.filename).parts] or frames
    if not ours:
        return "?"
    frame = ours[-1]
    return f"{Path(frame.filename).name}:{frame.lineno} ({frame.name})"


_ARMED: list[float] = []  # the limit of the case being run; empty once it has ended


def _on_alarm(_signum: int, _frame: Any) -> None:
    # (the CPU and the wall-clock alarm may both go off: the second, once the case has ended -- on
    # a loaded machine 0.2 s of CPU can take longer than 0.8 s -- must not raise in its handling)
    if _ARMED:
        raise Hang(f"over the time limit of {_ARMED[0]} s")


# A case is timed by the CPU time of this process (ITIMER_PROF), as the project measures speed:
# wall time swings several-fold on a shared 2-core machine running the suite on both cores. The
# wall-clock alarm, at WALL_FACTOR times the limit, still ends a case that waits without computing.
WALL_FACTOR = 4


def run_case(action: Callable[[], object], files: Sequence[Path], limit: float = TIME_LIMIT) -> Outcome:
    """Run one case: `action` under alarms of `limit` seconds of CPU time and `WALL_FACTOR` times
    that of wall time (where there are such timers; the CPU time is measured in any case),
    classified."""
    alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if alarm:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        previous_prof = signal.signal(signal.SIGPROF, _on_alarm)
        _ARMED[:] = [limit]
        signal.setitimer(signal.ITIMER_PROF, limit)
        signal.setitimer(signal.ITIMER_REAL, limit * WALL_FACTOR)
    start = time.process_time()
    try:
        try:
            action()
        finally:
            _ARMED.clear()
        outcome = Outcome("clean")
    except (Exception, Hang, RecursionError) as error:  # noqa: B014 - every kind, named for the reader
        outcome = classify(error, files)
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGALRM, previous)
            signal.signal(signal.SIGPROF, previous_prof)
    outcome.seconds = time.process_time() - start
    if outcome.seconds > limit and not outcome.failed:
        outcome = Outcome("hang", f"took {outcome.seconds:.1f} s of CPU", outcome.seconds, "over the time limit")
    return outcome


# ---------------------------------------------------------------- the workspace
def _game_of(rel: Path) -> str:
    """The game a shipped file belongs to: cards/<game>/..., rulesets/<game>/..., tests/scenarios/<game>/..."""
    return rel.parts[2] if rel.parts[0] == "tests" else rel.parts[1]


class Workspace:
    """A copy of the checkout's cards/, rulesets/, tests/scenarios/ and the test rulesets of
    tests/data/ (which scenarios may name: tests/data/subtypes), made once, in which one file at a
    time is replaced by a mutation (`rewritten`)."""

    def __init__(self, root: Path, source: Path = REPO) -> None:
        self.root = root
        self.source = source
        data = sorted(f"tests/data/{d.name}" for d in (source / "tests" / "data").iterdir()
                      if d.is_dir() and d.name != "logcorpus")  # (the corpus: no ruleset, and large)
        for rel in ("cards", "rulesets", "tests/scenarios", *data):
            shutil.copytree(source / rel, root / rel, dirs_exist_ok=True)
        toy = root / "tests/data/toy/toy.yaml"
        text = toy.read_text(encoding="utf-8")
        assert "code: [toy.rules]" in text and "cards: [toy.cards]" in text
        self.toy_rules = toy.with_name("toy-fuzz-rules.yaml")
        self.toy_rules.write_text(text.replace("code: [toy.rules]", "code: [toy.rules, fuzz.rules]"), encoding="utf-8")
        self.toy_cards = toy.with_name("toy-fuzz-cards.yaml")
        self.toy_cards.write_text(text.replace("cards: [toy.cards]", "cards: [toy.cards, fuzz.cards]"), encoding="utf-8")
        self._rules: dict[tuple[str, str], Any] = {}

    def files(self, kind: str) -> list[Path]:
        """The shipped files of a kind, relative to the checkout, sorted."""
        patterns = {"cards": ["cards/*/*.cards"], "rules": ["rulesets/*/*.rules"], "ruleset": ["rulesets/*/*.yaml"],
                    "deck": ["rulesets/*/decks/*.yaml"], "scenario": ["tests/scenarios/*/*.yaml"]}[kind]
        return sorted(p.relative_to(self.source) for pattern in patterns for p in self.source.glob(pattern))

    def original(self, rel: Path) -> bytes:
        """The shipped content of a file."""
        return (self.source / rel).read_bytes()

    @contextlib.contextmanager
    def rewritten(self, rel: Path, content: bytes) -> Iterator[Path]:
        """The workspace with `rel` holding `content`, restored afterwards; yields its path."""
        path = self.root / rel
        saved = path.read_bytes()
        path.write_bytes(content)
        try:
            yield path
        finally:
            path.write_bytes(saved)

    def ruleset_for(self, rel: Path) -> Path:
        """The ruleset file that loads a shipped card or rule file: its game's `<game>.yaml`."""
        game = _game_of(rel)
        return self.root / "rulesets" / game / f"{game}.yaml"

    def rules_for_deck(self, rel: Path) -> Any:
        """The shipped rules a deck file is read with, loaded once: its game's, with the deck
        format option set to the deck's `format:` (when it has one)."""
        game = _game_of(rel)
        deck = yaml.safe_load(self.original(rel))
        fmt = str(deck.get("format", "")) if isinstance(deck, dict) else ""
        key = (game, fmt)
        if key not in self._rules:
            rules = load(self.root / "rulesets" / game / f"{game}.yaml")
            option = rules.ruleset.deck_format_option
            if fmt and option:
                rules = load(self.root / "rulesets" / game / f"{game}.yaml", options={option: fmt})
            self._rules[key] = rules
        return self._rules[key]


# ---------------------------------------------------------------- loading one case
def load_text(ws: Workspace, text: str, as_rules: bool) -> Outcome:
    """Card text loaded into the toy ruleset, as a rule code file (`as_rules`) or a card file."""
    ruleset = ws.toy_rules if as_rules else ws.toy_cards
    target = ruleset.with_name("fuzz.rules" if as_rules else "fuzz.cards")
    target.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    return run_case(lambda: load(ruleset), [target])


def load_and_play(ruleset: Path, decisions: int = PLAY_DECISIONS) -> None:
    """Load a ruleset, then play the start of a game (its default decks, seed 1): up to
    `decisions` decisions, each option chosen at random (seeded)."""
    rules = load(ruleset)
    game = rules.new_game(seed=1)
    rng = random.Random(1)
    for _ in range(decisions):
        if game.is_over:
            return
        _player, options = game.decision()
        game.apply(rng.randrange(len(options)))


def load_file(ws: Workspace, kind: str, rel: Path, content: bytes) -> Outcome:
    """A shipped file of a kind replaced by `content`, loaded as the project loads it (a ruleset,
    card or rule file: and the start of a game played, when it loads)."""
    with ws.rewritten(rel, content) as path:
        if kind in ("cards", "rules"):
            return run_case(lambda: load_and_play(ws.ruleset_for(rel)), [path])
        if kind == "ruleset":
            return run_case(lambda: load_and_play(path), [path])
        if kind == "deck":
            rules = ws.rules_for_deck(rel)
            return run_case(lambda: rules.deck(str(path)), [path])
        if kind == "scenario":
            if len(_RULES_CACHE) > 64:  # mutated options each cache a Rules: keep memory bounded
                _RULES_CACHE.clear()
            return run_case(lambda: (check_scenario(path), run_scenario(path)), [path])
    raise ValueError(f"no such kind of file: {kind}")


# ---------------------------------------------------------------- mutations
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|\d+|\S')
NUMBER = re.compile(r"\d+")
# Numbers to put in place of one: the limits and just past them, negatives, Python's 4,300-digit
# limit, floats and forms YAML reads as numbers.
NUMBERS = ["0", "-1", "-0", "1", "999999999999999", "1000000000000000", "1000000000000001", "-1000000000000001",
           "9007199254740993", "9223372036854775808", "1" + "0" * 400, "9" * 5000, "1e309", "-1e309", "1.5",
           ".inf", ".nan", "0x7fffffffffffffff", "0o17", "1_000", "+12", "2**63"]
SPECIAL_CHARS = ["\x00", "\t", "\r", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\u00a0", "\u2028", "\u2029", "\ufeff",
                 "\u0301", "\ud7ff", "\U0001f0a1", "\U0010ffff", "{", "}", "[", "]", "(", ")", ":", ",", '"', "'",
                 "#", "-", "|", ">", "&", "*", "!", "%", "@", "`", "\\", "?", " ", "\n"]
# Bytes that are not UTF-8, as the characters that stand for them when text is encoded with
# errors="surrogateescape" (a lone lead byte, a stray continuation byte, an encoded surrogate,
# a code point past U+10FFFF).
BAD_BYTES = [b.decode("utf-8", errors="surrogateescape")
             for b in (b"\xff", b"\xc3", b"\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80")]
TEXT_OPS = ("delete_line", "duplicate_line", "swap_lines", "delete_chars", "insert_chars", "replace_token",
            "change_number", "indent", "insert_unicode", "truncate")


@dataclass
class Mutation:
    """A mutated file: which one, its new bytes and the steps that made them."""

    rel: Path
    content: bytes
    steps: list[str]

    def describe(self, original: bytes, context: int = 1) -> str:
        """The steps and a short diff from the original (for a failure's message)."""
        old = original.decode("utf-8", errors="replace").splitlines()
        new = self.content.decode("utf-8", errors="replace").splitlines()
        diff = list(difflib.unified_diff(old, new, "shipped", "mutated", n=context, lineterm=""))
        if len(diff) > 40:
            diff = diff[:40] + [f"... ({len(diff) - 40} more diff lines)"]
        shown = "\n".join(line if len(line) < 300 else line[:300] + "..." for line in diff)
        return f"{self.rel}: {'; '.join(self.steps)}\n{shown}"


def _index(draw: Callable, size: int) -> int:
    """An index into a sequence of `size` (> 0) items."""
    return draw(st.integers(0, size - 1))


def _line_op(draw: Callable, text: str, op: str) -> tuple[str, str]:
    """Delete, duplicate or swap lines."""
    lines = text.split("\n")
    i = _index(draw, len(lines))
    if op == "delete_line":
        del lines[i]
        return "\n".join(lines), f"delete line {i + 1}"
    if op == "duplicate_line":
        lines.insert(i, lines[i])
        return "\n".join(lines), f"duplicate line {i + 1}"
    j = _index(draw, len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines), f"swap lines {i + 1} and {j + 1}"


def _char_op(draw: Callable, text: str, op: str) -> tuple[str, str]:
    """Delete, insert (ASCII, any Unicode, or bytes that are not UTF-8) characters; truncate."""
    pos = draw(st.integers(0, len(text)))
    if op == "delete_chars":
        n = draw(st.integers(1, 8))
        return text[:pos] + text[pos + n:], f"delete {n} characters at {pos}"
    if op == "truncate":
        return text[:pos], f"truncate at {pos}"
    if op == "insert_chars":
        alphabet = st.sampled_from(SPECIAL_CHARS[16:]) | st.characters(min_codepoint=32, max_codepoint=126)
        new = draw(st.text(alphabet, min_size=1, max_size=6))
    else:
        new = draw(st.sampled_from(SPECIAL_CHARS) | st.characters(codec="utf-8") | st.sampled_from(BAD_BYTES))
    return text[:pos] + new + text[pos:], f"insert {new!r} at {pos}"


def _token_op(draw: Callable, text: str, op: str) -> tuple[str, str]:
    """Replace a token by another of the file, or a number by an extreme one."""
    pattern = NUMBER if op == "change_number" else TOKEN
    found = list(pattern.finditer(text))
    if not found:
        return text, f"{op}: nothing to change"
    match = found[_index(draw, len(found))]
    if op == "change_number":
        new = draw(st.sampled_from(NUMBERS))
    else:
        new = found[_index(draw, len(found))].group()
    return text[:match.start()] + new + text[match.end():], f"replace {match.group()!r} at {match.start()} by {new!r}"


def _indent_op(draw: Callable, text: str) -> tuple[str, str]:
    """Change one line's indentation: more, less, none, or a tab."""
    lines = text.split("\n")
    i = _index(draw, len(lines))
    line = lines[i]
    stripped = line.lstrip(" \t")
    how = draw(st.sampled_from(["+1", "+2", "+4", "-1", "-2", "0", "tab"]))
    indent = len(line) - len(stripped)
    if how == "tab":
        lines[i] = "\t" + line
    elif how == "0":
        lines[i] = stripped
    else:
        lines[i] = " " * max(0, indent + int(how)) + stripped
    return "\n".join(lines), f"indent line {i + 1} {how}"


def apply_op(draw: Callable, text: str, op: str) -> tuple[str, str]:
    """One mutation (an entry of `TEXT_OPS`) of `text`; with the step, in words."""
    if op in ("delete_line", "duplicate_line", "swap_lines"):
        return _line_op(draw, text, op)
    if op in ("delete_chars", "insert_chars", "insert_unicode", "truncate"):
        return _char_op(draw, text, op)
    if op in ("replace_token", "change_number"):
        return _token_op(draw, text, op)
    if op == "indent":
        return _indent_op(draw, text)
    raise ValueError(f"no such mutation: {op}")


@st.composite
def mutated_text(draw: Callable, text: str) -> tuple[str, list[str]]:
    """`text` after one to three mutations; with the steps, in words."""
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        text, step = apply_op(draw, text, draw(st.sampled_from(TEXT_OPS)))
        steps.append(step)
    return text, steps


@st.composite
def mutations(draw: Callable, ws: Workspace, kind: str) -> Mutation:
    """A shipped file of a kind, mutated (some of the characters inserted stand for bytes that are
    not UTF-8)."""
    rel = draw(st.sampled_from(ws.files(kind)))
    text, steps = draw(mutated_text(ws.original(rel).decode("utf-8")))
    return Mutation(rel, text.encode("utf-8", errors="surrogateescape"), steps)


# ---------------------------------------------------------------- card text from the grammar
# Rules of the precedence ladder: each gets short cuts to a leaf, so that a random derivation
# ends before Hypothesis's size limit instead of nesting ~10 rules deep per operand.
_LADDER = ("expr", "or_expr", "and_expr", "not_expr", "comparison", "sum", "product", "unary", "postfix")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Names of the toy ruleset (types, attributes, zones, procedures, keywords, events), of the
# language (built-ins, context names, types) and a few that name nothing.
TOY_NAMES = ["unit", "site", "power", "guard", "flag", "colours", "colour", "role", "counter", "score", "pile",
             "hand", "board", "pool", "sites", "run_setup", "main_phase", "poke", "spin", "boost", "shared",
             "sturdy", "poked", "bumped", "tick", "main", "finish", "name", "owner", "controller", "zone", "row",
             "id", "turn_start", "phase_start", "moved", "card", "amount", "target"]
OTHER_NAMES = ["x", "y", "p", "c", "n", "k", "_", "a1", "order", "up", "at", "desc", "iff", "Zone",
               "__class__", "__import__", "eval", "print", "True", "None", "lambda", "yield", "self_", "if", "none",
               "x" * 300]
STRINGS = ['""', '"a"', '"top"', '"left"', '"right"', '"main"', '"{card} is poked"', '"{"', '"}{x!r:>9}"',
           r'"q\"uote"', r'"back\\slash"', r'"\n"', '"é ✓ 🂡"', r'"\u00e9"', r'"\U0010ffff"', '"\'\'\'"',
           '"""', '"\\t"', '"' + "s" * 200 + '"']
INTS = ["0", "1", "2", "3", "10", "007", "999999999999999", "1000000000000000", "1000000000000001",
        "9223372036854775808", "1" * 40]
SEPARATORS = [" ", " ", " ", "\n", "\t", "\r\n", "  # a comment\n", "\n\n"]


def _generation_grammar() -> Lark:
    """The project's grammar without %ignore (the strategies place the whitespace), with short
    cuts to leaves, as an Earley parser (which `from_lark` reads; the project parses with LALR)."""
    text = re.sub(r"(?m)^%ignore.*$", "", grammar_text())
    rules = {rule.origin.name for rule in _parser("start").rules}
    text += "".join(f"\n%extend {name}: atom | NAME | INT | STRING" for name in _LADDER if name in rules)
    return Lark(text, parser="earley", start=["start", "block", "expr"])


def _token(values: Sequence[str]) -> st.SearchStrategy[str]:
    """One of `values` and a separator after it."""
    return st.tuples(st.sampled_from(list(values)), st.sampled_from(SEPARATORS)).map("".join)


def _explicit(grammar: Lark, start: str) -> dict[str, st.SearchStrategy[str]]:
    """A strategy for every terminal `start` reaches, each followed by whitespace: keywords and
    punctuation as written, names from the toy's and the language's vocabulary, numbers up to
    past the limit."""
    names = sorted({*TOY_NAMES, *BUILTINS, *CONTEXT_NAMES, *TYPE_NAMES}
                   - reserved_words())
    explicit = {t.name: st.just(t.pattern.value + " ") for t in grammar.terminals if t.pattern.type == "str"}
    explicit.update(
        NAME=_token(names) | _token(OTHER_NAMES),
        INT=_token(INTS),
        STRING=_token(STRINGS),
        ASSIGN_OP=_token(["=", "+=", "-="]),
        COMP_OP=_token(["==", "!=", "<=", ">=", "<", ">"]),
        ADD_OP=_token(["+", "-"]),
        MUL_OP=_token(["*", "/", "%"]),
        DESC=_token(["desc"]),
    )
    _terminals, rules, _ignore = grammar.grammar.compile([start], ())
    used = {symbol.name for rule in rules for symbol in rule.expansion if symbol.is_term}
    return {name: strategy for name, strategy in explicit.items() if name in used}


_GRAMMAR: list[Lark] = []


def generation_grammar() -> Lark:
    """The generation grammar, built once."""
    if not _GRAMMAR:
        _GRAMMAR.append(_generation_grammar())
    return _GRAMMAR[0]


def card_texts() -> st.SearchStrategy[str]:
    """Card text from the grammar: whole files, a procedure around generated statements, a function
    and a card around a generated expression; a fifth of them mutated (near misses)."""
    grammar = generation_grammar()
    module, block, expr = (from_lark(grammar, start=start, explicit=_explicit(grammar, start))
                           for start in ("start", "block", "expr"))
    texts = st.one_of(
        module,
        block.map(lambda b: f"procedure fuzz(card, amount) {b}\n"),
        expr.map(lambda e: f"function fuzz(card, amount) = {e}\n"),
        expr.map(lambda e: f'card "Fuzz" : unit {{\n  on poked if {e} {{ let v = {e} }}\n}}\n'),
    )
    return st.one_of(texts, texts, texts, texts, texts.flatmap(lambda t: mutated_text(t).map(lambda m: m[0])))


# ---------------------------------------------------------------- running a kind
FUZZ_SETTINGS = dict(deadline=None, database=None, derandomize=False, print_blob=True,
                     suppress_health_check=list(HealthCheck))


def check(ws: Workspace, kind: str, cases: int, mode: str = "assert", seed: int | None = None) -> None:
    """Run `cases` cases of a kind. In "assert" mode the first failing case fails (Hypothesis then
    shrinks it); in "survey" mode every case is tallied in `TALLY` and none raises."""
    if kind == "text":
        strategy = st.tuples(card_texts(), st.booleans())

        def one(case: tuple[str, bool]) -> tuple[Outcome, str]:
            text, as_rules = case
            shown = text.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")
            if len(shown) > 3000:
                shown = shown[:3000] + f"... ({len(text)} characters)"
            return load_text(ws, text, as_rules), f"as a {'rule' if as_rules else 'card'} file:\n{shown}"
    else:
        strategy = mutations(ws, kind)

        def one(case: Mutation) -> tuple[Outcome, str]:
            return load_file(ws, kind, case.rel, case.content), case.describe(ws.original(case.rel))

    def test(case: Any) -> None:
        outcome, shown = one(case)
        TALLY.add(kind, outcome, shown)
        if mode == "assert":
            assert not outcome.failed, f"{outcome.kind}: {outcome.detail}\n--- the case ---\n{shown}"

    run = settings(max_examples=cases, **FUZZ_SETTINGS)(given(strategy)(test))
    if seed is not None:
        from hypothesis import seed as hypothesis_seed

        run = hypothesis_seed(seed)(run)
    run()


def workspace_in(folder: Path) -> Workspace:
    """A fresh workspace in `folder` (which must be empty or new)."""
    folder.mkdir(parents=True, exist_ok=True)
    assert not any(folder.iterdir()), f"{folder} is not empty"
    return Workspace(folder)
