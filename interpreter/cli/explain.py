"""`cardrules explain GAME CARD`: a card's abilities in plain words (lang/explain.py): what
triggers each one and what it changes, the abilities its keywords bring, and the procedures of the
ruleset it uses, with their doc comments."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import CardrulesError
from ..lang.comments import doc_comment, scan_comments
from ..lang.explain import explain_card
from ..rules.sources import read_text
from .cards import find_card


def doc_comments(definitions: dict) -> dict[str, str]:
    """The doc comment of each definition (by name), read from its file."""
    comments: dict[str, list] = {}
    docs = {}
    for name, node in definitions.items():
        file = node.span.file
        if file not in comments:
            try:
                comments[file] = scan_comments(read_text(Path(file)))
            except (CardrulesError, OSError):
                comments[file] = []
        docs[name] = doc_comment(comments[file], node.span.line)
    return docs


def run_explain(rules, name: str) -> int:
    defn = find_card(rules, name)
    if defn.source is None:
        raise CardrulesError(f"{defn.name!r} has no source text to explain")
    definitions = rules.definitions
    docs = doc_comments({**definitions.keywords, **definitions.procedures})
    lines = explain_card(defn.source, definitions.keywords, docs, definitions.procedures)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
