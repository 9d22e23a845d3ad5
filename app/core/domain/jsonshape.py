"""Small readers for JSON objects loaded from disk.

Every reader raises `AppError(INVALID, "<where>: <what>")` when the shape is wrong, so that a
loader can turn it into a `Problem` and leave the file untouched.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from app.core.errors import INVALID, AppError

JsonObject = dict[str, Any]


def parse_json(text: str, where: str) -> Any:
    """Parse `text`; a syntax error raises `AppError(INVALID)` carrying the parser message."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AppError(INVALID, f"{where}: invalid JSON: {exc}") from exc


def dump_json(value: Any) -> str:
    """Serialise `value` as indented UTF-8 JSON text ending with a newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def as_object(value: Any, where: str) -> JsonObject:
    """Return `value` if it is a JSON object, else raise `AppError(INVALID)`."""
    if not isinstance(value, dict):
        raise AppError(INVALID, f"{where}: expected an object")
    return value


def as_list(value: Any, where: str) -> list[Any]:
    """Return `value` if it is a JSON array, else raise `AppError(INVALID)`."""
    if not isinstance(value, list):
        raise AppError(INVALID, f"{where}: expected an array")
    return value


def req_str(obj: Mapping[str, Any], key: str, where: str) -> str:
    """Return the required string `obj[key]`; raise `AppError(INVALID)` otherwise."""
    value = obj.get(key)
    if not isinstance(value, str):
        raise AppError(INVALID, f"{where}: '{key}' must be a string")
    return value


def opt_str(obj: Mapping[str, Any], key: str, where: str) -> str | None:
    """Return `obj[key]` when it is a string, `None` when absent or null."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise AppError(INVALID, f"{where}: '{key}' must be a string")
    return value


def opt_bool(obj: Mapping[str, Any], key: str, where: str, default: bool = False) -> bool:
    """Return `obj[key]` when it is a bool, `default` when absent or null."""
    value = obj.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise AppError(INVALID, f"{where}: '{key}' must be a boolean")
    return value


def opt_int(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    """Return `obj[key]` when it is an integer, `None` when absent or null."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise AppError(INVALID, f"{where}: '{key}' must be an integer")
    return value


def req_number(obj: Mapping[str, Any], key: str, where: str) -> float:
    """Return the required number `obj[key]` as a float."""
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AppError(INVALID, f"{where}: '{key}' must be a number")
    return float(value)


def str_list(value: Any, where: str) -> list[str]:
    """Return `value` if it is an array of strings."""
    items = as_list(value, where)
    if not all(isinstance(item, str) for item in items):
        raise AppError(INVALID, f"{where}: expected an array of strings")
    return list(items)


def extra_keys(obj: Mapping[str, Any], known: Iterable[str]) -> dict[str, Any]:
    """Return the entries of `obj` whose key is not in `known` (kept for round trips)."""
    known_set = set(known)
    return {key: value for key, value in obj.items() if key not in known_set}
