"""Hostile YAML: every bad input is a located error (``file:line:col:``), refused before it costs
much time or memory; never a Python traceback (ReaderError, RecursionError, ValueError, ...)."""

from __future__ import annotations

import random
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from interpreter.errors import (
    CardrulesError,
    DeckError,
    ErrorList,
    RulesError,
    Span,
    register_source,
    source_line,
)
from interpreter.paths import ruleset_path
from interpreter.rules import schema as schema_module
from interpreter.rules import yamlload, yamlsafe
from interpreter.rules.schema import MAX_ERRORS, schema_errors, validate
from interpreter.rules.yamlload import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, load_yaml, load_yaml_text


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def refused(text: str, file: str = "hostile.yaml", error: type[CardrulesError] = RulesError) -> CardrulesError:
    """The error loading ``text`` gives (it must give one of the project's own)."""
    with pytest.raises(CardrulesError) as info:
        load_yaml_text(text, file, error)
    assert isinstance(info.value, error)
    return info.value


def assert_at(err: CardrulesError, file: str, line: int, column: int) -> None:
    assert str(err).startswith(f"{file}:{line}:{column}: "), str(err)[:300]


@contextmanager
def measured() -> Iterator[dict[str, float]]:
    """Seconds and peak traced megabytes of the block, in the dict yielded."""
    out: dict[str, float] = {}
    tracemalloc.start()
    start = time.perf_counter()
    try:
        yield out
    finally:
        out["seconds"] = time.perf_counter() - start
        out["mb"] = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def nested(depth: int) -> str:
    """A mapping holding lists nested so that the document is ``depth`` levels deep."""
    return "a: " + "[" * (depth - 1) + "]" * (depth - 1) + "\n"


# -- 1. characters YAML does not allow ---------------------------------------------------------------


@pytest.mark.parametrize("char", ["\x0b", "\uffff", "\x7f", "\x1b", "\ud800"])
def test_a_character_yaml_does_not_allow_is_located(char):
    err = refused(f"name: ok\nb: x{char}y\n")
    assert_at(err, "hostile.yaml", 2, 5)
    assert f"U+{ord(char):04X}" in err.message


def test_a_character_yaml_does_not_allow_is_located_after_crlf_lines(tmp_path):
    path = write(tmp_path, "crlf.yaml", "name: ok\r\ncards:\r\n  A: 1\x0b\r\n")
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    assert_at(info.value, str(path), 3, 7)


def test_a_character_yaml_does_not_allow_with_the_error_class_given():
    assert_at(refused("a: \uffff\n", "deck.yaml", DeckError), "deck.yaml", 1, 4)


# -- 2. nesting ------------------------------------------------------------------------------------------


def test_deeply_nested_flow_lists_are_refused_not_a_recursion_error():
    err = refused(nested(495))
    assert f"nested too deeply, at most {MAX_DEPTH} levels" in err.message
    assert_at(err, "hostile.yaml", 1, 3 + MAX_DEPTH)  # the list opening level MAX_DEPTH + 1


def test_nesting_up_to_the_limit_loads():
    data, marks = load_yaml_text(nested(MAX_DEPTH), "ok.yaml")
    path = ("a",) + (0,) * (MAX_DEPTH - 2)
    assert data["a"] is not None and path in marks
    refused(nested(MAX_DEPTH + 1))


def test_block_mappings_3000_deep_are_refused_by_depth(monkeypatch):
    monkeypatch.setattr(yamlload, "MAX_FILE_BYTES", 10**8)  # so that the depth check is the one refusing
    text = "".join(" " * i + f"k{i}:\n" for i in range(3000)) + " " * 3000 + "v\n"
    err = refused(text)
    assert "nested too deeply" in err.message
    assert_at(err, "hostile.yaml", MAX_DEPTH + 1, MAX_DEPTH + 1)


def test_block_sequences_3000_deep_are_refused():
    err = refused("- " * 3000 + "x\n")
    assert "nested too deeply" in err.message
    assert_at(err, "hostile.yaml", 1, 2 * MAX_DEPTH + 1)


def test_nesting_made_deep_through_aliases_is_refused():
    half = 60
    text = f"a: &a {'[' * half}x{']' * half}\nb: {'[' * half}*a{']' * half}\n"
    err = refused(text)
    assert "nested too deeply" in err.message
    assert_at(err, "hostile.yaml", 2, 4 + half)


