"""The layers of the interpreter package (issue 31): rules/ + lang/ below, compile/ above them,
engine/ above compile/, and the layers that use the engine (cli, agents, envs, server, backends,
...) on top. A module imports only from its own layer and the ones below; imports written under
`if TYPE_CHECKING:` (annotations only) are not imports at run time and are allowed.

Also: the engine reads no private result of the checker (the checker's results are declared
fields of `Ruleset`), and the modules that moved into compile/ left nothing behind."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import interpreter

PACKAGE = Path(interpreter.__file__).resolve().parent
ROOT_NAME = "interpreter"

# what each low layer may import from the package at run time (besides itself)
ALLOWED = {
    "compile": {"compile", "lang", "rules", "errors"},
    "lang": {"lang", "errors", "diskcache", "paths"},
    "rules": {"rules", "lang", "errors", "diskcache", "paths"},
}
# the layers above compile/: it never imports them, even lazily
ABOVE_COMPILE = ("engine", "cli", "agents", "envs", "server", "backends", "scenarios", "lsp", "report",
                 "presentation", "api")
MOVED = ("engine/analyses.py", "engine/sites.py", "engine/places.py", "engine/statistics.py", "engine/build.py",
         "lang/compiler.py", "lang/native.py")


def _module_name(path: Path) -> list[str]:
    if not path.is_relative_to(PACKAGE.parent):
        return [path.stem]
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_time_imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import of a module that runs at run time: at the
    top, in functions (lazy imports), anywhere but under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(), str(path))
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join([*base, *([node.module] if node.module else [])])
                if node.module is None:  # `from . import x`: the submodules named
                    found.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names)
                    return
            else:
                name = node.module or ""
            found.append((node.lineno, name))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != ROOT_NAME or len(parts) < 2:
        return None
    return parts[1]


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_low_layer_imports_only_itself_and_the_layers_below_at_run_time(layer):
    files = sorted((PACKAGE / layer).rglob("*.py"))
    assert files, f"no modules in interpreter/{layer}/"
    wrong = []
    for path in files:
        for line, module in _run_time_imports(path):
            imported = _layer_of(module)
            if imported is not None and imported not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {module}")
    assert wrong == []


def test_the_engine_imports_no_layer_that_uses_it():
    above = set(ABOVE_COMPILE) - {"engine"}
    wrong = [f"{path.relative_to(PACKAGE.parent)}:{line}: imports {module}"
             for path in sorted((PACKAGE / "engine").rglob("*.py"))
             for line, module in _run_time_imports(path) if _layer_of(module) in above]
    assert wrong == []


def test_the_import_checker_sees_relative_lazy_and_type_checking_imports(tmp_path):
    sample = PACKAGE / "compile" / "sites.py"
    assert (13, "interpreter.lang") in _run_time_imports(sample)  # (from ..lang import ir)
    probe = tmp_path / "probe.py"
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from x import y\n"
                     "def f():\n    import z\n")
    assert _run_time_imports(probe) == [(1, "typing"), (5, "z")]


def test_compiling_a_ruleset_loads_no_module_of_the_layers_above():
    code = ("import sys\n"
            "from interpreter.compile import compile_ruleset\n"
            "from interpreter.rules.loader import load_ruleset\n"
            "program = compile_ruleset(load_ruleset('initiative'))\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('interpreter.'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=PACKAGE.parent)
    loaded = done.stdout.split()
    assert "interpreter.compile.program" in loaded
    assert [m for m in loaded if _layer_of(m) in ABOVE_COMPILE] == []


def test_the_engine_reads_no_private_result_of_the_checker():
    private = re.compile(r"\.extra\b|\bextra\s*\[|\bextra\.get\(")
    found = [f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}"
             for path in sorted(PACKAGE.rglob("*.py")) if "data" not in path.relative_to(PACKAGE).parts
             for n, line in enumerate(path.read_text().splitlines(), start=1) if private.search(line)]
    assert found == []


def test_the_moved_modules_left_nothing_behind():
    assert [name for name in MOVED if (PACKAGE / name).exists()] == []
    for name in ("analyses", "sites", "places", "statistics", "compiler", "native", "program"):
        assert (PACKAGE / "compile" / f"{name}.py").is_file(), name
