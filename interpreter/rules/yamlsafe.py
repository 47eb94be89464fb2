"""The YAML loader itself: PyYAML's SafeLoader made to give JSON-like data only, and to refuse
hostile input early, before it costs time or memory (yamlload.py adds the positions).

- booleans are only ``true``/``false`` (YAML 1.2); dates stay text;
- the tags ``!!binary``, ``!!timestamp``, ``!!set``, ``!!omap`` and ``!!pairs`` are refused;
- `MAX_DEPTH`: lists and mappings nested more than 100 levels (PyYAML composes recursively);
- `MAX_NODES`: more than 100,000 values in one document, each use of an alias (``*name``)
  counted in full, which stops "billion laughs" alias bombs; an alias inside what it names is refused;
- `MAX_NUMBER`: a number beyond 10^15 in absolute value, infinity or NaN;
- `MAX_FILE_BYTES`: the size of a file or text (checked by yamlload.py before it reads one).

What goes over a limit raises `Refused` from inside PyYAML's machinery, with the mark to locate it.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml
from yaml.error import Mark
from yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent
from yaml.nodes import Node, ScalarNode

# The limits. The largest shipped file is about 5 KB, 500 values and 8 levels deep; these leave a
# wide margin while keeping the worst input PyYAML (pure Python, some microseconds a character or
# value) and the marks kept for every value can be made to chew on to a few seconds and megabytes.
MAX_FILE_BYTES = 2_000_000  # one YAML file (or text), in bytes (characters for a text)
MAX_DEPTH = 100  # lists and mappings inside each other; PyYAML's composer recurses ~3 frames a level
MAX_NODES = 100_000  # values in one document, an alias counted as all it stands for (billion laughs)
MAX_NUMBER = 10**15  # beyond this a count or amount is a mistake or an attack; JSON doubles end at 2^53
# Significant characters of an integer literal: more means more than MAX_NUMBER in any base, and
# Python refuses to convert decimal literals of more than 4,300 digits at all.
_MAX_INT_CHARS = 64

_BOOL = "tag:yaml.org,2002:bool"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
MERGE_TAG = "tag:yaml.org,2002:merge"
# Tags whose values are not JSON-like (bytes, dates, sets, pairs): refused if written explicitly.
_NOT_JSON = ("binary", "timestamp", "set", "omap", "pairs")
LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what PyYAML counts as a new line
_COMMENT_END = re.compile("[\0\r\n\x85\u2028\u2029]")


class Refused(Exception):
    """Input over a limit, raised from inside PyYAML's machinery; `load_yaml_text` locates it."""

    def __init__(self, message: str, mark: Mark, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.hint = hint


class Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans, no implicit timestamps, JSON-like values only, and the
    limits of this module checked while composing (so before anything recursive goes deep)."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in (_BOOL, _TIMESTAMP)]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    yaml_constructors = {
        tag: constructor for tag, constructor in yaml.SafeLoader.yaml_constructors.items()
        if tag is None or tag.rpartition(":")[2] not in _NOT_JSON
    }

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        # one [values, depth below] per collection being composed, outermost first
        self._open: list[list[int]] = []
        # (values, depth) of every finished collection, by id: what an alias to it stands for
        self._expanded: dict[int, tuple[int, int]] = {}
        self._aliases = False  # whether an alias was met (to say why the values are too many)

    # -- composing, with the depth and size limits -------------------------------------------------

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        """PyYAML's, counting what each node stands for and refusing what goes over the limits."""
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            node = super().compose_node(parent, index)
            self._count_alias(node, event)
            return node
        if isinstance(event, (SequenceStartEvent, MappingStartEvent)):
            if len(self._open) >= MAX_DEPTH:
                raise _nested_too_deeply(event.start_mark)
            self._open.append([1, 0])
            node = super().compose_node(parent, index)
            values, below = self._open.pop()
            self._expanded[id(node)] = (values, below + 1)
            self._count(values, below + 1, event.start_mark)
            return node
        node = super().compose_node(parent, index)
        self._count(1, 0, event.start_mark)
        return node

    def _count_alias(self, node: Node, event: AliasEvent) -> None:
        """Count an alias as the whole node it names; refuse one inside that node (a cycle)."""
        self._aliases = True
        if isinstance(node, ScalarNode):
            self._count(1, 0, event.start_mark)
            return
        expanded = self._expanded.get(id(node))
        if expanded is None:
            raise Refused(f"the alias *{event.anchor} is inside the list or mapping it names",
                           event.start_mark, hint="data with a loop in it cannot be loaded")
        self._count(*expanded, event.start_mark)

    def _count(self, values: int, depth: int, mark: Mark) -> None:
        """Add ``values`` values ``depth`` levels deep to the collection being composed."""
        if not self._open:
            return
        if len(self._open) + depth > MAX_DEPTH:
            raise _nested_too_deeply(mark)
        top = self._open[-1]
        top[0] += values
        top[1] = max(top[1], depth)
        if top[0] > MAX_NODES:
            hint = "aliases that repeat other aliases multiply (\"billion laughs\")" if self._aliases else ""
            raise Refused(f"too many values: at most {MAX_NODES:,} in one file, each use of an alias "
                           "(*name) counted as all it stands for", mark, hint=hint)

    # -- scanning: comments skipped at once instead of a character at a time ------------------------

    def scan_to_next_token(self) -> None:
        if self.raw_buffer is not None:  # text still being decoded from a stream: PyYAML's own way
            super().scan_to_next_token()
            return
        if self.index == 0 and self.peek() == "\uFEFF":
            self.forward()
        found = False
        while not found:
            while self.peek() == " ":
                self.forward()
            if self.peek() == "#":
                self._skip_comment()
            if self.scan_line_break():
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                found = True

    def _skip_comment(self) -> None:
        """Move to the end of the comment's line (the buffer ends with a NUL, so there is one)."""
        end = _COMMENT_END.search(self.buffer, self.pointer).start()
        skipped = end - self.pointer
        self.column += skipped - self.buffer.count("\uFEFF", self.pointer, end)
        self.index += skipped
        self.pointer = end

    # -- constructing numbers and booleans: located errors, sane sizes ------------------------------

    def construct_yaml_int(self, node: ScalarNode) -> int:
        text = self.construct_scalar(node)
        digits = text.replace("_", "").lstrip("+-")
        digits = digits[2:] if digits[:2] in ("0x", "0b") else digits
        if len(digits.lstrip("0")) > _MAX_INT_CHARS:
            raise _number_too_large(text, node.start_mark)
        try:
            value = super().construct_yaml_int(node)
        except (ValueError, IndexError):
            raise Refused(f"{_shown(text)} is not a whole number", node.start_mark) from None
        if abs(value) > MAX_NUMBER:
            raise _number_too_large(text, node.start_mark)
        return value

    def construct_yaml_float(self, node: ScalarNode) -> float:
        text = self.construct_scalar(node)
        try:
            value = super().construct_yaml_float(node)
        except (ValueError, IndexError, OverflowError):
            raise Refused(f"{_shown(text)} is not a number", node.start_mark) from None
        if not math.isfinite(value) and text.replace("_", "").lstrip("+-").lower() in (".inf", ".nan"):
            raise Refused(f"{_shown(text)} is not a number JSON can hold", node.start_mark,
                           hint="infinity and NaN are not allowed")
        if not abs(value) <= MAX_NUMBER:
            raise _number_too_large(text, node.start_mark)
        return value

    def construct_yaml_bool(self, node: ScalarNode) -> bool:
        text = self.construct_scalar(node)
        if not isinstance(text, str) or text.lower() not in self.bool_values:
            raise Refused(f"{_shown(text)} is not true or false", node.start_mark)
        return super().construct_yaml_bool(node)


Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
Loader.add_constructor("tag:yaml.org,2002:int", Loader.construct_yaml_int)
Loader.add_constructor("tag:yaml.org,2002:float", Loader.construct_yaml_float)
Loader.add_constructor("tag:yaml.org,2002:bool", Loader.construct_yaml_bool)


