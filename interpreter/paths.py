"""Where the shipped data lives: the grammar, the rulesets (with their decks and schemas), the cards.

Two layouts, one API:

- running from a checkout (``grammar/`` and ``rulesets/`` beside ``interpreter/``): the checkout
  root, so an edit to a ruleset is seen at once;
- installed (``pip install .``): the package data directory ``interpreter/data/``, which the build
  (setup.py) fills with copies of ``grammar/``, ``rulesets/`` and ``cards/``.

Under either root the layout is the same: ``grammar/*.lark``, ``rulesets/<game>/<game>.yaml``
(plus variants, ``*.rules`` and ``decks/``), ``rulesets/schema/*.schema.json``, ``cards/<game>/``.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from .errors import RulesError, did_you_mean

PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIRS = ("grammar", "rulesets", "cards")
SCHEMA_DIR = "schema"  # rulesets/schema holds the JSON Schemas, not a game
RULESET_SUFFIXES = (".yaml", ".yml")


@functools.cache
def data_root() -> Path:
    """The folder holding grammar/, rulesets/ and cards/ (checkout root or installed package data)."""
    checkout = PACKAGE_DIR.parent
    if (checkout / "grammar").is_dir() and (checkout / "rulesets").is_dir():
        return checkout
    return PACKAGE_DIR / "data"


def grammar_dir() -> Path:
    return data_root() / "grammar"


def grammar_path(name: str = "cardrules.lark") -> Path:
    return grammar_dir() / name


def rulesets_dir() -> Path:
    return data_root() / "rulesets"


def cards_dir() -> Path:
    return data_root() / "cards"


def schema_dir() -> Path:
    return rulesets_dir() / SCHEMA_DIR


def schema_path(name: str) -> Path:
    """The JSON Schema file for ``name`` ("ruleset", "deck", "scenario")."""
    stem = name.removesuffix(".json").removesuffix(".schema")
    path = schema_dir() / f"{stem}.schema.json"
    if not path.is_file():
        known = sorted(p.name.removesuffix(".schema.json") for p in schema_dir().glob("*.schema.json"))
        raise RulesError(f"no schema named {name!r}{did_you_mean(stem, known)}", hint=f"schemas: {', '.join(known)}")
    return path


def shipped_games() -> list[str]:
    """Names of the shipped games: folders ``rulesets/<game>/`` holding ``<game>.yaml``, sorted."""
    root = rulesets_dir()
    if not root.is_dir():
        return []
    return sorted(
        d.name
        for d in root.iterdir()
        if d.is_dir() and d.name != SCHEMA_DIR and _game_file(d) is not None
    )


def shipped_rulesets() -> dict[str, Path]:
    """Every shipped ruleset by name: each game, and each variant file beside it (by file stem).

    A game's main file wins a name clash; variants are the other top-level ``*.yaml`` files of a
    game folder (deck files live in ``decks/`` below it and are not rulesets).
    """
    found: dict[str, Path] = {}
    for game in shipped_games():
        found[game] = _game_file(rulesets_dir() / game)  # type: ignore[assignment]
    for game in shipped_games():
        for f in sorted((rulesets_dir() / game).iterdir()):
            if f.is_file() and f.suffix in RULESET_SUFFIXES and f.stem not in found:
                found[f.stem] = f
    return dict(sorted(found.items()))


def _game_file(folder: Path) -> Path | None:
    for suffix in RULESET_SUFFIXES:
        f = folder / f"{folder.name}{suffix}"
        if f.is_file():
            return f
    return None


def _looks_like_path(text: str) -> bool:
    return (
        "/" in text
        or os.sep in text
        or (os.altsep is not None and os.altsep in text)
        or text.endswith(RULESET_SUFFIXES)
        or text.startswith(".")
    )


def ruleset_path(name_or_path: str | os.PathLike[str], base: str | os.PathLike[str] | None = None) -> Path:
    """The ruleset file for a shipped game or variant name ("mygame") or a path.

    A path may name a ``.yaml`` file or a game folder holding ``<folder>.yaml``. A relative path is
    taken relative to ``base`` when given (the file that says ``extends: ../x.yaml``), else to the
    current directory. Raises RulesError naming the input, with did-you-mean among shipped names.
    """
    text = os.fspath(name_or_path)
    if not text.strip():
        raise RulesError("no ruleset given", hint=_shipped_hint())
    if isinstance(name_or_path, os.PathLike) or _looks_like_path(text):
        return _resolve_file(text, base)
    shipped = shipped_rulesets()
    if text in shipped:
        return shipped[text]
    # Not a shipped name: an existing file or folder of that name still counts.
    candidate = Path(base).parent / text if base is not None else Path(text)
    if candidate.exists():
        return _resolve_file(text, base)
    raise RulesError(f"unknown game {text!r}{did_you_mean(text, shipped)}", hint=_shipped_hint())


def _resolve_file(text: str, base: str | os.PathLike[str] | None) -> Path:
    path = Path(text).expanduser()
    if base is not None and not path.is_absolute():
        path = Path(base).parent / path
    if path.is_dir():
        game = _game_file(path)
        if game is None:
            raise RulesError(f"{text}: a folder without a ruleset file {path.name}.yaml in it")
        return game
    if not path.is_file():
        raise RulesError(f"no such ruleset file: {path}", hint=_shipped_hint())
    return path


def _shipped_hint() -> str:
    names = ", ".join(shipped_rulesets()) or "none found"
    return f"give a shipped game ({names}) or a path to a ruleset .yaml file"


def within_known_folders(path: Path) -> str | None:
    """An absolute path as short as it reads relative to the current folder or to the shipped
    data's root (a venv inside the current folder holds the data), or None when it is in neither."""
    found = []
    for base in (Path.cwd(), data_root()):
        try:
            found.append(str(path.relative_to(base.resolve())))
        except (ValueError, OSError):
            continue
    return min(found, key=len) if found else None


def shown_path(file: str) -> str:
    """A file as errors of a run show it: relative to the current folder (or, for the shipped
    data, to its root, as `cardrules validate` shows them); a name that is no path ("<deck>") as
    it is. The same file reads the same from any folder's point of view it is shown from."""
    if not file or file.startswith("<") or not os.path.isabs(file):
        return file
    path = Path(file)
    within = within_known_folders(path)
    if within is not None:
        return within
    try:
        return os.path.relpath(path, Path.cwd())
    except (ValueError, OSError):  # (no relative path to another drive)
        return file