# -- 3. aliases: billion laughs, cycles ----------------------------------------------------------------


def laughs(levels: int) -> str:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("levels", [6, 7, 9])
def test_billion_laughs_is_refused_quickly_and_small(levels):
    with measured() as cost:
        err = refused(laughs(levels))
    assert "too many values" in err.message and f"{MAX_NODES:,}" in err.message
    assert err.span.line == 6 and err.span.column > 1  # at an alias of the first line over the limit
    assert cost["seconds"] < 1.0, cost
    assert cost["mb"] < 50, cost


def test_billion_laughs_from_a_file(tmp_path):
    path = write(tmp_path, "laughs.yaml", laughs(6))
    with measured() as cost, pytest.raises(RulesError) as info:
        load_yaml(path)
    assert str(info.value).startswith(f"{path}:6:")
    assert cost["seconds"] < 1.0 and cost["mb"] < 50, cost


@pytest.mark.parametrize("text, column", [("a: &a [*a]\n", 8), ("a: &a {b: [1, *a]}\n", 15)])
def test_an_alias_inside_what_it_names_is_refused(text, column):
    err = refused(text)
    assert "alias *a is inside" in err.message
    assert_at(err, "hostile.yaml", 1, column)


def test_modest_aliases_still_load():
    text = "base: &b {per: player, n: 1}\nzones:\n  hand: {<<: *b, per: shared}\n  deck: *b\nall: [*b, *b]\n"
    data, marks = load_yaml_text(text, "ok.yaml")
    assert data["zones"] == {"hand": {"per": "shared", "n": 1}, "deck": {"per": "player", "n": 1}}
    assert data["all"] == [{"per": "player", "n": 1}] * 2
    assert ("all", 1, "n") in marks


def test_too_many_values_without_aliases_are_refused(monkeypatch):
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 50)
    load_yaml_text("a: [" + ", ".join(["1"] * 47) + "]\n", "ok.yaml")  # the mapping, its key, the list
    err = refused("a: [" + ", ".join(["1"] * 48) + "]\n")
    assert "too many values: at most 50" in err.message and not err.hint


# -- 4. numbers ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("literal", [
    "1" * 5000,  # over Python's 4,300-digit conversion limit
    "-" + "9" * 5000,
    "10000000000000001",
    "-1_000_000_000_000_001",
    "0x" + "f" * 5000,
    "0x38D7EA4C68001",  # 10^15 + 1
    "0b" + "1" * 64,
    "1" + ":59" * 3000,  # sexagesimal
    "1.0e+16",
    "-1.5e+300",
    "1.0e+400",  # a float overflowing to infinity
    "9" * 5000 + ".0",
])
def test_a_number_too_large_is_located(literal):
    err = refused(f"name: x\nlist: [1, {literal}]\n")
    assert err.message.startswith("number too large: at most 10^15"), err.message
    assert_at(err, "hostile.yaml", 2, 11)


@pytest.mark.parametrize("text", ["1" * 100 + ": y", "? " + "1" * 5000 + "\n: y", "big: {10000000000000001: y}"])
def test_a_key_too_large_is_located(text):
    err = refused("name: x\n" + text + "\n")
    assert "number too large" in err.message
    assert err.span.line == 2


@pytest.mark.parametrize("literal", [".inf", "-.inf", "+.INF", ".nan", ".NaN"])
def test_infinity_and_nan_are_refused(literal):
    err = refused(f"a: {literal}\n")
    assert "not a number JSON can hold" in err.message
    assert_at(err, "hostile.yaml", 1, 4)


@pytest.mark.parametrize("literal, value", [
    ("1000000000000000", 10**15), ("-1_000_000_000_000_000", -(10**15)), ("0x38D7EA4C68000", 10**15),
    ("1.0e+15", 1e15), ("-1.5", -1.5), ("0" * 100 + "7", 7), ("0", 0), ("190:20:30", 685230),
])
def test_numbers_in_range_load(literal, value):
    data, _ = load_yaml_text(f"a: {literal}\n", "ok.yaml")
    assert data["a"] == value


