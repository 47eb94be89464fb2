"""Rule files: safe YAML loading with positions, and JSON Schema validation with located errors."""

from typing import Any

from .yamlload import Marks, Origin, format_path, load_yaml, load_yaml_text

__all__ = ["Marks", "Origin", "format_path", "load_yaml", "load_yaml_text", "schema_errors", "validate"]


def __getattr__(name: str) -> Any:
    """The schema checks are imported on first use (jsonschema takes a tenth of a second to
    import: a `validate` replayed from the cache needs none of it)."""
    if name in ("schema_errors", "validate"):
        from . import schema

        return getattr(schema, name)
    raise AttributeError(f"module 'interpreter.rules' has no attribute {name!r}")
