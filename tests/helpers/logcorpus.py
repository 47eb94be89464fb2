"""The identical-logs corpus (issue 31's safety net): seeded random games of every shipped game
and every test ruleset, saved with their full logs, that a change to the core must replay
decision for decision, with the random generator advancing the same way.

A corpus game is one `Case` (a ruleset with options) played from one seed by a random agent:
`random.Random(seed)` picks `randrange(len(options))` at each decision. Its file,
tests/data/logcorpus/<case>.seed<N>.jsonl.gz, holds a header line (the case, the seed, the
result) and then one line per step: the set-up (everything before the first decision), then each
decision with who decided, how many options there were and a digest of them (ids and labels),
the index chosen, the log entries written from that decision up to the next one, and a digest of
the generator's state after it (`generator_digest`). `compare` walks two such records and reports
the first difference: options, a log entry (side by side, with the 3 entries before it), the
generator, the length of the game or its result.

A game is played in two forms: `step` (`decision()`/`apply()`, the resumable form) and `fast`
(`Rules.play_out`, the rollout form from the start); the corpus is written from the first and
both must match it.

    python tests/helpers/logcorpus.py --check [CASE ...]   # compare, print the first divergences
    python tests/helpers/logcorpus.py --write [CASE ...]   # regenerate (a deliberate rule change)

Run it with the checkout's package importable (PYTHONPATH=. or an editable install): the output
names the interpreter package it played. Rulesets that test code writes on the fly (into a
tmp_path, e.g. tests/helpers/brokengames.py) are not files under tests/ and are not covered.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIR = ROOT / "tests" / "data" / "logcorpus"
WRITE_COMMAND = "PYTHONPATH=. python tests/helpers/logcorpus.py --write"
FORMAT = 1
MAX_DECISIONS = 5000  # every corpus game ends: at the ruleset's own cap of decisions if lower
CONTEXT = 3
FORMS = ("step", "fast")


@dataclass(frozen=True)
class Case:
    """A ruleset (a shipped name, or a path relative to the checkout root) with options, and
    the seeds of its corpus games."""

    name: str
    ruleset: str
    options: tuple[tuple[str, Any], ...] = ()
    seeds: tuple[int, ...] = (1, 2)

    def option_dict(self) -> dict[str, Any]:
        return dict(self.options)


SHIPPED_CASES = [
    Case("initiative", "initiative", seeds=(1, 2, 3, 4, 5)),
    Case("lanes", "lanes", seeds=(1, 2, 3, 4, 5)),
    Case("lanes-random-draft", "lanes", (("draft", "random"),)),
    Case("lanes-classic", "lanes-classic"),  # (protection once, incantations in the assault too)
    Case("bases", "bases", seeds=(1, 2, 3, 4, 5)),
    Case("bases-skirmish", "bases", (("format", "skirmish"),)),
    Case("hearts", "hearts", seeds=(1, 2, 3, 4, 5)),
    Case("hearts-no-passing-no-moon", "hearts", (("passing", "none"), ("moon", "off"))),
    Case("harvest", "harvest", seeds=(1, 2, 3, 4, 5)),
    Case("harvest-3-players", "harvest", (("players", 3),)),
    Case("harvest-4-players", "harvest", (("players", 4),)),
    Case("spades", "spades", seeds=(1, 2, 3, 4, 5)),
    Case("spades-blind-nil-deal-limit", "spades", (("blind_nil", True), ("lose_at", None), ("deal_limit", 4))),
    Case("expedition", "expedition", seeds=(1, 2, 3, 4, 5)),
    Case("expedition-3-players-mission-5", "expedition", (("players", 3), ("mission", 5))),
    Case("expedition-5-players-mission-8", "expedition", (("players", 5), ("mission", 8))),
]
TEST_CASES = [
    Case("test-toy", "tests/data/toy/toy.yaml"),
    Case("test-deck52", "tests/data/deck52/deck52.yaml"),
    Case("test-costly", "tests/data/costly/costly.yaml"),
    Case("test-lookahead", "tests/data/lookahead/lookahead.yaml"),
    Case("test-sharedhands", "tests/data/sharedhands/sharedhands.yaml"),
    Case("test-twins", "tests/data/twins/twins.yaml"),
    Case("test-twins-row", "tests/data/twins/twins.yaml", (("layout", "row"), ("picks", 2))),
    Case("test-rounds", "tests/data/rounds/rounds.yaml"),
    Case("test-rounds-asking", "tests/data/rounds/rounds.yaml", (("ask", True),)),
    Case("test-planted", "tests/data/planted/planted.yaml"),
    Case("test-setaside", "tests/data/setaside/setaside.yaml"),
    Case("test-coop", "tests/data/coop/coop.yaml", seeds=(1, 2, 3)),  # (teams: a shared win or loss)
    Case("test-partners", "tests/data/partners/partners.yaml", seeds=(1, 2, 3)),  # (teams scored)
    Case("test-partners-low-limit", "tests/data/partners/partners.yaml", (("limit", 10),)),  # (`lose TEAM`)
    Case("test-subtypes", "tests/data/subtypes/subtypes.yaml"),
    Case("test-heroes", "tests/data/heroes/heroes.yaml"),  # (avatars: a hero card per player)
    Case("test-duel", "tests/data/duel/duel.yaml", seeds=(1, 2, 3)),  # (silence, effects tied to a card, removed)
]
CASES = SHIPPED_CASES + TEST_CASES


# ---------------------------------------------------------------------------------------------
# playing a corpus game


@dataclass
class Step:
    """The set-up (`decision` None) or one decision: the entries logged from it up to the next
    decision (or the end), and the generator's digest then."""

    decision: int | None
    entries: list[dict]
    rng: str
    player: int | None = None
    options: int | None = None
    options_digest: str | None = None
    choice: int | None = None

    def to_json(self) -> dict:
        if self.decision is None:
            return {"decision": None, "rng": self.rng, "entries": self.entries}
        return {"decision": self.decision, "player": self.player, "options": self.options,
                "options_digest": self.options_digest, "choice": self.choice, "rng": self.rng,
                "entries": self.entries}

    @classmethod
    def from_json(cls, data: dict) -> Step:
        return cls(data["decision"], data["entries"], data["rng"], data.get("player"), data.get("options"),
                   data.get("options_digest"), data.get("choice"))


