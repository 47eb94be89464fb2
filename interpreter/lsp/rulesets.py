"""Which rulesets an edited file belongs to, and what a ruleset is made of.

A ruleset file is a YAML mapping with `code:`, `cards:` or `extends:` (a deck has `cards:` too, but
its entries are card names, which name no file, so a deck never claims a file). The candidates for
a file are the shipped rulesets, the YAML files of the editor's workspace folders, and those near
the file: in each folder above it (up to four levels) and in the `rulesets/*/` folders there
(a checkout keeps cards/<game>/ beside rulesets/<game>/). Files are read through the rules layer's
YAML reader, so an unsaved rule file (the source overlay) counts as it stands in the editor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import CardrulesError
from ..rules import rulepaths
from ..rules.overlay import overlaid_text
from ..rules.yamlload import load_yaml

YAML_SUFFIXES = (".yaml", ".yml")
CODE_SUFFIXES = (".cards", ".rules")
NEAR_LEVELS = 4  # folders above a file searched for its rulesets
MAX_WORKSPACE_FILES = 2_000  # YAML files of a workspace looked at, at most
SKIPPED_FOLDERS = {"node_modules", "__pycache__", "site-packages", "build", "dist"}
# top-level keys that tell a ruleset from a deck or a scenario before the YAML is read
_TOP_KEY = re.compile(r"^([A-Za-z_]+)\s*:", re.MULTILINE)


def _may_be_ruleset(text: str) -> bool:
    keys = set(_TOP_KEY.findall(text))
    return "ruleset" not in keys and ("code" in keys or "extends" in keys or {"cards", "zones"} <= keys)


@dataclass
class Layer:
    """One YAML file of a ruleset's `extends:` chain: its data and where each key is."""

    path: Path
    data: dict
    marks: Any


@dataclass
class RulesetFiles:
    """A ruleset's chain of YAML files (the ruleset itself first, then what it extends) and the
    code and card files it reads."""

    path: Path
    layers: list[Layer] = field(default_factory=list)
    code: list[Path] = field(default_factory=list)
    cards: list[Path] = field(default_factory=list)

    def files(self) -> list[Path]:
        return [layer.path for layer in self.layers] + self.code + self.cards


def read_ruleset(path: Path) -> RulesetFiles | None:
    """The files of a ruleset, or None if `path` is no readable ruleset. `code:` and `cards:` are
    taken from the nearest file of the chain that has them (as the loader merges them)."""
    found = RulesetFiles(path.resolve())
    current: Path | None = found.path
    code: list[Path] | None = None
    cards: list[Path] | None = None
    while current is not None and current not in {layer.path for layer in found.layers}:
        try:
            data, marks = load_yaml(current)
        except CardrulesError:
            break
        if not isinstance(data, dict):
            break
        found.layers.append(Layer(current, data, marks))
        # (only the files the loader would read: rules/rulepaths.py; it reports the others)
        if code is None and isinstance(data.get("code"), list):
            code = [p for entry in data["code"] if (p := _entry(current, entry)) is not None]
        if cards is None and isinstance(data.get("cards"), list):
            cards = []
            for entry in data["cards"]:
                cards.extend(_card_files(current, entry))
        current = _extended(current, data.get("extends"))
    if not found.layers or not _is_ruleset(found.layers[0].data):
        return None
    found.code, found.cards = code or [], cards or []
    return found


def _entry(folder_of: Path, entry: Any) -> Path | None:
    """A `code:` entry of the rule file `folder_of`, if it lies in that file's folder tree."""
    if not isinstance(entry, str):
        return None
    try:
        return Path(rulepaths.in_own_tree(entry, folder_of, None, "code file"))
    except (CardrulesError, OSError, RuntimeError, ValueError):
        return None


def _card_files(folder_of: Path, entry: Any) -> list[Path]:
    """The card files read through a `cards:` entry of the rule file `folder_of`."""
    if not isinstance(entry, str):
        return []
    try:
        found = Path(rulepaths.card_entry(entry, folder_of, None))
        return [f.resolve() for f in rulepaths.card_files(found)] if found.exists() else [found]
    except (CardrulesError, OSError, RuntimeError, ValueError):
        return []


def _extended(path: Path, base: Any) -> Path | None:
    if not isinstance(base, str):
        return None
    try:
        return rulepaths.extended(base, path, None).resolve()
    except (CardrulesError, OSError):
        return None


def _is_ruleset(data: dict) -> bool:
    if "extends" in data or "code" in data or "zones" in data or "card_types" in data:
        return True
    return isinstance(data.get("cards"), list) and "name" in data


