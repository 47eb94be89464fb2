"""`cardrules fmt PATH... [--check]`: card and rule code files in their canonical form.

Each .cards or .rules file (a folder: every one below it, hidden folders skipped) is printed with
the canonical printer, its comments kept (lang/formatting.py), and written back in place when it
changes; the names of the files written are listed. With --check nothing is written: the files
that would change are listed and the exit code is 1 if there are any (nothing is printed when
every file is formatted already). A file that does not parse is reported and left as it is
(exit 1).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from ..errors import CardrulesError, RulesError
from ..lang.formatting import format_text
from ..rules.sources import read_text
from .common import UsageError, errors_text, indent, shown

SUFFIXES = (".cards", ".rules")


def files_of(path_args: list[str]) -> list[Path]:
    """The code and card files the arguments name, each once, in the order given (a folder's in
    name order)."""
    found: dict[Path, None] = {}
    for text in path_args:
        path = Path(text)
        if path.is_dir():
            for p in sorted(path.rglob("*")):
                if p.suffix in SUFFIXES and p.is_file() and not any(
                        part.startswith(".") for part in p.relative_to(path).parts):
                    found.setdefault(p, None)
        elif path.is_file():
            if path.suffix not in SUFFIXES:
                raise UsageError(f"{text}: not a card file (.cards) nor a rule code file (.rules)")
            found.setdefault(path, None)
        else:  # missing: reported with the files that cannot be read (exit 1), the others still done
            found.setdefault(path, None)
    return list(found)


def write_in_place(path: Path, text: str) -> None:
    """Replace a file's text at once (a temporary file beside it, renamed over it), keeping its mode."""
    mode = path.stat().st_mode & 0o7777
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def run_fmt(path_args: list[str], check: bool) -> int:
    out = sys.stdout
    changed = failed = 0
    for path in files_of(path_args):
        try:
            text = read_text(path)
            formatted = format_text(text, str(path))
        except CardrulesError as err:
            failed += 1
            out.write(f"error {shown(path)}\n")
            out.write(indent(errors_text(err)) + "\n")
            continue
        except OSError as err:
            failed += 1
            why = "no such file or folder" if isinstance(err, FileNotFoundError) else err.strerror or err
            out.write(f"error {shown(path)}\n" + indent(str(RulesError(f"cannot read it: {why}"))) + "\n")
            continue
        if formatted == text:
            continue
        changed += 1
        if check:
            out.write(f"would reformat {shown(path)}\n")
        else:
            write_in_place(path, formatted)
            out.write(f"reformatted {shown(path)}\n")
    out.flush()
    return 1 if failed or (check and changed) else 0
