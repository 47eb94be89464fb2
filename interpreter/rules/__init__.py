"""Rule files: safe YAML loading with positions, and JSON Schema validation with located errors."""

from .schema import schema_errors, validate
from .yamlload import Marks, Origin, format_path, load_yaml, load_yaml_text

__all__ = ["Marks", "Origin", "format_path", "load_yaml", "load_yaml_text", "schema_errors", "validate"]