@dataclass
class Played:
    """One corpus game as saved or as played now."""

    case: Case
    seed: int
    form: str
    steps: list[Step] = field(default_factory=list)
    result: dict | None = None
    final: list[dict] = field(default_factory=list)  # every player's observation at the end
    cap: int = MAX_DECISIONS

    @property
    def decisions(self) -> int:
        return len(self.steps) - 1

    def flat_log(self) -> list[tuple[int | None, dict]]:
        """Every log entry with the decision it follows (None: the set-up)."""
        return [(s.decision, e) for s in self.steps for e in s.entries]

    def header(self) -> dict:
        return {"corpus": FORMAT, "case": self.case.name, "ruleset": self.case.ruleset,
                "options": self.case.option_dict(), "seed": self.seed,
                "agent": f"random.Random({self.seed}).randrange(len(options))",
                "max_decisions": self.cap, "decisions": self.decisions,
                "log_entries": sum(len(s.entries) for s in self.steps), "result": self.result,
                "final_observations": self.final}


def generator_digest(game) -> str:
    """A short digest of the state of the game's random generator (the one place that knows
    where the generator lives: adapt it, not the corpus, if the state moves it)."""
    return hashlib.sha1(repr(game.state.rng.getstate()).encode()).hexdigest()[:12]


def options_digest(options) -> str:
    return hashlib.sha1(json.dumps([[o.id, o.label] for o in options]).encode()).hexdigest()[:12]


def _plain(entries: list[dict]) -> list[dict]:
    return json.loads(json.dumps(entries))


def _result(game) -> dict:
    r = game.result
    out = {"winner": r.winner, "reason": r.reason, "turns": r.turns, "unfinished": r.unfinished}
    if not r.plain:  # (teams, scores, a shared result: issue 32)
        out.update(winners=list(r.winners), losers=list(r.losers), scores=None if r.scores is None else list(r.scores))
    return out


def ruleset_location(case: Case) -> str:
    """What `load` is given: a shipped name as it is, a test ruleset as an absolute path."""
    return str(ROOT / case.ruleset) if "/" in case.ruleset else case.ruleset


_loaded: dict[tuple, Any] = {}


def rules_of(case: Case):
    key = (case.ruleset, case.options)
    if key not in _loaded:
        from interpreter import load

        _loaded[key] = load(ruleset_location(case), options=case.option_dict())
    return _loaded[key]


