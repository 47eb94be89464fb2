"""The language server answers an edit with the edited file's own diagnostics first, before it
checks the rest of the ruleset; deck files get completion and hover of their ruleset's card names
(issue 35, point 2). A real server over stdio (tests/helpers/lsp_session.py), on a copy of Bases."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from lsp_session import LspSession, position_of, uri

from interpreter import paths

types = pytest.importorskip("lsprotocol.types")

BROKEN = '\ncard "Probe" : ally { cost = 1 colours = ["red"] offense = 1 life = nope influence = 0 }\n'


@pytest.fixture(scope="module")
def bases(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    shutil.copytree(paths.rulesets_dir() / "bases", root / "rulesets" / "bases")
    shutil.copytree(paths.cards_dir() / "bases", root / "cards" / "bases")
    return root


def test_the_edited_files_diagnostics_come_before_the_rest_of_its_ruleset(bases: Path):
    edited = bases / "cards" / "bases" / "allies.cards"
    other = bases / "rulesets" / "bases" / "bases.rules"
    text = edited.read_text(encoding="utf-8")
    with LspSession(bases) as lsp:
        lsp.open(other, other.read_text(encoding="utf-8"))
        lsp.open(edited, text + BROKEN)
        found = lsp.wait_diagnostics(edited, lambda d: d != [], timeout=60)
        assert [d.message for d in found] == ["attribute 'life' of 'Probe' must be a constant of type int"]
        lsp.wait_diagnostics(other, lambda d: d == [], timeout=60)
        time.sleep(1)  # (the analyses of the two opens are over)
        before = len(lsp.arrivals)
        start = time.perf_counter()
        lsp.replace(edited, text)  # the error fixed: the whole check now compiles the ruleset, checks its decks
        with lsp.condition:  # the whole check's publish of the other file
            assert lsp.condition.wait_for(lambda: any(u == uri(other) for _t, u, _n in lsp.arrivals[before:]), 60)
        arrivals = lsp.arrivals[before:]
    cleared = next(t for t, u, n in arrivals if u == uri(edited) and n == 0)
    rest = next(t for t, u, _n in arrivals if u == uri(other))
    print(f"the edited file's diagnostics after {cleared - start:.2f} s, the rest of its ruleset's after "
          f"{rest - start:.2f} s")
    # the edited file's come first, and not in the same burst as the rest: the whole check of the
    # ruleset runs between them (before: one burst, the edited file's among the others')
    assert cleared < rest - 0.2


def test_a_deck_file_completes_and_hovers_card_names(bases: Path):
    deck = bases / "rulesets" / "bases" / "decks" / "conflict-blue-green.yaml"
    text = deck.read_text(encoding="utf-8")
    with LspSession(bases) as lsp:
        lsp.open(deck, text, language="yaml")
        lsp.wait_diagnostics(deck, lambda d: d == [], timeout=60)

        hover = lsp.hover(deck, *position_of(text, "Mistveil Adept"))
        assert hover is not None and hover.contents.value.startswith("**Mistveil Adept**")
        assert "offense" in hover.contents.value  # its attributes, as hover in a card file shows them

        typed = text.replace('  "Hush": 2\n', "  Hush: 2\n  Tide\n", 1)  # (unquoted keys too)
        lsp.replace(deck, typed)
        line, column = position_of(typed, "  Tide\n")
        labels = [item.label for item in lsp.completion(deck, line, column + len("  Tide")).items]
        assert sorted(labels) == ["Tideglass Spire", "Tidegrove Oracle", "Tidewatch Scholar"]
        # the half-typed line is no YAML: once the server has checked that text (its error
        # shown), the deck still hovers its card names
        lsp.wait_diagnostics(deck, lambda d: d != [], timeout=60)
        hover = lsp.hover(deck, *position_of(typed, "Hush: 2"))
        assert hover is not None and hover.contents.value.startswith("**Hush**")
        assert lsp.hover(deck, *position_of(typed, "format")) is None  # a deck's own keys are no cards
