"""The paths a rule file names, checked before anything is read: `code:` files, default decks,
`cards:` folders and files, `extends:`.

A rule file is data from whoever wrote it, and what it names is read and, on an error, quoted
line by line. So what it may name is limited (docs/rulesets.md, "Paths in rule files"):

- a `code:` entry and a default deck (`decks: default:`, `decks: formats: F: default:`) resolve,
  symlinks followed, inside the folder of the rule file that names them (that folder or one below
  it: the ruleset's own folder tree);
- `extends:` names a shipped ruleset, or a ruleset file inside that folder tree too;
- a `cards:` entry may lie anywhere (the shipped games' cards are in cards/<game>/, beside
  rulesets/<game>/), but only card files are read through it: it names a folder, of which the files
  named `*.cards` are read (not its subfolders), or a file named `*.cards`; and every file read
  that way, symlinks followed, is a regular file whose name ends in `.cards` too.

Anything else is a RulesError located at the YAML value that names the path; it names the path and
never shows what the named file holds. A file name longer than the system allows (`NAME_MAX`, 255
bytes) or a path the system cannot resolve is such an error too, never an OSError.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .. import paths
from ..errors import CardrulesError, ErrorList, RulesError, Span

NAME_MAX = 255  # bytes in one file name (Linux, macOS and Windows file systems)
CARD_SUFFIX = ".cards"
OWN_TREE_HINT = ("a rule file names code files and decks in its own folder or below it; card folders "
                 "(cards:) may lie elsewhere, and only their *.cards files are read")


def unusable(text: str) -> str | None:
    """Why the text of a path cannot name a file (a NUL, a file name too long), or None."""
    if "\0" in text:
        return "a path cannot hold a NUL character"
    for part in re.split(r"[/\\]", text):
        size = len(os.fsencode(part))
        if size > NAME_MAX:
            return f"a file name of {size} bytes ({part[:24]}...); file names are at most {NAME_MAX} bytes"
    return None


def _real(path: Path | str) -> str:
    """The path with every symlink followed (raises OSError, or ValueError on a NUL)."""
    return os.path.realpath(path)


def is_inside(real: str, folder: str) -> bool:
    """Whether the real path `real` is the real folder `folder` or lies below it."""
    try:
        return os.path.commonpath([real, folder]) == folder
    except ValueError:  # (another drive)
        return False


def _resolved(text: str, rule_file: Path, span: Span | None, what: str) -> tuple[Path, str]:
    """(the path as named, relative to the rule file's folder; its real path), or a RulesError."""
    why = unusable(text)
    if why is None:
        try:
            named = rule_file.parent / Path(text).expanduser()
            return named, _real(named)
        except (OSError, ValueError, RuntimeError) as err:
            why = getattr(err, "strerror", None) or str(err)
    raise RulesError(f"{what} {_quoted(text)}: {why}", span)


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:60] + "..." + text[-16:])


def in_own_tree(text: str, rule_file: Path, span: Span | None, what: str) -> str:
    """The real path of a file a rule file names that must lie in its own folder tree (a `code:`
    entry, a default deck); a RulesError at `span` if it lies outside (a `..`, an absolute path
    or a symlink that leads out) or cannot be resolved."""
    named, real = _resolved(text, rule_file, span, what)
    folder = _real(rule_file.parent)
    if not is_inside(real, folder):
        linked = real != os.path.normpath(os.path.abspath(named))
        via = f", a link to {real}," if linked else ""
        raise RulesError(f"{what} {_quoted(text)}{via} lies outside the folder of its rule file ({folder})",
                         span, hint=OWN_TREE_HINT)
    return real