def play(case: Case, seed: int, form: str = "step", rules=None) -> Played:
    """Play the corpus game of `case` from `seed` now, in `form` ("step" or "fast"); `rules`:
    loaded rules to play instead of the case's own (a test's modified copy)."""
    rules = rules if rules is not None else rules_of(case)
    cap = min(rules.max_decisions, MAX_DECISIONS)
    agent = random.Random(seed)
    played = Played(case, seed, form, cap=cap)
    marks: list[tuple[int, str, int, int, str, int]] = []  # log length, rng, seat, options, digest, choice

    def decide(game) -> int:
        seat, options = game.decision()
        choice = agent.randrange(len(options))
        marks.append((game.state.log_length, generator_digest(game), seat, len(options), options_digest(options), choice))
        return choice

    if form == "step":
        game = rules.new_game(seed=seed, max_decisions=cap)
        while not game.is_over:
            game.apply(decide(game))
    elif form == "fast":
        game = rules.play_out(decide, seed=seed, log=True, max_decisions=cap)
    else:
        raise ValueError(f"form must be one of {FORMS}, not {form!r}")
    log = _plain(game.log)
    bounds = [m[0] for m in marks] + [len(log)]
    digests = [m[1] for m in marks] + [generator_digest(game)]
    played.steps.append(Step(None, log[:bounds[0]], digests[0]))
    for i, (_length, _rng, seat, count, digest, choice) in enumerate(marks):
        played.steps.append(Step(i, log[bounds[i]:bounds[i + 1]], digests[i + 1], seat, count, digest, choice))
    played.result = _result(game)
    played.final = json.loads(json.dumps([game.observation(seat) for seat in range(1, len(game.players) + 1)]))
    return played


# ---------------------------------------------------------------------------------------------
# the corpus on disk


def corpus_file(case: Case, seed: int) -> Path:
    return CORPUS_DIR / f"{case.name}.seed{seed}.jsonl.gz"


def corpus_games() -> list[tuple[Case, int]]:
    return [(case, seed) for case in CASES for seed in case.seeds]


def write(played: Played) -> Path:
    lines = [json.dumps(played.header())] + [json.dumps(s.to_json()) for s in played.steps]
    path = corpus_file(played.case, played.seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same game gives the same bytes, so regenerating an unchanged corpus changes no file
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), compresslevel=9, mtime=0))
    return path


def read(case: Case, seed: int) -> Played:
    path = corpus_file(case, seed)
    if not path.is_file():
        raise FileNotFoundError(f"{path.relative_to(ROOT)}: no corpus game for {case.name} seed {seed}; "
                                f"write it with: {WRITE_COMMAND} {case.name}")
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    header = json.loads(lines[0])
    played = Played(case, seed, "corpus", [Step.from_json(json.loads(line)) for line in lines[1:]], header["result"],
                    header["final_observations"])
    return played


# ---------------------------------------------------------------------------------------------
# comparing


@dataclass
class Divergence:
    """The first difference between a saved corpus game (`before`) and the same game now."""

    case: Case
    seed: int
    form: str
    kind: str  # "options", "log", "generator", "length", "result" or "final observation"
    decision: int | None  # None: in the set-up, before the first decision
    summary: str
    entry: int | None = None  # the index of the first differing log entry
    before: Any = None
    after: Any = None
    context: list[tuple[int, int | None, dict]] = field(default_factory=list)

    def where(self) -> str:
        return "the set-up (before decision 0)" if self.decision is None else f"decision {self.decision}"

    def __str__(self) -> str:
        options = f", options {json.dumps(self.case.option_dict())}" if self.case.options else ""
        head = (f"{self.case.name} seed {self.seed} ({self.case.ruleset}{options}; {self.form} form): "
                f"{self.kind} divergence at {self.where()} (0-based): {self.summary}")
        lines = [head]
        if self.kind == "log":
            lines.append(f"  the {len(self.context)} entries before log entry {self.entry} (the same before and after):")
            lines += [f"    {i:>5} [{_decision_name(d)}] {json.dumps(e)}" for i, d, e in self.context] or ["    (none)"]
            lines.append(f"  log entry {self.entry}, side by side:")
            lines += ["    " + line for line in side_by_side(self.before, self.after)]
        elif self.before is not None or self.after is not None:
            lines.append(f"    before (the corpus): {self.before}")
            lines.append(f"    after (this code):   {self.after}")
        lines.append(f"  (regenerate only for a deliberate rule change, said in the commit: {WRITE_COMMAND} {self.case.name})")
        return "\n".join(lines)


def _decision_name(decision: int | None) -> str:
    return "set-up" if decision is None else f"decision {decision}"


def side_by_side(before: Any, after: Any, width: int = 64) -> list[str]:
    """Two log entries as indented JSON in two columns, the lines that differ marked with '!'."""
    def lines(entry: Any) -> list[str]:
        return ["(none: the log ends here)"] if entry is None else json.dumps(entry, indent=1).splitlines()

    def cut(text: str) -> str:
        return text if len(text) <= width else text[:width - 3] + "..."

    out = [f"  {'before (the corpus)':<{width}} | after (this code)"]
    for a, b in itertools.zip_longest(lines(before), lines(after), fillvalue=""):
        out.append(f"{'!' if a != b else ' '} {cut(a):<{width}} | {cut(b)}")
    return out


