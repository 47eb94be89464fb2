"""The examples of the designer's documentation work as written.

- every ```cardrules block of docs/language.md and docs/rulesets.md parses: a block that starts
  with card/procedure/function/keyword is a file, any other block is statements;
- every ```yaml block of docs/rulesets.md that is a whole ruleset (it has `name:` and `zones:`), or
  a variant (`extends:`), validates against rulesets/schema/ruleset.schema.json;
- the walkthrough game of docs/rulesets.md (the blocks marked `<!-- file: pebbles/... -->`) is
  written to a folder, loads, validates, passes its scenarios and plays to the end;
- the lists in docs/language.md that mirror the code (built-in functions, reserved words) are
  complete.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.lang.builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from interpreter.lang.parser import CONTEXT_WORDS, parse, parse_block, reserved_words
from interpreter.rules.schema import validate
from interpreter.rules.yamlload import load_yaml_text

DOCS = Path(__file__).resolve().parents[1] / "docs"
LANGUAGE = DOCS / "language.md"
RULESETS = DOCS / "rulesets.md"

DEFINITION_WORDS = {"card", "procedure", "function", "keyword"}
FENCE = re.compile(r"^```\s*([\w+-]*)\s*$")
FILE_MARK = re.compile(r"^<!--\s*file:\s*(\S+)\s*-->\s*$")
WALKTHROUGH = "pebbles"
WALKTHROUGH_FILES = {
    "pebbles/pebbles.yaml",
    "pebbles/pebbles.rules",
    "pebbles/cards/stones.cards",
    "pebbles/decks/starter.yaml",
    "pebbles/scenarios/boulder-wins.yaml",
    "pebbles/scenarios/magpie.yaml",
}


@dataclass(frozen=True)
class Block:
    doc: str
    line: int  # line of the block's first code line in the doc
    lang: str
    text: str
    file: str | None  # the walkthrough file it is, from a `<!-- file: ... -->` line just before

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def fenced_blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    start = None
    lang = ""
    for i, line in enumerate(lines):
        match = FENCE.match(line)
        if match is None:
            continue
        if start is None:
            start, lang = i, match.group(1)
        elif match.group(1) == "":
            mark = FILE_MARK.match(lines[start - 1]) if start > 0 else None
            text = "\n".join(lines[start + 1:i]) + "\n"
            out.append(Block(path.name, start + 2, lang, text, mark.group(1) if mark else None))
            start = None
    assert start is None, f"{path.name}:{start + 1}: a code block is not closed"
    return out


def first_word(text: str) -> str:
    """The first word of code, skipping blank lines and comments."""
    for line in text.splitlines():
        code = line.split("#", 1)[0].strip()
        if code:
            return re.match(r"[A-Za-z_]*", code).group(0)
    return ""


CARDRULES_BLOCKS = [b for doc in (LANGUAGE, RULESETS) for b in fenced_blocks(doc) if b.lang == "cardrules"]
YAML_BLOCKS = [b for b in fenced_blocks(RULESETS) if b.lang == "yaml"]


def test_the_docs_have_examples():
    assert sum(b.doc == LANGUAGE.name for b in CARDRULES_BLOCKS) >= 15
    assert sum(b.doc == RULESETS.name for b in CARDRULES_BLOCKS) >= 2
    assert len(YAML_BLOCKS) >= 10


@pytest.mark.parametrize("block", CARDRULES_BLOCKS, ids=lambda b: b.where)
def test_cardrules_block_parses(block: Block):
    if first_word(block.text) in DEFINITION_WORDS:
        module = parse(block.text, block.where)
        assert module.items, f"{block.where}: no definition"
    else:
        statements = parse_block(block.text, block.doc, block.line, 1)
        assert statements, f"{block.where}: no statement"


def _ruleset_blocks() -> list[tuple[Block, dict, object]]:
    found = []
    for block in YAML_BLOCKS:
        data, marks = load_yaml_text(block.text, block.where)
        if isinstance(data, dict) and (("name" in data and "zones" in data) or "extends" in data):
            found.append((block, data, marks))
    return found


RULESET_BLOCKS = _ruleset_blocks()


def test_the_docs_have_complete_rulesets():
    assert any("zones" in data for _block, data, _marks in RULESET_BLOCKS)
    assert any("extends" in data for _block, data, _marks in RULESET_BLOCKS)


@pytest.mark.parametrize("block,data,marks", RULESET_BLOCKS, ids=[b.where for b, _d, _m in RULESET_BLOCKS])
def test_yaml_ruleset_block_validates(block: Block, data: dict, marks):
    validate(data, marks, "ruleset", block.where)


# ---------------------------------------------------------------- the walkthrough game
@pytest.fixture(scope="module")
def walkthrough(tmp_path_factory) -> Path:
    """The walkthrough's files, written from the doc's blocks; returns the game folder."""
    root = tmp_path_factory.mktemp("walkthrough")
    files = {}
    for block in fenced_blocks(RULESETS):
        if block.file is not None:
            assert block.file not in files, f"{block.where}: {block.file} is given twice"
            files[block.file] = block.text
    assert set(files) == WALKTHROUGH_FILES
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / WALKTHROUGH


def play_first_options(rules, seed: int, limit: int = 10_000):
    game = rules.new_game(seed=seed)
    for _ in range(limit):
        if game.is_over:
            return game
        game.apply(0)
    raise AssertionError(f"seed {seed}: no result after {limit} decisions")


def test_walkthrough_game_loads_and_plays_to_the_end(walkthrough: Path):
    rules = load(walkthrough)
    assert rules.name == WALKTHROUGH and rules.player_count == 2
    assert sorted(rules.card_defs) == ["Boulder", "Magpie", "Pebble", "Rock"]
    for seed in range(5):
        game = play_first_options(rules, seed)
        assert game.result.reason in ("target reached", "turn limit reached")
        if game.result.winner is not None:
            winner = game.players[game.result.winner - 1]
            assert game.read(winner, "score") >= rules.options["target"]


def test_walkthrough_game_takes_options(walkthrough: Path):
    rules = load(walkthrough / "pebbles.yaml", options={"target": "3", "turn_limit": "2"})
    assert rules.options == {"target": 3, "turn_limit": 2}
    game = play_first_options(rules, 1)
    assert game.is_over and game.result.turns <= 3


def test_walkthrough_validates_and_its_scenarios_pass(walkthrough: Path, capsys):
    assert main(["validate", str(walkthrough)]) == 0
    out = capsys.readouterr().out
    assert "5 files checked, 0 with errors" in out
    assert main(["test", str(walkthrough / "scenarios")]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out


# ---------------------------------------------------------------- lists that mirror the code
def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


def test_every_builtin_function_is_in_the_table():
    table = _section(LANGUAGE.read_text(encoding="utf-8"), "## 9. Built-in functions")
    documented = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE)
    assert len(documented) == len(set(documented)), "a built-in is listed twice"
    assert set(documented) == set(BUILTIN_FUNCTIONS)


def test_reserved_and_context_words_are_listed():
    text = LANGUAGE.read_text(encoding="utf-8")
    reserved = re.search(r"`parser\.reserved_words\(\)`:\s*`([^`]+)`", text)
    context = re.search(r"usable as names:\s*`([^`]+)`", text)
    assert reserved and context
    assert set(reserved.group(1).split()) == set(reserved_words())
    assert set(context.group(1).split()) == set(CONTEXT_WORDS)
