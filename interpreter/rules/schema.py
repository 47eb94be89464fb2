"""JSON Schema validation of loaded YAML, with errors located at the offending key or value.

``validate(data, marks, "ruleset", file)`` checks ``data`` against
``rulesets/schema/ruleset.schema.json`` (draft 2020-12) and raises a `RulesError` (one problem) or
an `ErrorList` (several), each with ``file:line:col``, the dotted key path, a plain message, and a
did-you-mean for a misspelt key. ``schema_errors(...)`` returns the list instead of raising.
At most `MAX_ERRORS` errors are given for one document, then one saying how many more there are.

Schemas may carry an ``x-message`` next to any keyword: it replaces the generic text of errors
raised by that subschema (used for ``oneOf``/``anyOf``/``not`` whose stock messages are unreadable).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError as SchemaViolation
from jsonschema.exceptions import relevance

from .. import diskcache
from ..errors import CardrulesError, ErrorList, RulesError, Span, did_you_mean
from ..paths import schema_path
from .yamlload import Marks, format_path

__all__ = ["MAX_ERRORS", "load_schema", "schema_errors", "validate", "validator"]

# Errors shown for one document; the rest are only counted. A file with thousands of mistakes (a
# generated or hostile one) would otherwise print thousands of screens of them.
MAX_ERRORS = 50

_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


@functools.cache
def load_schema(schema_name: str) -> dict[str, Any]:
    """The parsed JSON Schema ``rulesets/schema/<schema_name>.schema.json``."""
    path = schema_path(schema_name)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # a broken installation, not a user error
        raise RulesError(f"cannot read schema {path}: {exc}") from None


@functools.cache
def validator(schema_name: str) -> Draft202012Validator:
    schema = load_schema(schema_name)
    if not diskcache.known("schema-checked", (_schema_text(schema_name),)):  # (checked once, not per process)
        Draft202012Validator.check_schema(schema)
        diskcache.remember("schema-checked", (_schema_text(schema_name),))
    return Draft202012Validator(schema)


@functools.cache
def _schema_text(schema_name: str) -> str:
    return repr(load_schema(schema_name))


def validate(
    data: Any,
    marks: Marks | None,
    schema_name: str,
    file: str | None = None,
    error: type[CardrulesError] = RulesError,
) -> None:
    """Raise ``error`` (or an ErrorList of them) if ``data`` breaks the schema; return None if valid."""
    errors = schema_errors(data, marks, schema_name, file, error)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ErrorList(errors)


def schema_errors(
    data: Any,
    marks: Marks | None,
    schema_name: str,
    file: str | None = None,
    error: type[CardrulesError] = RulesError,
) -> list[CardrulesError]:
    """Every schema problem of ``data`` as located errors, sorted by position in the file; past
    `MAX_ERRORS`, one error located at the first left out says how many more there are."""
    # data found valid before (the disk cache, keyed by the data and the schema) is valid: only
    # data with problems is checked again, so that they are located in its file
    known = diskcache.plain_repr(data)
    if known is not None and diskcache.known("schema-valid", (_schema_text(schema_name), known)):
        return []
    file = file or (marks.file if marks is not None else "<data>")
    found: list[tuple[tuple[int, int], str, CardrulesError]] = []
    seen: set[tuple[str, str]] = set()
    for violation in sorted(validator(schema_name).iter_errors(data), key=relevance):
        for located in _explain(violation, marks, file, error, schema_name):
            key = (str(located.span), located.message)
            if key in seen:
                continue
            seen.add(key)
            where = (located.span.line, located.span.column) if located.span else (0, 0)
            found.append((where, located.message, located))
    found.sort(key=lambda item: (item[0], item[1]))
    if not found and known is not None:
        diskcache.remember("schema-valid", (_schema_text(schema_name), known))
    return _capped([e for _, _, e in found], error)


def _capped(errors: list[CardrulesError], error: type[CardrulesError]) -> list[CardrulesError]:
    """The first `MAX_ERRORS` of ``errors``, then one saying how many more there are."""
    if len(errors) <= MAX_ERRORS:
        return errors
    rest = len(errors) - MAX_ERRORS
    more = error(f"and {rest:,} more error{'' if rest == 1 else 's'} from here on (at most {MAX_ERRORS} are "
                 "shown for one file)", errors[MAX_ERRORS].span)
    return errors[:MAX_ERRORS] + [more]


# -- turning one jsonschema error into readable located errors -------------------------------------


def _explain(
    v: SchemaViolation, marks: Marks | None, file: str, error: type[CardrulesError], schema_name: str
) -> list[CardrulesError]:
    path = tuple(v.absolute_path)
    schema = v.schema if isinstance(v.schema, dict) else {}
    custom = schema.get("x-message")
    kind = v.validator

    def at(p: Sequence[Hashable], message: str, *, key: bool = False, hint: str = "") -> CardrulesError:
        return error(f"{format_path(p)}: {message}", _locate(marks, file, p, key=key), hint=hint)

    if _about_a_key(v) and isinstance(v.instance, Hashable):
        # propertyNames: the instance is the key itself, the path that of its mapping
        detail = custom or _inner_message(v)
        return [at(path + (v.instance,), f"bad key {v.instance!r}: {detail}", key=True)]
    if kind in ("anyOf", "oneOf") and v.context:
        branch = _matching_branch(v)
        if branch is not None and (isinstance(v.instance, (dict, list)) or not custom):
            out: list[CardrulesError] = []
            for sub in sorted(branch, key=relevance):
                out.extend(_explain(sub, marks, file, error, schema_name))
            return out
        if custom:
            return [at(path, _with_got(custom, v.instance))]
        return [at(path, f"{_describe(v.instance)} does not fit here: {v.message}")]
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(v.instance, dict):
        allowed = sorted(_allowed_keys(schema))
        extras = _extra_keys(v.instance, schema) if kind == "additionalProperties" else _unevaluated(v)
        out = []
        for extra in extras:
            hint = f"known keys here: {', '.join(allowed)}" if allowed else ""
            out.append(at(path + (extra,), f"unknown key {extra!r}{did_you_mean(str(extra), allowed)}",
                          key=True, hint=hint))
        if out:
            return out
    if kind == "required" and isinstance(v.instance, dict):
        missing = [k for k in v.validator_value if k not in v.instance]
        return [at(path, f"missing required key {k!r}", key=True) for k in missing] or [at(path, v.message)]
    if custom:
        return [at(path, _with_got(custom, v.instance))]
    if kind == "type":
        wanted = _type_words(v.validator_value)
        hint = _misspelt_key_hint(load_schema(schema_name), path)
        return [at(path, f"expected {wanted}, got {_describe(v.instance)}", hint=hint)]
    if kind == "enum":
        values = [str(x) for x in v.validator_value]
        guess = did_you_mean(str(v.instance), values) if isinstance(v.instance, str) else ""
        return [at(path, f"{v.instance!r} is not one of: {', '.join(values)}{guess}")]
    if kind == "const":
        return [at(path, f"must be {v.validator_value!r}, got {v.instance!r}")]
    if kind in ("minimum", "exclusiveMinimum"):
        return [at(path, f"{v.instance!r} is below the minimum {v.validator_value!r}")]
    if kind in ("maximum", "exclusiveMaximum"):
        return [at(path, f"{v.instance!r} is above the maximum {v.validator_value!r}")]
    if kind == "minItems":
        n = v.validator_value
        return [at(path, "must not be empty" if n == 1 else f"needs at least {n} items, got {len(v.instance)}")]
    if kind == "maxItems":
        return [at(path, f"allows at most {v.validator_value} items, got {len(v.instance)}")]
    if kind == "minProperties":
        n = v.validator_value
        return [at(path, "must not be empty" if n == 1 else f"needs at least {n} entries")]
    if kind == "minLength":
        return [at(path, "must not be empty")]
    if kind == "uniqueItems":
        return [at(path, f"repeats an item: {_repeated(v.instance)!r}")]
    if kind == "pattern":
        return [at(path, f"{v.instance!r} does not match the pattern {v.validator_value}")]
    if kind in ("oneOf", "anyOf"):
        return [at(path, f"{_describe(v.instance)} does not fit here: {v.message}")]
    if kind is None:  # a `false` schema
        return [at(path, "not allowed here", key=True)]
    return [at(path, v.message)]


def _about_a_key(v: SchemaViolation) -> bool:
    """Whether the violation is about a mapping key (raised below a ``propertyNames``)."""
    return "propertyNames" in v.absolute_schema_path


def _inner_message(v: SchemaViolation) -> str:
    if v.validator == "pattern":
        return f"does not match the pattern {v.validator_value}"
    if v.validator == "type":
        return f"expected {_type_words(v.validator_value)}"
    return v.message


def _type_words(expected: Any) -> str:
    expected = expected if isinstance(expected, list) else [expected]
    return " or ".join(_TYPE_NAMES.get(t, str(t)) for t in expected)


def _with_got(message: str, instance: Any) -> str:
    if message.startswith(("expected", "must")) and not isinstance(instance, (dict, list)):
        return f"{message}, got {_describe(instance)}"
    return message


def _type_fails(v: SchemaViolation) -> bool:
    """Whether ``v`` says the instance itself has the wrong JSON type (so its branch does not apply)."""
    if v.relative_path:
        return False
    if v.validator == "type":
        return True
    if v.validator in ("anyOf", "oneOf") and v.context:
        branches = _branches(v)
        return all(any(_type_fails(e) for e in errs) for errs in branches.values())
    return False


def _branches(v: SchemaViolation) -> dict[Any, list[SchemaViolation]]:
    groups: dict[Any, list[SchemaViolation]] = {}
    for sub in v.context or []:
        index = sub.relative_schema_path[0] if sub.relative_schema_path else None
        groups.setdefault(index, []).append(sub)
    return groups


def _matching_branch(v: SchemaViolation) -> list[SchemaViolation] | None:
    """The errors of the only alternative whose type fits the instance, if exactly one does."""
    fitting = [errs for errs in _branches(v).values() if not any(_type_fails(e) for e in errs)]
    return fitting[0] if len(fitting) == 1 else None


def _locate(marks: Marks | None, file: str, path: Sequence[Hashable], *, key: bool) -> Span:
    if marks is None:
        return Span(file, 0, 0)
    return marks.span(path, key=key)


def _allowed_keys(schema: dict[str, Any]) -> set[str]:
    return {str(k) for k in schema.get("properties", {})}


def _extra_keys(instance: dict[Any, Any], schema: dict[str, Any]) -> list[Any]:
    props = schema.get("properties", {})
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    return [
        k for k in instance
        if k not in props and not any(p.search(str(k)) for p in patterns)
    ]


def _unevaluated(v: SchemaViolation) -> list[Any]:
    # jsonschema says "... ('a', 'b' were unexpected)"; recover the keys present in the instance.
    return [k for k in v.instance if repr(k) in v.message]


def _misspelt_key_hint(root: dict[str, Any], path: Sequence[Hashable]) -> str:
    """For a value of the wrong type under a free-form key that looks like a misspelt known key
    (e.g. ``descripton:`` in a deck, where unknown keys are card sections)."""
    if not path or not isinstance(path[-1], str):
        return ""
    known = sorted(k for k in _known_keys(root, path[:-1]) if k != path[-1])
    guess = did_you_mean(path[-1], known)
    return f"{path[-1]!r} is not a known key here{guess}" if guess else ""


def _known_keys(root: dict[str, Any], path: Sequence[Hashable]) -> set[str]:
    schemas = _subschemas(root, root)
    for part in path:
        nxt: list[dict[str, Any]] = []
        for schema in schemas:
            if isinstance(part, int) and isinstance(schema.get("items"), dict):
                nxt.extend(_subschemas(root, schema["items"]))
            elif part in schema.get("properties", {}) and isinstance(schema["properties"][part], dict):
                nxt.extend(_subschemas(root, schema["properties"][part]))
            elif isinstance(schema.get("additionalProperties"), dict):
                nxt.extend(_subschemas(root, schema["additionalProperties"]))
        schemas = nxt
    return {str(k) for schema in schemas for k in schema.get("properties", {})}


def _subschemas(root: dict[str, Any], schema: Any, depth: int = 0) -> list[dict[str, Any]]:
    """``schema`` and what it pulls in through local $ref, allOf, anyOf and oneOf."""
    if not isinstance(schema, dict) or depth > 8:
        return []
    out = [schema]
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for token in ref[2:].split("/"):
            target = target.get(token, {}) if isinstance(target, dict) else {}
        out.extend(_subschemas(root, target, depth + 1))
    for combinator in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(combinator, []):
            out.extend(_subschemas(root, sub, depth + 1))
    return out


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {shown!r}"
    if isinstance(value, int):
        return f"the number {value}"
    return repr(value)


def _repeated(items: Iterable[Any]) -> Any:
    seen: list[Any] = []
    for item in items:
        if item in seen:
            return item
        seen.append(item)
    return None