def _decision_text(step: Step) -> str:
    return f"P{step.player}, {step.options} options (digest {step.options_digest})"


def compare(before: Played, after: Played) -> Divergence | None:
    """The first difference between the saved game and the game played now, or None."""
    case, seed, form = after.case, after.seed, after.form
    flat = before.flat_log()
    offset = 0
    for k in range(max(len(before.steps), len(after.steps))):
        a = before.steps[k] if k < len(before.steps) else None
        b = after.steps[k] if k < len(after.steps) else None
        if a is None or b is None:  # (decision k - 1 is asked in one game only: the other ended)
            asked = b if a is None else a
            summary = (f"the {'corpus game' if a is None else 'game now'} ends before it, "
                       f"the {'game now' if a is None else 'corpus game'} asks it ({_decision_text(asked)})")
            return Divergence(case, seed, form, "length", k - 1, summary,
                              before="the game is over" if a is None else _decision_text(a),
                              after="the game is over" if b is None else _decision_text(b))
        if (a.player, a.options, a.options_digest) != (b.player, b.options, b.options_digest):
            chosen = a.entries[0].get("label") if a.entries else None
            return Divergence(case, seed, form, "options", a.decision,
                              f"the decision offers other options (in the corpus P{a.player} chose option "
                              f"{a.choice} of {a.options}: {chosen!r})", before=_decision_text(a), after=_decision_text(b))
        for j in range(max(len(a.entries), len(b.entries))):
            ea = a.entries[j] if j < len(a.entries) else None
            eb = b.entries[j] if j < len(b.entries) else None
            if ea != eb:
                index = offset + j
                context = [(i, flat[i][0], flat[i][1]) for i in range(max(0, index - CONTEXT), index)]
                summary = (f"log entry {index} differs" if ea is not None and eb is not None else
                           f"log entry {index} is {'missing now' if eb is None else 'new'}")
                if a.decision is not None:
                    summary += f" (P{a.player} chose option {a.choice} of {a.options})"
                return Divergence(case, seed, form, "log", a.decision, summary, index, ea, eb, context)
        if a.rng != b.rng:
            return Divergence(case, seed, form, "generator", a.decision,
                              "the logs agree so far, but the random generator's state after it differs",
                              before=a.rng, after=b.rng)
        offset += len(a.entries)
    last = before.decisions - 1 if before.decisions else None
    if before.result != after.result:
        return Divergence(case, seed, form, "result", last, "the result differs",
                          before=before.result, after=after.result)
    if before.final != after.final:  # (what the logs do not say, such as a score no event tells)
        path, a, b = first_difference(before.final, after.final)
        return Divergence(case, seed, form, "final observation", last,
                          f"the observations at the end differ first at {path}", before=a, after=b)
    return None


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any]:
    """The first place two plain JSON values differ: its path (like [0].players[1].score), and
    the two values there (None where one has nothing)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key) != b.get(key) or (key in a) != (key in b):
                return first_difference(a.get(key), b.get(key), f"{path}.{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return path or "(the whole value)", a, b


def check(case: Case, seed: int, form: str = "step") -> Divergence | None:
    """Play the corpus game now and compare it with the saved one."""
    return compare(read(case, seed), play(case, seed, form))


# ---------------------------------------------------------------------------------------------
# which rulesets need corpus games


def _yaml(path: Path) -> Any:
    import yaml

    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def ruleset_files_under_tests(root: Path = ROOT) -> list[str]:
    """Every ruleset file under tests/ (relative to the checkout root): a YAML mapping with a
    `name` and `players`, `zones` or `extends`, and no `ruleset` (scenarios and override files
    name the ruleset they use)."""
    import yaml

    found = []
    for path in sorted((root / "tests").rglob("*.y*ml")):
        if path.suffix not in (".yaml", ".yml"):
            continue
        try:
            data = _yaml(path)
        except yaml.YAMLError:
            continue  # (not a ruleset anyone could load)
        if isinstance(data, dict) and "name" in data and "ruleset" not in data and \
                any(k in data for k in ("players", "zones", "extends")):
            found.append(path.relative_to(root).as_posix())
    return found


def scenario_rulesets(root: Path = ROOT) -> list[str]:
    """The rulesets the scenario files under tests/scenarios use: shipped names, or paths
    relative to the checkout root (a path to a shipped ruleset counts as its name)."""
    from interpreter.paths import shipped_rulesets

    shipped = {path.resolve(): name for name, path in shipped_rulesets().items()}
    found = set()
    for path in sorted((root / "tests" / "scenarios").rglob("*.y*ml")):
        data = _yaml(path)
        name = data.get("ruleset") if isinstance(data, dict) else None
        if not isinstance(name, str):
            continue
        if "/" in name or name.endswith((".yaml", ".yml")):
            file = (path.parent / name).resolve()
            if file.is_dir():
                file = file / f"{file.name}.yaml"
            try:
                name = shipped.get(file) or file.relative_to(root.resolve()).as_posix()
            except ValueError:  # (outside the checkout: no case can name it but by this path)
                name = file.as_posix()
        found.add(name)
    return sorted(found)


def coverage_problems(root: Path = ROOT, cases: list[Case] | None = None) -> list[str]:
    """What keeps the corpus from covering every shipped ruleset, every ruleset file under
    tests/ and every ruleset a scenario uses: a ruleset no case plays, a corpus file missing,
    a corpus file no case plays; each with the command that mends it."""
    from interpreter.paths import shipped_rulesets

    cases = CASES if cases is None else cases
    covered = {case.ruleset for case in cases}
    needed = list(shipped_rulesets()) + ruleset_files_under_tests(root) + scenario_rulesets(root)
    problems = [f"{name} has no corpus games: add a Case for it to CASES in tests/helpers/logcorpus.py, "
                f"then run: {WRITE_COMMAND} CASE" for name in sorted(set(needed) - covered)]
    corpus = root / CORPUS_DIR.relative_to(ROOT)
    wanted = set()
    for case in cases:
        for seed in case.seeds:
            path = corpus / corpus_file(case, seed).name
            wanted.add(path)
            if not path.is_file():
                problems.append(f"{path.relative_to(root).as_posix()} is missing: run: {WRITE_COMMAND} {case.name}")
    for stale in sorted(set(corpus.glob("*.jsonl.gz")) - wanted):
        problems.append(f"{stale.relative_to(root).as_posix()} is played by no case: run: {WRITE_COMMAND} "
                        "(which removes it)")
    return problems


# ---------------------------------------------------------------------------------------------
# the command


def _chosen(names: list[str]) -> list[Case]:
    known = {case.name: case for case in CASES}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"logcorpus: unknown case {', '.join(unknown)}; cases: {', '.join(known)}")
    return [known[n] for n in names] if names else CASES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], prog="logcorpus.py")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="play every corpus game and save it")
    mode.add_argument("--check", action="store_true", help="compare every corpus game with the saved one")
    parser.add_argument("--form", choices=(*FORMS, "both"), default="both", help="with --check: which form to play")
    parser.add_argument("cases", nargs="*", metavar="CASE", help="only these cases (default: all)")
    args = parser.parse_args(argv)
    import interpreter

    print(f"logcorpus: playing with {Path(interpreter.__file__).parent}")
    cases = _chosen(args.cases)
    if args.write:
        return _write(cases, everything=not args.cases)
    forms = FORMS if args.form == "both" else (args.form,)
    failed = 0
    for case in cases:
        for seed in case.seeds:
            for form in forms:
                found = check(case, seed, form)
                if found is not None:
                    failed += 1
                    print(found, end="\n\n")
    games = sum(len(c.seeds) for c in cases)
    if failed:
        print(f"logcorpus: {failed} of {games * len(forms)} plays diverge ({' and '.join(forms)} forms)")
        return 1
    print(f"logcorpus: {games} games identical to the corpus ({' and '.join(forms)} forms)")
    return 0


def _write(cases: list[Case], everything: bool) -> int:
    total = 0
    for case in cases:
        for seed in case.seeds:
            played = play(case, seed, "step")
            fast = compare(played, play(case, seed, "fast"))
            if fast is not None:  # (a bug of this code: the two forms must agree before anything is saved)
                print(f"logcorpus: not written, the fast form differs from the step form:\n{fast}")
                return 1
            path = write(played)
            total += path.stat().st_size
            print(f"{path.relative_to(ROOT)}: {played.decisions} decisions, "
                  f"{sum(len(s.entries) for s in played.steps)} log entries, {path.stat().st_size} bytes")
    if everything:
        wanted = {corpus_file(c, s) for c, s in corpus_games()}
        for stale in sorted(set(CORPUS_DIR.glob("*.jsonl.gz")) - wanted):
            stale.unlink()
            print(f"{stale.relative_to(ROOT)}: removed (no case plays it)")
    print(f"logcorpus: {sum(len(c.seeds) for c in cases)} games written, {total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
