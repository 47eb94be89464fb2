"""`cardrules schema [NAME] [--write DIR]`: the JSON Schemas of rule, deck and scenario files, for
YAML editors (yaml-language-server and the editors built on it; docs/editor-schemas.md).

Without arguments: each schema's name, file and `$id`, and the modeline that makes an editor use
it. With NAME (ruleset, deck, scenario): that schema's JSON. With --write DIR: every schema written
into DIR (made if missing), and the modeline lines to put at the top of a file.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .. import paths
from ..errors import RulesError
from .common import UsageError

MODELINE = "# yaml-language-server: $schema={}"


def schema_names() -> list[str]:
    return sorted(p.name.removesuffix(".schema.json") for p in paths.schema_dir().glob("*.schema.json"))


def run_schema(name: str | None, write: str | None) -> int:
    out = sys.stdout
    if name is not None:
        try:
            path = paths.schema_path(name)
        except RulesError as err:
            raise UsageError(f"{err.message} ({err.hint})" if err.hint else err.message) from None
        if write is None:
            out.write(path.read_text(encoding="utf-8"))
            return 0
        names = [path.name.removesuffix(".schema.json")]
    else:
        names = schema_names()
    if write is None:
        for stem in names:
            path = paths.schema_path(stem)
            schema_id = json.loads(path.read_text(encoding="utf-8")).get("$id", "")
            out.write(f"{stem:<9} {path}\n          $id {schema_id}\n")
        out.write("\nAt the top of a YAML file (the path relative to the file, or absolute):\n"
                  f"  {MODELINE.format(paths.schema_path('ruleset'))}\n"
                  "`cardrules schema NAME` prints one; `cardrules schema --write DIR` copies them all.\n")
        return 0
    folder = Path(write)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for stem in names:
            target = folder / f"{stem}.schema.json"
            target.write_text(paths.schema_path(stem).read_text(encoding="utf-8"), encoding="utf-8")
            out.write(f"wrote {target}\n")
    except OSError as err:
        raise UsageError(f"cannot write to {folder}: {err.strerror or err}") from None
    out.write("\nAt the top of a YAML file, the schema's path relative to that file, e.g.:\n")
    for stem in names:
        out.write(f"  {MODELINE.format(os.path.join(str(folder), f'{stem}.schema.json'))}\n")
    return 0
