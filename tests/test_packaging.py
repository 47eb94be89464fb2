"""Packaging: grammar/, rulesets/ and cards/ ship as package data under interpreter/data/.

The wheel test builds a real wheel from a clean copy of the checkout (nothing is written into the
checkout) and checks that every data file and every module is in it. Without the build backend
(setuptools, wheel) and no index to fetch it from, it is skipped, not failed.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest

import interpreter
from interpreter.paths import DATA_DIRS, data_root

CHECKOUT = Path(__file__).resolve().parents[1]
# The same rule as setup.py's IGNORED_PATTERNS: files never shipped.
IGNORED_PATTERNS = ("__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~", ".*.swp")
COPY_EXCLUDED = {".git", ".venv", "venv", "build", "dist", ".pytest_cache", ".ruff_cache", ".hypothesis"}


def _ignored(rel: Path) -> bool:
    return any(fnmatch(part, pattern) for part in rel.parts for pattern in IGNORED_PATTERNS)


def data_files(root: Path) -> set[str]:
    """interpreter/data/<dir>/... names the wheel must hold, from the data folders under ``root``."""
    out = set()
    for name in DATA_DIRS:
        for path in (root / name).rglob("*"):
            rel = path.relative_to(root)
            if path.is_file() and not _ignored(rel):
                out.add(f"interpreter/data/{rel.as_posix()}")
    return out


def modules(root: Path) -> set[str]:
    out = set()
    for path in (root / "interpreter").rglob("*.py"):
        rel = path.relative_to(root)
        if not _ignored(rel) and "data" not in rel.parts[1:2]:
            out.add(rel.as_posix())
    return out


def test_data_root_holds_the_shipped_data():
    root = data_root()
    assert (root / "grammar" / "cardrules.lark").is_file()
    assert (root / "rulesets" / "schema" / "ruleset.schema.json").is_file()
    assert (root / "rulesets" / "initiative" / "initiative.yaml").is_file()
    assert any((root / "cards" / "initiative").glob("*.cards"))


def test_installed_layout_matches_the_grammar_lookup():
    # interpreter/lang/parser.py looks for interpreter/data/grammar/cardrules.lark when installed.
    if data_root() != CHECKOUT:
        assert data_root() == Path(interpreter.__file__).resolve().parent / "data"
        assert (data_root() / "grammar" / "cardrules.lark").is_file()


@pytest.mark.skipif(os.environ.get("CARDRULES_EXPECT_INSTALLED") != "1", reason="only under .ci/run")
def test_tests_import_the_installed_package():
    package = Path(interpreter.__file__).resolve().parent
    assert CHECKOUT not in package.parents, f"interpreter imported from the checkout: {package}"
    assert data_root() != CHECKOUT
    installed = {d.name for d in data_root().iterdir()}
    assert installed >= set(DATA_DIRS)
    scripts = importlib.metadata.distribution("cardrules").entry_points.select(group="console_scripts")
    assert [e.value for e in scripts if e.name == "cardrules"] == ["interpreter.cli.main:main"]


def _copy_checkout(dest: Path) -> None:
    def ignore(folder: str, names: list[str]) -> set[str]:
        skip = {n for n in names if n in COPY_EXCLUDED or n.endswith(".egg-info")}
        return skip | {n for n in names if _ignored(Path(n))}

    shutil.copytree(CHECKOUT, dest, ignore=ignore)


def _backend_available_here() -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    major = int(setuptools.__version__.split(".")[0])
    if major < 68:
        return False
    if major >= 71:  # bdist_wheel is part of setuptools
        return True
    try:
        import wheel  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> tuple[Path, Path]:
    """(the copy of the checkout built from, the wheel). Expectations come from the copy, so that
    files others add to the checkout meanwhile do not make the comparison flaky."""
    if not (CHECKOUT / "pyproject.toml").is_file() or not (CHECKOUT / "setup.py").is_file():
        pytest.skip("no checkout to build from")
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    _copy_checkout(src)
    out = work / "dist"
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-w", str(out)]
    if _backend_available_here():
        command.append("--no-build-isolation")
    result = subprocess.run([*command, str(src)], capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        offline = ("No matching distribution", "Could not find a version", "NewConnectionError", "Network is unreachable")
        if any(text in result.stdout + result.stderr for text in offline):
            pytest.skip("cannot fetch the build backend (offline)")
        pytest.fail(f"building the wheel failed:\n{result.stdout}\n{result.stderr}")
    wheels = list(out.glob("cardrules-*.whl"))
    assert len(wheels) == 1, wheels
    return src, wheels[0]


@pytest.fixture(scope="module")
def wheel(build: tuple[Path, Path]) -> Path:
    return build[1]


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_wheel_ships_every_data_file(build, wheel_names):
    expected = data_files(build[0])
    assert expected, "no data files found in the checkout"
    missing = sorted(expected - wheel_names)
    assert not missing, f"not in the wheel: {missing}"
    shipped = {n for n in wheel_names if n.startswith("interpreter/data/")}
    extra = sorted(shipped - expected)
    assert not extra, f"in the wheel but not in the checkout (stale build?): {extra}"


def test_wheel_ships_every_module(build, wheel_names):
    missing = sorted(modules(build[0]) - wheel_names)
    assert not missing, f"modules not in the wheel: {missing}"


def test_wheel_has_the_console_script_and_nothing_at_top_level(wheel, wheel_names):
    name = next(n for n in wheel_names if n.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(name).decode("utf-8")
    assert "[console_scripts]" in text
    assert "cardrules = interpreter.cli.main:main" in text
    top = {n.split("/", 1)[0] for n in wheel_names}
    assert top == {"interpreter", next(n for n in top if n.endswith(".dist-info"))}
