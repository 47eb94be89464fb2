"""`cardrules lsp` driven by a real LSP client (pygls) over stdio, on a copy of Lanes: diagnostics
(on open, at the error's range, cleared when fixed; the same errors as `cardrules validate`; a
half-typed file; a file in no ruleset; binary and huge files), hover, go to definition,
completion, document symbols and formatting."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_session import LspSession, position_of, server_command, uri

from interpreter import paths
from interpreter.lang.builtins import FUNCTIONS, PROCEDURES
from interpreter.lang.formatting import format_text
from interpreter.lang.parser import parse
from interpreter.lang.printer import to_source

types = pytest.importorskip("lsprotocol.types")


def copy_game(root: Path, game: str = "lanes") -> Path:
    """rulesets/<game>/ and cards/<game>/ copied under root, as in the checkout; the ruleset file."""
    shutil.copytree(paths.rulesets_dir() / game, root / "rulesets" / game)
    shutil.copytree(paths.cards_dir() / game, root / "cards" / game)
    return root / "rulesets" / game / f"{game}.yaml"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    copy_game(root)
    return root


@pytest.fixture(scope="module")
def lsp(workspace):
    with LspSession(workspace) as session:
        yield session


def creatures(workspace: Path) -> Path:
    return workspace / "cards" / "lanes" / "creatures.cards"


def rules_file(workspace: Path) -> Path:
    return workspace / "rulesets" / "lanes" / "lanes.rules"


def test_the_server_says_what_it_can_do(lsp):
    capabilities = lsp.initialize_result.capabilities
    assert capabilities.hover_provider and capabilities.definition_provider
    assert capabilities.document_formatting_provider and capabilities.document_symbol_provider
    assert set(capabilities.completion_provider.trigger_characters) == {".", '"'}
    assert lsp.initialize_result.server_info.name == "cardrules"


def test_an_error_is_shown_at_its_range_and_cleared_when_fixed(lsp, workspace):
    path = creatures(workspace)
    text = path.read_text(encoding="utf-8")
    broken = text.replace("keyword rage }", "keyword rgae }", 1)
    lsp.open(path, broken)
    found = lsp.wait_diagnostics(path, lambda d: len(d) > 0)
    assert len(found) == 1
    error = found[0]
    line, character = position_of(broken, "keyword rgae")  # the span of the keyword's use
    assert (error.range.start.line, error.range.start.character) == (line, character)
    assert (error.range.end.line, error.range.end.character) == (line, character + len("keyword rgae"))
    assert error.severity == types.DiagnosticSeverity.Error
    assert error.code == "validation" and error.source == "cardrules"
    assert error.message.startswith("unknown keyword 'rgae' (did you mean 'rage'?)")
    assert "\nhint: keywords: aerial, aim" in error.message  # the hint, below the message
    lsp.replace(path, text)
    assert lsp.wait_diagnostics(path, lambda d: d == []) == []


def test_a_half_typed_card_is_a_syntax_error_where_the_text_stops(lsp, workspace):
    path = workspace / "cards" / "lanes" / "buildings.cards"
    text = path.read_text(encoding="utf-8")
    half = text + '\ncard "Half Built" : building { cost = '
    lsp.open(path, half)
    found = lsp.wait_diagnostics(path, lambda d: any(x.code == "syntax" for x in d))
    (error,) = [x for x in found if x.code == "syntax"]
    last = half.count("\n")
    assert error.range.start.line == last
    assert error.message.startswith("unexpected end of file; expected")
    # while it is broken, the names of the ruleset are still known
    hover = lsp.hover(path, *position_of(half, "building", skip=1))
    assert hover is not None and "card type building" in hover.contents.value
    lsp.replace(path, text)
    assert lsp.wait_diagnostics(path, lambda d: d == []) == []


def _validate_lines(ruleset: Path) -> set[tuple[str, int, int, str]]:
    command = server_command()[:-1] + ["validate", str(ruleset)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ruleset.parent)
    assert done.returncode == 1, done.stdout + done.stderr
    found = set()
    for match in re.finditer(r"^\s+(\S+?):(\d+):(\d+): (\w+) error: (.*)$", done.stdout, re.MULTILINE):
        file, line, column, _phase, message = match.groups()
        found.add((str((ruleset.parent / file).resolve()), int(line), int(column), message))
    return found


def test_diagnostics_are_the_errors_validate_reports(lsp, tmp_path):
    """Errors in a card file and in a code file of one ruleset, written on disk: `cardrules
    validate` and the server (the card file opened with the same text) give the same errors, at
    the same places, each in its own file."""
    ruleset = copy_game(tmp_path)
    card_file = tmp_path / "cards" / "lanes" / "creatures.cards"
    code_file = tmp_path / "rulesets" / "lanes" / "lanes.rules"
    card_text = card_file.read_text(encoding="utf-8").replace("health = 1 keyword rage", "helth = 1 keyword rage", 1)
    card_file.write_text(card_text, encoding="utf-8")
    code_file.write_text(code_file.read_text(encoding="utf-8").replace("return_to_hand(c)\n}", "retrun_to_hand(c)\n}",
                                                                       1), encoding="utf-8")
    expected = _validate_lines(ruleset)
    assert {Path(f).name for f, *_ in expected} == {"creatures.cards", "lanes.rules"}
    lsp.open(card_file, card_text)
    got = set()
    for path in (card_file, code_file):
        found = lsp.wait_diagnostics(path, lambda d: len(d) > 0)
        for d in found:
            got.add((str(path.resolve()), d.range.start.line + 1, d.range.start.character + 1,
                     d.message.split("\nhint: ")[0]))
    assert got == expected


def test_a_file_in_no_ruleset_is_checked_alone_and_says_so(lsp, tmp_path):
    path = tmp_path / "loose" / "sketch.cards"
    path.parent.mkdir()
    text = 'card "Sketch" : thing {\n  cost = 2 +\n}\n'
    path.write_text(text, encoding="utf-8")
    lsp.open(path, text)
    found = lsp.wait_diagnostics(path, lambda d: len(d) == 2)
    note = [d for d in found if d.severity == types.DiagnosticSeverity.Information]
    assert len(note) == 1 and "read by no ruleset" in note[0].message and "checked alone" in note[0].message
    (error,) = [d for d in found if d.severity == types.DiagnosticSeverity.Error]
    assert error.code == "syntax" and error.range.start.line == 2  # the '}' where an operand was expected
    lsp.replace(path, 'card "Sketch" : thing {\n  cost = 2\n}\n')
    found = lsp.wait_diagnostics(path, lambda d: len(d) == 1)
    assert found[0].severity == types.DiagnosticSeverity.Information  # names are not checked alone


def test_binary_and_huge_files_get_an_error_and_the_server_stays_up(lsp, workspace):
    binary = workspace / "cards" / "lanes" / "binary.cards"
    huge = workspace / "cards" / "lanes" / "huge.cards"
    try:
        binary.write_bytes(b"card \x00\x01\x02")
        lsp.open(binary, "card \x00\x01\x02")
        found = lsp.wait_diagnostics(binary, lambda d: any(x.severity == types.DiagnosticSeverity.Error for x in d))
        assert any("binary" in d.message for d in found)
        card = 'card "C{}" : creature {{ cost = 1 attack = 1 health = 1 }}\n'
        text = "".join(card.format(i) for i in range(12_000))  # some 660,000 characters
        huge.write_text(text, encoding="utf-8")
        lsp.open(huge, text)
        lsp.wait_diagnostics(huge, lambda d: any("too large" in x.message for x in d))
        assert lsp.alive
        path = creatures(workspace)
        source = path.read_text(encoding="utf-8")
        hover = lsp.hover(path, *position_of(source, "aquatic"))
        assert hover is not None and "keyword aquatic" in hover.contents.value
    finally:
        binary.unlink(missing_ok=True)
        huge.unlink(missing_ok=True)


def test_hover(lsp, workspace):
    code = rules_file(workspace)
    text = code.read_text(encoding="utf-8")
    lsp.open(code, text)
    lsp.wait_diagnostics(code, lambda d: d == [])
    # a card named in a string: its type, attributes and canonical text
    value = lsp.hover(code, *_inside(text, '"Keep"')).contents.value
    assert value.startswith("**Keep**: keep")
    assert 'card "Keep" : keep {' in value and "part bastion" in value
    # a procedure: its signature and doc comment
    value = lsp.hover(code, *_inside(text, "return_to_hand(c)\n}")).contents.value
    assert "procedure return_to_hand(c)" in value
    assert "L-3.5: a card returns to its owner's hand at the rightmost slot." in value
    # a function: its signature with its body
    value = lsp.hover(code, *_inside(text, "strike_power(a) =")).contents.value
    assert "function strike_power(a) = a.attack * (1 + count(" in value
    # a built-in function
    value = lsp.hover(code, *_inside(text, "count(hand(p))")).contents.value
    assert "count(L)" in value and "built-in function: the number of items" in value
    # an attribute: its declared type, for each card type declaring it
    value = lsp.hover(code, *_inside(text, "attack * (1", 0)).contents.value
    assert "`creature.attack`: int, default 0, min 0" in value and "`building.attack`" in value
    # a ruleset keyword
    value = lsp.hover(code, *_inside(text, "aquatic) and position")).contents.value
    assert "keyword aquatic" in value and "L-7.3" in value
    # a card in a card file: its printed values and its type's defaults
    cards = creatures(workspace)
    source = cards.read_text(encoding="utf-8")
    value = lsp.hover(cards, *_inside(source, '"Banner Captain"')).contents.value
    assert "- `attack` = 2: int, default 0, min 0" in value
    assert "- `damage` = (the card type's default): int, default 0, min 0" in value
    assert "keywords: aura(rage), focus" in value


def _inside(text: str, needle: str, skip: int = 0) -> tuple[int, int]:
    """A position one character into `needle` (inside a string: on its first letter)."""
    line, character = position_of(text, needle, skip)
    return line, character + 1


def test_definition(lsp, workspace):
    code = rules_file(workspace)
    text = code.read_text(encoding="utf-8")
    lsp.open(code, text)
    lsp.wait_diagnostics(code, lambda d: d == [])
    # a procedure
    (where,) = lsp.definition(code, *_inside(text, "return_to_hand(c)\n}"))
    assert where.uri == uri(code)
    assert (where.range.start.line, where.range.start.character) == position_of(text, "return_to_hand(c) {")
    # a function
    (where,) = lsp.definition(code, *_inside(text, "enemy(a.controller)"))
    assert (where.range.start.line, where.range.start.character) == position_of(text, "enemy(p) =")
    # a keyword, in the other code file
    keywords = workspace / "rulesets" / "lanes" / "keywords.rules"
    (where,) = lsp.definition(code, *_inside(text, "aquatic) and position"))
    assert where.uri == uri(keywords)
    assert where.range.start == types.Position(*position_of(keywords.read_text(encoding="utf-8"), "aquatic {"))
    # a card, named in a string
    (where,) = lsp.definition(code, *_inside(text, '"Keep"'))
    keep = workspace / "cards" / "lanes" / "keep.cards"
    assert where.uri == uri(keep)
    assert where.range.start == types.Position(*position_of(keep.read_text(encoding="utf-8"), '"Keep"'))
    # a zone and an attribute: their keys in the ruleset file
    yaml_file = workspace / "rulesets" / "lanes" / "lanes.yaml"
    yaml_text = yaml_file.read_text(encoding="utf-8")
    (where,) = lsp.definition(code, *_inside(text, "hand(p)"))
    assert where.uri == uri(yaml_file) and where.range.start == types.Position(*position_of(yaml_text, "hand:"))
    found = lsp.definition(code, *_inside(text, "entered == game.turn"))
    assert {(w.range.start.line, w.range.start.character) for w in found} == {
        position_of(yaml_text, "entered:", 0), position_of(yaml_text, "entered:", 1)}  # creature, building


def test_completion(lsp, workspace):
    path = workspace / "cards" / "lanes" / "incantations.cards"
    text = path.read_text(encoding="utf-8")
    # a card that parses, with a local name: analysed, it is the file's last good parse
    whole = text + '\ncard "Try" : creature {\n  cost = 1\n  health = 1\n  part effect {\n    let boom = 2\n  }\n}\n'
    lsp.open(path, whole)
    lsp.wait_diagnostics(path, lambda d: d == [])
    # half typed inside the part: the names in scope
    typed = whole.rsplit("  }\n}\n", 1)[0] + "    spe"
    lsp.replace(path, typed)
    last = typed.count("\n")
    column = len(typed.split("\n")[-1])
    assert {i.label for i in lsp.completion(path, last, column).items} == {"spell_damage"}
    labels = {i.label for i in lsp.completion(path, last, column - 3).items}
    assert {"lane", "hand", "spell_damage", "attack", "health", "count", "self"} <= labels  # zones, procedures,
    assert "boom" in labels  # ...the card type's attributes, built-ins; the local name, from the last good parse
    # after `self.` in a creature: the creature's attributes and the card properties
    base = typed[:-3]
    lsp.replace(path, base + "self.")
    labels = {i.label for i in lsp.completion(path, last, column - 3 + len("self.")).items}
    assert {"cost", "attack", "health", "damage", "entered", "protected", "controller", "owner"} <= labels
    assert "mana" not in labels  # a player attribute
    # in a string: the card names
    lsp.replace(path, base + 'create "Cin')
    assert {i.label for i in lsp.completion(path, last, column - 3 + len('create "Cin')).items} == {"Cinder Whelp"}
    # after `keyword`: the ruleset's keywords
    lsp.replace(path, base.rsplit("\n", 1)[0] + "\n  keyword a")
    labels = {i.label for i in lsp.completion(path, last, len("  keyword a")).items}
    assert labels == {"aerial", "aim", "aquatic", "armed", "aura"}
    lsp.replace(path, text)
    lsp.wait_diagnostics(path, lambda d: d == [])


def test_document_symbols(lsp, workspace):
    path = workspace / "rulesets" / "lanes" / "keywords.rules"
    text = path.read_text(encoding="utf-8")
    lsp.open(path, text)
    lsp.wait_diagnostics(path, lambda d: d == [])
    found = lsp.symbols(path)
    names = [s.name for s in found]
    assert names[:3] == ["aerial", "aim", "aquatic"] and "neighbours" in names and "protection" in names
    assert len(names) == len(parse(text, "k").items)


def test_formatting_is_the_canonical_printer(lsp, workspace):
    path = workspace / "cards" / "lanes" / "buildings.cards"
    text = path.read_text(encoding="utf-8").replace(  # (a card spread out, as the canonical form does not)
        "{ cost = 1 health = 3 keyword focus }", "{\n  cost = 1\n  health = 3\n  keyword focus\n}", 1)
    assert format_text(text, str(path)) != text
    lsp.open(path, text)
    lsp.wait_diagnostics(path, lambda d: d == [])
    (edit,) = lsp.formatting(path)
    assert edit.range.start == types.Position(0, 0)
    assert edit.new_text == format_text(text, str(path))
    # without its comments, the text is the printer's (the round trip `cardrules cards` shows)
    code_lines = [line for line in edit.new_text.split("\n") if not line.lstrip().startswith("#")]
    assert [line for line in code_lines if line] == \
        [line for line in to_source(parse(text, "b")).split("\n") if line]  # (blank lines: the file's)
    lsp.replace(path, edit.new_text)
    assert list(lsp.formatting(path)) == []  # formatted already
    lsp.replace(path, text + "card {")
    assert lsp.formatting(path) is None  # does not parse: nothing to do, the diagnostics say why
    lsp.replace(path, text)


def test_builtin_docs_agree_with_the_builtins_table_and_the_language_guide():
    for name, builtin in PROCEDURES.items():
        # (reveal's second argument is written after `to`: `reveal c to p`)
        assert len(builtin.param_names()) == builtin.arity[0] == builtin.arity[1] - (name == "reveal"), name
    guide = Path(__file__).resolve().parents[1] / "docs" / "language.md"
    if not guide.is_file():
        pytest.skip("docs/ is not beside the tests")
    rows = {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        r"^\| `(\w+)` \| `(\([^`]*\))` \| (.*) \|$", guide.read_text(encoding="utf-8"), re.MULTILINE)}
    assert rows == {name: (b.params, b.doc) for name, b in FUNCTIONS.items()}  # the guide's table is the hover's


def test_without_the_extra_the_command_says_what_to_install(tmp_path):
    """With pygls hidden, `cardrules lsp` exits 2 naming the extra to install."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text("import sys\nsys.modules['pygls'] = None\n", encoding="utf-8")
    env = {"PYTHONPATH": str(tmp_path), "PATH": ""}
    done = subprocess.run([sys.executable, "-c", "import sys; from interpreter.cli.main import main; "
                                                 "sys.exit(main(['lsp']))"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert "pip install 'cardrules[lsp]'" in done.stderr
