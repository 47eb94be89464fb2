"""The parser's disk cache (see interpreter/diskcache.py): Lark's parse tables and parsed ASTs.

- `lark_parser(grammar, **options)`: a Lark LALR parser whose analysed tables (Lark's own
  ``memo_serialize`` data: dicts, lists, strings and numbers) are kept on disk, so a new process
  does not analyse the grammar again (the slowest step of a cold load).
- `cached_tree(kind, key, compute)`: an AST (frozen dataclasses with spans) kept on disk as plain
  data, keyed by everything the parse depends on (the text, the file name, the start rule, the
  place of the text in its file). Only a successful parse is stored: text with a syntax error is
  parsed again, so its error is the parser's own, located as ever.

A tree is stored as nested lists: ``[class number, field, field, ...]`` for a dataclass instance,
``[-1, n]`` for the n-th instance already built (the parser may share a node), ``[-2]`` for the
shared `NO_SPAN`, a tuple for a tuple; strings, numbers, booleans and None as themselves. The classes are listed by module and name and
must be dataclasses of this package; decoding sets their fields without running any code of theirs.
A stored tree is used as if it were the parse of its file: the disk cache reads only entries
written with the user's secret (an edited or planted entry is a miss, see diskcache.py).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from typing import Any, TypeVar

from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from .. import diskcache
from ..errors import NO_SPAN

T = TypeVar("T")

_PACKAGE = __name__.split(".")[0]
_REF, _NO_SPAN = -1, -2  # markers; NO_SPAN is shared (code tests `span is NO_SPAN`)
_SCALARS = (str, int, float, bool, type(None))


def lark_parser(grammar: str, **options: Any) -> Lark:
    """Lark(grammar, **options), its tables read from the cache when this grammar with these
    options was analysed before (by this code: the key includes the Lark version)."""
    def build() -> Lark:
        return Lark(grammar, **options)

    def encode(parser: Lark) -> Any:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        return {"data": data, "memo": memo}

    return diskcache.cached("lark", (grammar, sorted(options.items())), build, encode, Lark.load)


def cached_tree(kind: str, key: tuple, compute: Callable[[], T]) -> T:
    """compute() (a parse), or the tree it made before for the same key."""
    return diskcache.cached(kind, key, compute, encode_tree, decode_tree)


# ------------------------------------------------------------------ trees as plain data
def encode_tree(tree: Any) -> list:
    """[class table, tree] for a tree of dataclass instances, tuples and scalars."""
    classes: dict[type, int] = {}
    table: list[tuple[str, str, tuple[str, ...]]] = []
    built: dict[int, int] = {}  # id(node) -> its number in build order
    keep: list[Any] = []  # (ids stay valid while encoding)

    def enc(value: Any, depth: int) -> Any:
        if isinstance(value, _SCALARS):
            return value
        if depth > 2000:
            raise diskcache.NotPlain("nested too deeply")
        kind = type(value)
        if kind is tuple:
            return tuple(enc(v, depth + 1) for v in value)
        if value is NO_SPAN:
            return [_NO_SPAN]
        if not dataclasses.is_dataclass(kind) or not kind.__module__.startswith(_PACKAGE + "."):
            raise diskcache.NotPlain(f"not a tree value: {kind.__name__}")
        seen = built.get(id(value))
        if seen is not None:
            return [_REF, seen]
        number = classes.get(kind)
        if number is None:
            names = tuple(f.name for f in dataclasses.fields(kind))
            if getattr(kind, "__slots__", None) is not None or any(n not in value.__dict__ for n in names):
                raise diskcache.NotPlain(f"{kind.__name__}: fields not in its __dict__")
            number = classes[kind] = len(table)
            table.append((kind.__module__, kind.__qualname__, names))
        fields = [number]
        fields.extend(enc(value.__dict__[name], depth + 1) for name in table[number][2])
        built[id(value)] = len(built)
        keep.append(value)
        return fields

    body = enc(tree, 0)
    return [table, body]


def decode_tree(stored: Any) -> Any:
    """The tree `encode_tree` stored. Raises (KeyError, TypeError, ValueError...) on data that
    does not fit this code's classes: the caller treats that as a miss."""
    table, body = stored
    classes = []
    for module_name, qualname, names in table:
        if not module_name.startswith(_PACKAGE + "."):
            raise ValueError(f"not a class of this package: {module_name}")
        cls = getattr(importlib.import_module(module_name), qualname)
        if not dataclasses.is_dataclass(cls) or tuple(f.name for f in dataclasses.fields(cls)) != tuple(names):
            raise ValueError(f"{qualname}: its fields changed")
        classes.append((cls, tuple(names)))
    built: list[Any] = []
    new = object.__new__

    def dec(value: Any) -> Any:
        kind = type(value)
        if kind is list:
            number = value[0]
            if number < 0:
                return built[value[1]] if number == _REF else NO_SPAN
            cls, names = classes[number]
            node = new(cls)
            node.__dict__.update(zip(names, [dec(v) for v in value[1:]]))
            built.append(node)
            return node
        if kind is tuple:
            return tuple(dec(v) for v in value)
        return value

    return dec(body)
