"""The `cardrules` command line: the `cardrules` script or `python -m interpreter.cli.main`."""

from __future__ import annotations


def main(argv=None) -> int:
    """Run the CLI (see `interpreter.cli.main`); return the exit code."""
    from .main import main as _main

    return _main(argv)


__all__ = ["main"]
