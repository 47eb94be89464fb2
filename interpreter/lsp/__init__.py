"""The language server of cardrules (`cardrules lsp`, extra `lsp`: pygls and lsprotocol).

For card files (.cards), rule code files (.rules) and ruleset YAML files: diagnostics as you type
(the errors `cardrules validate` reports, for the whole ruleset a file belongs to), hover, go to
definition, completion, document symbols and formatting with the canonical printer. The CLI
(interpreter/cli/lsp.py) gives the server its checks; docs/editor.md sets up editors.
"""

from __future__ import annotations

from typing import Any

MISSING = "the language server needs the extra 'lsp' (pygls and lsprotocol): pip install 'cardrules[lsp]'"


class MissingExtra(ImportError):
    """pygls or lsprotocol is not installed."""


def serve(check: Any, quick: Any = None) -> None:
    """Run the server on stdin/stdout with `check` giving the errors (see analysis.Check) and
    `quick` those of the edited file, first (analysis.QuickCheck)."""
    try:
        from .server import serve as run
    except ImportError as err:
        if err.name in ("pygls", "lsprotocol", "cattrs") or "pygls" in str(err) or "lsprotocol" in str(err):
            raise MissingExtra(MISSING) from err
        raise
    run(check, quick)


__all__ = ["MISSING", "MissingExtra", "serve"]