@pytest.mark.parametrize("text", [
    "a: !!int x", "a: !!int ''", "a: !!int 0x_", "a: !!int 1:x", "a: !!float x", "a: !!float ''",
    "a: !!bool maybe", "a: !!timestamp x", "a: !!timestamp 2024-01-01", "a: !!binary aGk=", "a: !!set {x}",
    "a: !!omap [x: 1]", "a: !!pairs [x: 1]",
])
def test_explicit_tags_give_located_errors(text):
    assert_at(refused(text + "\n"), "hostile.yaml", 1, 4)


# -- 5. many errors: capped, formatted in linear time -------------------------------------------------


def test_source_lines_are_cached_and_forgotten_when_the_file_is_registered_again():
    register_source("cached.yaml", "one\ntwo\n")
    assert source_line(Span("cached.yaml", 2, 1)) == "two"
    register_source("cached.yaml", "three\nfour\nfive\n")
    assert source_line(Span("cached.yaml", 2, 1)) == "four"
    assert source_line(Span("cached.yaml", 3, 1)) == "five"
    assert source_line(Span("cached.yaml", 4, 1)) is None


def test_quoting_every_line_of_a_long_file_costs_linear_time():
    lines = 20_000
    register_source("long.yaml", "".join(f"key_{i}: {i}\n" for i in range(lines)))
    seconds = timed(lambda: [source_line(Span("long.yaml", i, 1)) for i in range(1, lines + 1)])
    assert source_line(Span("long.yaml", lines, 1)) == f"key_{lines - 1}: {lines - 1}"
    assert seconds < 1.0, seconds  # about 20 s when each lookup split the whole text again


def test_twenty_thousand_errors_in_a_deck_are_capped_and_quick(tmp_path):
    n = 10_000
    text = ("name: d\ncards:\n" + "".join(f"  Unknown Card {i}: x\n" for i in range(n))
            + "".join(f"unknown_{i}: 1\n" for i in range(n)))
    path = write(tmp_path, "many.yaml", text)
    data, marks = load_yaml(path, DeckError)
    start = time.perf_counter()
    with pytest.raises(ErrorList) as info:
        validate(data, marks, "deck", str(path), DeckError)
    shown = str(info.value)
    seconds = time.perf_counter() - start
    errors = info.value.errors
    assert len(errors) == MAX_ERRORS + 1
    assert all(isinstance(e, DeckError) for e in errors)
    assert errors[0].span.line == 3 and errors[-2].span.line == 2 + MAX_ERRORS
    assert errors[-1].message.startswith(f"and {2 * n - MAX_ERRORS:,} more errors")
    assert str(errors[-1]).startswith(f"{path}:{3 + MAX_ERRORS}:")
    assert shown.startswith(f"{path}:3:")
    assert seconds < 20, seconds  # (PyYAML alone takes 3-6 s here; 25 s more when each error split the file)


def test_many_unknown_ruleset_keys_are_capped():
    text = ruleset_path("initiative").read_text(encoding="utf-8") + "".join(f"unknwon_{i}: 1\n" for i in range(300))
    data, marks = load_yaml_text(text, "many-keys.yaml")
    errors = schema_errors(data, marks, "ruleset", "many-keys.yaml")
    assert len(errors) == MAX_ERRORS + 1
    assert errors[-1].message.startswith("and 250 more errors")
    assert "unknown key 'unknwon_0'" in errors[0].message


def test_one_error_over_the_cap_is_one_more(monkeypatch):
    monkeypatch.setattr(schema_module, "MAX_ERRORS", 3)
    data, marks = load_yaml_text("name: d\ncards: {A: x, B: x, C: x, D: x}\n", "four.yaml", DeckError)
    errors = schema_errors(data, marks, "deck", "four.yaml", DeckError)
    assert [e.message.split(":")[0] for e in errors[:3]] == ["cards.A", "cards.B", "cards.C"]
    assert errors[3].message.startswith("and 1 more error from here on")
    assert (errors[3].span.line, errors[3].span.column) == (2, 30)


# -- 6. size: a size limit, and long lines cost linear time -----------------------------------------


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = write(tmp_path, "big.yaml", "name: x\n# " + "x" * 5_000_000 + "\n")
    with measured() as cost, pytest.raises(DeckError) as info:
        load_yaml(path, DeckError)
    err = str(info.value)
    assert err.startswith(f"{path}:1:1: ") and f"{MAX_FILE_BYTES:,} bytes" in err
    assert len(err) < 1000  # the 5 MB line is not quoted
    assert cost["seconds"] < 1.0 and cost["mb"] < 5, cost


