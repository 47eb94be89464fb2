"""YAML is scanned by libyaml when PyYAML has it (rules/yamlsafe.py `fast_loader`), composed and
constructed by the module's own `Loader`: the same data, nodes, styles and marks as the
pure-Python `Loader`, on every YAML file of the checkout and on texts with what the two might
count differently; whatever it cannot load is loaded by `Loader`, so errors are unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from interpreter.errors import RulesError
from interpreter.rules import yamlload
from interpreter.rules.yamlsafe import Loader, fast_loader

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for folder in ("rulesets", "tests", "docs", "examples") if (ROOT / folder).is_dir()
               for p in (ROOT / folder).rglob("*.y*ml") if p.suffix in (".yaml", ".yml"))
TEXTS = [
    "a: é€😀 x\nb: [ü, 'ß😀', \"\\u00e9 😀\"]\nc: |\n  ü😀\n  x\nd: >\n  ö\n  😀 y\n# ü😀\ne: {f: 😀}\n",
    "a:\r\n  - 1\r\n  - \u00e9\r\n",
    "a: 1\u2028b: 2\n",
    "x: &a [1, 2]\ny: *a\nz: {<<: {k: 1}, j: 2}\n",
    "'quoted key': \"two\\nlines\"\nplain: multi\n  line\nnum: 0x1F\nf: 1.5e3\nn: ~\n",
]
BROKEN = ["a: [1, 2\n", "a: 1\na: 2\n", "a:\n\t- 1\n", "a: b: c\n", "a: 1.0e+400\n", "- [" * 150 + "\n",
          "a: \x07\n", "\ufeffa: 1\nb: *nowhere\n", "# only a comment\n"]


def nodes(node: yaml.Node) -> list:
    """Every node of a document in order: its kind, tag, style, marks and text."""
    out = []
    todo = [node]
    while todo:
        n = todo.pop()
        text = n.value if isinstance(n, yaml.ScalarNode) else None
        out.append((type(n).__name__, n.tag, getattr(n, "style", None) if text is not None else None, text,
                    (n.start_mark.index, n.start_mark.line, n.start_mark.column),
                    (n.end_mark.index, n.end_mark.line, n.end_mark.column)))
        if isinstance(n, yaml.SequenceNode):
            todo.extend(reversed(n.value))
        elif isinstance(n, yaml.MappingNode):
            todo.extend(x for pair in reversed(n.value) for x in reversed(pair))
    return out


def composed(loader: Loader) -> tuple:
    try:
        node = loader.get_single_node()
        return nodes(node), loader.construct_document(node)
    finally:
        loader.dispose()


@pytest.mark.skipif(fast_loader("a: 1\n") is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("text", [*TEXTS, *(p.read_text(encoding="utf-8") for p in FILES)],
                         ids=[f"text{i}" for i in range(len(TEXTS))] + [str(p.relative_to(ROOT)) for p in FILES])
def test_libyaml_events_compose_what_the_python_loader_composes(text: str) -> None:
    fast = fast_loader(text)
    assert fast is not None
    assert composed(fast) == composed(Loader(text))


@pytest.mark.parametrize("text", BROKEN)
def test_what_the_fast_path_cannot_load_is_reported_as_the_python_loader_reports_it(text: str, monkeypatch) -> None:
    def message(fast: bool) -> str:
        if not fast:
            monkeypatch.setattr(yamlload, "fast_loader", lambda text: None)
        try:
            yamlload.load_yaml_text(text, "f.yaml")
        except RulesError as err:
            return str(err)
        finally:
            monkeypatch.undo()
        return "loaded"

    assert message(True) == message(False) != "loaded"


def test_a_text_with_a_byte_order_mark_is_left_to_the_python_loader() -> None:
    """libyaml counts a leading byte-order mark out of the marks' offsets, PyYAML in."""
    assert fast_loader("\ufeffa: 1\n") is None
    assert fast_loader("a: \x07\n") is None