class RulesetFinder:
    """Finds the rulesets a file belongs to, among the shipped ones, the workspace's and those
    near the file."""

    def __init__(self, roots: list[Path] | None = None) -> None:
        self.roots = [r.resolve() for r in roots or []]
        self._workspace: list[Path] | None = None
        # a ruleset file's reading, by (path, modification time, size); files in the overlay are read anew
        self._read: dict[tuple[Path, int, int], RulesetFiles | None] = {}
        # each deck file's ruleset when its text last read as a deck: a deck being typed into
        # (not valid YAML for a moment) keeps its card names' hover and completion
        self._deck_of: dict[Path, RulesetFiles] = {}

    def candidates(self, file: Path) -> list[Path]:
        """Ruleset files that might read `file`, each once, nearest first."""
        seen: dict[Path, None] = {}
        folder = file.resolve().parent
        for _level in range(NEAR_LEVELS + 1):
            for found in _yaml_in(folder):
                seen.setdefault(found, None)
            rulesets = folder / "rulesets"
            if rulesets.is_dir():
                for game in sorted(rulesets.iterdir()):
                    for found in _yaml_in(game):
                        seen.setdefault(found, None)
            if folder.parent == folder:
                break
            folder = folder.parent
        for found in self.workspace_yaml():
            seen.setdefault(found, None)
        for shipped in paths.shipped_rulesets().values():
            seen.setdefault(shipped.resolve(), None)
        return list(seen)

    def workspace_yaml(self) -> list[Path]:
        """The YAML files of the workspace folders (hidden and build folders skipped), found once."""
        if self._workspace is None:
            found: list[Path] = []
            for root in self.roots:
                stack = [root]
                while stack and len(found) < MAX_WORKSPACE_FILES:
                    folder = stack.pop()
                    try:
                        entries = sorted(folder.iterdir())
                    except OSError:
                        continue
                    for entry in entries:
                        if entry.name.startswith(".") or entry.name in SKIPPED_FOLDERS:
                            continue
                        if entry.is_dir():
                            stack.append(entry)
                        elif entry.suffix in YAML_SUFFIXES:
                            found.append(entry.resolve())
            self._workspace = found
        return self._workspace

    def rulesets_of(self, file: Path) -> list[RulesetFiles]:
        """The rulesets that read `file` (as a code or card file, or as a file of their chain)."""
        target = file.resolve()
        out = []
        for candidate in self.candidates(target):
            found = self.read(candidate)
            if found is not None and target in found.files():
                out.append(found)
        return out


    def deck_ruleset(self, file: Path) -> RulesetFiles | None:
        """The ruleset a deck file is for (None when the file is no deck, or its ruleset is not
        found): the one its `ruleset:` names, else the one of its folder or of a folder above
        it, as `cardrules validate` finds it (GAME/GAME.yaml); while the file is no valid YAML, the
        ruleset it had when it last was."""
        try:
            data, _marks = load_yaml(file)
        except CardrulesError:
            return self._deck_of.get(file)
        found = self._deck_ruleset(file, data)
        if found is None:
            self._deck_of.pop(file, None)
        else:
            self._deck_of[file] = found
        return found

    def _deck_ruleset(self, file: Path, data) -> RulesetFiles | None:
        if not isinstance(data, dict) or _is_ruleset(data) or not isinstance(data.get("cards"), (dict, list)):
            return None
        named = data.get("ruleset")
        if isinstance(named, str):
            try:
                shipped = named in paths.shipped_rulesets()
                found = paths.ruleset_path(named) if shipped else paths.ruleset_path(named, base=file)
            except CardrulesError:
                return None
            return self.read(found.resolve())
        for folder in list(file.resolve().parents)[:4]:
            for suffix in YAML_SUFFIXES:
                candidate = folder / f"{folder.name}{suffix}"
                if candidate.is_file():
                    return self.read(candidate)
        return None

    def read(self, path: Path) -> RulesetFiles | None:
        """`read_ruleset`, remembered while the file (and the files of its chain) are unchanged on
        disk; a file with no ruleset key is passed over unread."""
        text = overlaid_text(path)
        if text is not None:
            return read_ruleset(path) if _may_be_ruleset(text) else None
        try:
            stat = path.stat()
        except OSError:
            return None
        key = (path, stat.st_mtime_ns, stat.st_size)
        if key in self._read:
            found = self._read[key]
            if found is None or all(_unchanged(layer.path, self._read) for layer in found.layers[1:]):
                return found
        try:
            head = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        found = read_ruleset(path) if _may_be_ruleset(head) else None
        if found is not None and any(overlaid_text(layer.path) is not None for layer in found.layers):
            return found  # (a file of its chain is being edited: not remembered)
        self._read[key] = found
        return found


def _unchanged(path: Path, known: dict[tuple[Path, int, int], RulesetFiles | None]) -> bool:
    if overlaid_text(path) is not None:
        return False
    try:
        stat = path.stat()
    except OSError:
        return False
    return (path, stat.st_mtime_ns, stat.st_size) in known


def _yaml_in(folder: Path) -> list[Path]:
    try:
        return sorted(p.resolve() for p in folder.iterdir() if p.suffix in YAML_SUFFIXES and p.is_file())
    except OSError:
        return []