def test_a_huge_sparse_file_is_not_read(tmp_path):
    path = tmp_path / "sparse.yaml"
    with path.open("wb") as stream:
        stream.truncate(50_000_000)
    with measured() as cost, pytest.raises(RulesError) as info:
        load_yaml(path)
    assert "too large" in info.value.message and str(info.value).startswith(f"{path}:1:1: ")
    assert cost["seconds"] < 1.0 and cost["mb"] < 5, cost


def test_a_text_over_the_size_limit_is_refused():
    register_source("big.yaml", "stale: text\n")
    err = refused("# " + "x" * 5_000_000 + "\n", "big.yaml")
    assert "too large" in err.message and str(err).startswith("big.yaml:1:1: ")
    assert "stale" not in str(err)


def test_a_long_comment_line_loads_in_linear_time():
    text = "name: x\n# " + "x" * (MAX_FILE_BYTES - 100) + "\nafter: [1, 2]  # " + "y" * 50 + "\n"
    seconds = timed(lambda: load_yaml_text(text, "comment.yaml"))
    data, marks = load_yaml_text(text, "comment.yaml")
    assert data == {"name": "x", "after": [1, 2]}
    assert marks.value_span(("after", 1)).line == 3
    assert seconds < 0.3, seconds  # about 1 s a character at a time, 34 s for 5 MB via the command line


def test_positions_in_many_blocks_of_a_large_file_cost_linear_time():
    blocks = 1000
    text = ("# " + "x" * 1_500_000 + "\n"
            + "".join(f"lit{i}: |\n  first {i}\n  second\nfold{i}: >\n  one\n  two {i}\n" for i in range(blocks)))
    _, marks = load_yaml_text(text, "blocks.yaml")

    def lookups() -> None:
        for i in range(blocks):
            assert marks.value_origin((f"lit{i}",)).line == 3 + 6 * i
            assert marks.span_in_value((f"fold{i}",), 1, 5).line == 7 + 6 * i

    seconds = timed(lookups)
    assert seconds < 1.5, seconds  # each lookup split the whole 1.5 MB text again before


# -- whatever the input, only the project's own errors ----------------------------------------------


def test_mangled_yaml_gives_only_located_errors():
    rng = random.Random(7)
    base = ("name: deck\ncards: {A: 1, 'B b': 2}\nlist:\n  - &x [1, 2.5, true, null]\n  - *x\n  - |\n    text\n"
            "more: {<<: {k: v}, n: -3}\n")
    pieces = ["[", "]", "{", "}", "*x", "&y", "!!int", "!!float", "<<: ", ": ", "- ", "\t", "\x0b", "'", '"', "#",
              "?", "\n  ", "1" * 30, ".inf", "%", "@", "`", "|", ">", "\\", "\ufeff", "\x85", "---\n", "...\n"]
    for _ in range(400):
        chars = list(base)
        for _ in range(rng.randint(1, 4)):
            chars.insert(rng.randrange(len(chars) + 1), rng.choice(pieces))
        text = "".join(chars)
        try:
            load_yaml_text(text, "mangled.yaml")
        except CardrulesError as err:
            assert str(err).startswith("mangled.yaml:"), (text, str(err))


def test_an_error_on_a_huge_line_quotes_only_a_window_around_its_column():
    from interpreter.errors import QUOTED_WIDTH, RulesError, Span, register_source

    line = "x" * 100_000 + "BAD" + "y" * 100_000
    register_source("<huge>", line + "\n")
    text = str(RulesError("something is wrong", Span("<huge>", 1, 100_001)))
    quoted, caret = text.splitlines()[1:3]
    assert len(quoted) < QUOTED_WIDTH + 20 and quoted.strip().startswith("...") and quoted.endswith("...")
    assert quoted[caret.index("^"):].startswith("BAD")
    # a short line is quoted whole, the caret under its column
    register_source("<short>", "abc def\n")
    quoted, caret = str(RulesError("no", Span("<short>", 1, 5))).splitlines()[1:3]
    assert quoted == "    abc def" and caret == "        ^"
