"""The rules layer's source overlay: texts that stand in for files on disk while a ruleset loads
(an editor's unsaved text), checked as the disk's text would be."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from interpreter import load, paths
from interpreter.errors import CardrulesError
from interpreter.rules.loader import load_ruleset
from interpreter.rules.overlay import overlaid_text, source_overlay


def card_file() -> Path:
    return (paths.cards_dir() / "lanes" / "creatures.cards").resolve()


def test_a_card_file_is_read_from_the_overlay():
    path = card_file()
    text = path.read_text(encoding="utf-8").replace('"Cinder Whelp" : creature { cost = 1',
                                                    '"Cinder Whelp" : creature { cost = 5', 1)
    with source_overlay({path: text}):
        assert load("lanes").card_defs["Cinder Whelp"].attrs["cost"] == 5
    assert load("lanes").card_defs["Cinder Whelp"].attrs["cost"] == 1  # the disk, once the block ends


def test_an_error_in_the_overlay_is_located_in_it():
    path = card_file()
    text = "\n\n" + path.read_text(encoding="utf-8").replace("keyword rage }", "keyword rgae }", 1)
    with pytest.raises(CardrulesError) as caught:
        load_ruleset("lanes", sources={str(path): text})
    err = caught.value
    assert err.message.startswith("unknown keyword 'rgae'")
    assert (err.span.file, err.span.line) == (str(path), 6)  # two lines lower than on disk


def test_a_rule_file_is_read_from_the_overlay():
    path = paths.ruleset_path("lanes").resolve()
    text = path.read_text(encoding="utf-8").replace("default: 200", "default: 150", 1)
    assert load_ruleset("lanes", sources={path: text}).options["turn_limit"] == 150


def test_overlay_text_is_checked_as_a_file_is():
    path = card_file()
    with pytest.raises(CardrulesError) as caught:
        load_ruleset("lanes", sources={path: 'card "A" : creature {\x00}'})
    assert "binary" in caught.value.message and caught.value.span.column == 22  # the NUL, 22nd character


def test_the_overlay_holds_in_its_own_thread_only():
    path = card_file()
    seen = []
    with source_overlay({path: "text"}):
        assert overlaid_text(path) == "text"
        worker = threading.Thread(target=lambda: seen.append(overlaid_text(path)))
        worker.start()
        worker.join()
    assert seen == [None] and overlaid_text(path) is None
