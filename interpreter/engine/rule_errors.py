"""The words for a Python error raised inside rule code (`RULE_ERRORS`), as a runtime error shows
it: a value of the wrong kind is said in the language's own words ("cannot compare text with a
number (<=)"), never as Python's TypeError with Python's type names."""

from __future__ import annotations

import re

from ..lang.kinds import KIND_WORDS

# Python's names of the types rule values have, and how a message names a value of each
_PYTHON_KINDS = {"int": "int", "bool": "bool", "str": "text", "list": "list", "tuple": "list", "NoneType": "none",
                 "CardRef": "card", "PlayerRef": "player", "AbilityRef": "ability", "Labelled": "text"}
_NAME = r"'?\"?([A-Za-z_]\w*)'?\"?"
_PATTERNS = [
    (re.compile(rf"'(\S+)' not supported between instances of {_NAME} and {_NAME}"),
     lambda op, a, b: f"cannot compare {_words(a)} with {_words(b)} ({op})"),
    (re.compile(rf"unsupported operand type\(s\) for (\S+?): {_NAME} and {_NAME}"),
     lambda op, a, b: f"cannot work out {_words(a)} {op} {_words(b)}"),
    (re.compile(rf"can only concatenate {_NAME} \(not {_NAME}\) to \w+"),
     lambda a, b: f"cannot work out {_words(a)} + {_words(b)}"),
    (re.compile(rf"bad operand type for unary (\S+?): {_NAME}"),
     lambda op, a: f"cannot work out {op}{_words(a)}"),
    (re.compile(rf"{_NAME} object is not iterable"),
     lambda a: f"cannot go through {_words(a)} item by item: it is not a list"),
    (re.compile(rf"object of type {_NAME} has no len\(\)"),
     lambda a: f"cannot count {_words(a)}: it is not a list"),
    (re.compile(rf"{_NAME} object is not subscriptable"),
     lambda a: f"cannot take an item of {_words(a)}: it is not a list"),
    (re.compile(rf"{_NAME} object cannot be interpreted as an integer"),
     lambda a: f"{_words(a)} where a whole number is needed"),
]


def _words(python_type: str) -> str:
    kind = _PYTHON_KINDS.get(python_type)
    return KIND_WORDS.get(kind, python_type) if kind is not None else f"a value of Python type {python_type!r}"


def rule_error_words(err: Exception) -> str:
    """What went wrong, for a runtime error's message: a TypeError (a value of the wrong kind) in
    the language's words ("cannot compare text with a number (<=)"); any other error as its
    Python type and message."""
    if isinstance(err, TypeError):
        text = str(err)
        for pattern, words in _PATTERNS:
            match = pattern.search(text)
            if match is not None:
                return words(*match.groups())
        shown = re.sub("'({})'".format("|".join(_PYTHON_KINDS)), lambda m: _words(m.group(1)), text)
        return f"a value of the wrong kind: {shown}"
    return f"{type(err).__name__}: {err}"