try:
    from yaml._yaml import CParser as _CParser  # libyaml's scanner and parser, when PyYAML has them
except ImportError:  # (a PyYAML built without libyaml)
    _CParser = None


def fast_loader(text: str) -> Loader | None:
    """A `Loader` for `text` whose scanning and parsing are libyaml's (C, several times faster)
    and whose composing and constructing are `Loader`'s own, limits and all (the nodes, values
    and marks are `Loader`'s: tests/test_yaml_fast.py compares them on every YAML file of the
    checkout); None when libyaml is missing or the text has what the two count or accept
    differently (a byte-order mark, a character YAML does not allow): the caller then uses
    `Loader`, and does so too when this one raises anything, so that every error is `Loader`'s."""
    if _CParser is None or "\uFEFF" in text or _NON_PRINTABLE.search(text):
        return None
    return _FastLoader(text)


_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE


if _CParser is not None:
    from yaml.composer import Composer
    from yaml.constructor import SafeConstructor
    from yaml.resolver import Resolver

    class _FastLoader(_CParser, Loader):  # type: ignore[misc, valid-type]
        """`Loader` with libyaml's events (see `fast_loader`)."""

        # composing is Loader's (PyYAML's composer, with this module's limits), not libyaml's
        get_single_node = Composer.get_single_node
        compose_document = Composer.compose_document
        compose_node = Loader.compose_node
        compose_sequence_node = Composer.compose_sequence_node
        compose_mapping_node = Composer.compose_mapping_node
        check_node = Composer.check_node
        get_node = Composer.get_node

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self._open = []
            self._expanded = {}
            self._aliases = False

        def compose_scalar_node(self, anchor: Any) -> ScalarNode:
            node = Composer.compose_scalar_node(self, anchor)
            if node.style == "":  # (libyaml's plain style; PyYAML's is None)
                node.style = None
            return node


def _nested_too_deeply(mark: Mark) -> Refused:
    return Refused(f"nested too deeply, at most {MAX_DEPTH} levels of lists and mappings", mark,
                    hint="a rule file, deck or scenario needs a handful of levels")


def _number_too_large(text: str, mark: Mark) -> Refused:
    return Refused(f"number too large: at most 10^{len(str(MAX_NUMBER)) - 1} in absolute value, got "
                    f"{_shown(text)}", mark)


def _shown(text: Any) -> str:
    """``text`` quoted, cut to a readable length."""
    text = str(text)
    return repr(text if len(text) <= 40 else text[:37] + "...")
