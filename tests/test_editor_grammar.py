"""The VS Code example (editors/vscode/): its TextMate grammar is what generate_grammar.py writes
from the Lark grammar (so every keyword of the language is highlighted, and nothing else as one),
and its manifest starts `cardrules lsp` for the language it declares."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from interpreter.lang.parser import grammar_text

VSCODE = Path(__file__).resolve().parents[1] / "editors" / "vscode"
pytestmark = pytest.mark.skipif(not VSCODE.is_dir(), reason="editors/ is not beside the tests")


def generator():
    spec = importlib.util.spec_from_file_location("generate_grammar", VSCODE / "generate_grammar.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_grammar_is_current():
    committed = (VSCODE / "syntaxes" / "cardrules.tmLanguage.json").read_text(encoding="utf-8")
    assert committed == generator().rendered(), "run: python editors/vscode/generate_grammar.py"


def test_its_keywords_are_the_lark_grammars():
    grammar = json.loads((VSCODE / "syntaxes" / "cardrules.tmLanguage.json").read_text(encoding="utf-8"))
    highlighted = set()
    for pattern in grammar["repository"]["keywords"]["patterns"]:
        highlighted |= set(re.fullmatch(r"\\b\(\?:(.*)\)\\b", pattern["match"]).group(1).split("|"))
    lark_words = set(re.findall(r'"([a-z_]+)"', grammar_text()))
    assert highlighted == lark_words
    assert {"card", "procedure", "choose", "instead", "until", "desc"} <= highlighted


def test_the_manifest_declares_the_language_and_the_client_starts_the_server():
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert set(language["extensions"]) == {".cards", ".rules"}
    (grammar,) = manifest["contributes"]["grammars"]
    assert (VSCODE / grammar["path"]).is_file() and grammar["language"] == language["id"]
    client = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert 'args: ["lsp"]' in client and "vscode-languageclient/node" in client
    json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
