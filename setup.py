"""Build hooks only; the metadata is in pyproject.toml.

grammar/, rulesets/ and cards/ stay at the top of the checkout (DESIGN.md layout) and are copied
into the built package as ``interpreter/data/{grammar,rulesets,cards}`` so an installed
``cardrules`` finds them (see interpreter/paths.py). The sdist carries the three folders as they
are, so a wheel built from the sdist gets them too.
"""

from __future__ import annotations

import shutil
from fnmatch import fnmatch
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
DATA_DIRS = ("grammar", "rulesets", "cards")
# Never shipped: caches and editor litter. tests/test_packaging.py uses the same rule.
IGNORED_PATTERNS = ("__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~", ".*.swp")
IGNORED = shutil.ignore_patterns(*IGNORED_PATTERNS)


def data_files() -> list[str]:
    """Every file of the data folders, relative to the checkout root, sorted."""
    out: list[str] = []
    for name in DATA_DIRS:
        for path in sorted((ROOT / name).rglob("*")):
            rel = path.relative_to(ROOT)
            if path.is_file() and not any(fnmatch(part, pat) for part in rel.parts for pat in IGNORED_PATTERNS):
                out.append(rel.as_posix())
    return out


class BuildPyWithData(build_py):
    """build_py, then a fresh copy of the data folders into <build_lib>/interpreter/data/."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout itself (interpreter/paths.py)
        target = Path(self.build_lib) / "interpreter" / "data"
        shutil.rmtree(target, ignore_errors=True)  # no stale files from an earlier build
        for name in DATA_DIRS:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=IGNORED)


class SdistWithData(sdist):
    """sdist including the data folders (no MANIFEST.in needed)."""

    def make_distribution(self) -> None:
        self.filelist.extend(data_files())
        super().make_distribution()


setup(cmdclass={"build_py": BuildPyWithData, "sdist": SdistWithData})