def card_entry(text: str, rule_file: Path, span: Span | None) -> str:
    """The real path of a `cards:` entry: a folder, or a file named *.cards whose real name ends
    in .cards too; a RulesError at `span` otherwise."""
    named, real = _resolved(text, rule_file, span, "card folder or file")
    if os.path.isdir(real) or not os.path.lexists(named):
        return real  # (a folder, or nothing: read_entry says there is no such folder or file)
    if not named.name.endswith(CARD_SUFFIX) or not real.endswith(CARD_SUFFIX):
        linked = named.name.endswith(CARD_SUFFIX)  # (so its real name is not)
        shown = _quoted(text) + (f" (a link to {real})" if linked else "")
        raise RulesError(f"card file {shown} is not a {CARD_SUFFIX} file", span,
                         hint=f"cards: names folders of {CARD_SUFFIX} files, or {CARD_SUFFIX} files")
    return real


def card_files(entry: Path) -> list[Path]:
    """The files read through a `cards:` entry (its real path, see card_entry): the entry itself
    if it is a file, else the folder's files named *.cards, in name order. Raises RulesError
    (without a place: the caller gives the entry's) for one that is, symlinks followed, not a
    regular file named *.cards."""
    if not entry.is_dir():
        return [entry]
    found = []
    for file in sorted(entry.glob("*" + CARD_SUFFIX)):
        real = _real(file)
        if not real.endswith(CARD_SUFFIX) or not os.path.isfile(real):
            raise RulesError(f"card folder {entry}: {file.name} is a link to {real}, not a {CARD_SUFFIX} file"
                             if real != str(file) else f"card folder {entry}: {file.name} is not a file")
        found.append(file)
    return found


def extended(name: str, path: Path, span: Span | None) -> Path:
    """The ruleset a variant (the rule file `path`) extends: a shipped one, or a file in the
    variant's folder tree; a RulesError at `span` otherwise."""
    why = unusable(name)
    if why is not None:
        raise RulesError(f"'extends: {name[:60]}': {why}", span)
    try:
        base = paths.ruleset_path(name, base=path)
        real = os.path.realpath(base)
        folder = os.path.realpath(path.parent)
        shipped = {os.path.realpath(p) for p in paths.shipped_rulesets().values()}
    except RulesError as err:
        raise RulesError(f"'extends: {name}': {err.message}", span) from None
    except (OSError, ValueError) as err:
        raise RulesError(f"'extends: {name[:60]}': {getattr(err, 'strerror', None) or err}", span) from None
    if real not in shipped and not is_inside(real, folder):
        raise RulesError(f"'extends: {name}' names {real}, outside the folder of this rule file ({folder})",
                         span, hint="extends: names a shipped ruleset, or a ruleset file in the variant's "
                                    "folder or below it")
    return base


def absolutize(data: dict, path: Path, src) -> None:
    """Make the paths a rule file names absolute (real paths), each checked where it may lie
    (above): code files and default decks in the file's own folder tree, card entries
    anywhere but only *.cards files. Every wrong path is reported, at its YAML value (`src` is
    the rule file's loader.Source)."""
    problems: list[CardrulesError] = []

    def each(entries: list, key_path: tuple, check) -> list[str]:
        out = []
        for i, text in enumerate(entries):
            try:
                out.append(check(text, src.span(*key_path, i)))
            except RulesError as err:
                problems.append(err)
        return out

    if "code" in data:
        data["code"] = each(data["code"], ("code",),
                            lambda t, span: in_own_tree(t, path, span, "code file"))
    if "cards" in data:
        data["cards"] = each(data["cards"], ("cards",), lambda t, span: card_entry(t, path, span))
    decks = data.get("decks")
    if isinstance(decks, dict):
        places = [((), decks), *((("formats", f), rules) for f, rules in (decks.get("formats") or {}).items())]
        for inner, rules in places:
            if isinstance(rules, dict) and "default" in rules:
                rules["default"] = each(rules["default"], ("decks", *inner, "default"),
                                        lambda t, span: in_own_tree(t, path, span, "default deck"))
    if problems:
        raise ErrorList(problems) if len(problems) > 1 else problems[0]
