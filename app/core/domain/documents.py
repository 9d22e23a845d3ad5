"""The pydantic base of IdeA's JSON files, and their text form (SPEC §3).

Every file model derives from `Document`: camelCase keys on disk, snake_case attributes (either
spelling is accepted when building a model), frozen, and unknown keys kept in `extra` and
written back after the known ones. Optional keys are left out of the JSON through pydantic's
`Field(exclude_if=...)` with `is_none` / `is_empty`.

A file that does not parse or validate raises `AppError(CORRUPT_FILE)` naming the file and the
field path of the first error (`agents[2].mdPath: field required`); a decoded value given to
`Document.from_json` (e.g. from the window) raises `AppError(INVALID)` with the same path.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Self, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel
from pydantic_core import ErrorDetails

from app.core.domain.field_labels import Form, field_refusal
from app.core.errors import CORRUPT_FILE, INVALID, AppError

M = TypeVar("M", bound="Document")

# pydantic wording → the words of a JSON file (pydantic names Python types and classes).
_JSON_WORDING = {
    "model_type": "input should be an object",
    "model_attributes_type": "input should be an object",
    "dict_type": "input should be an object",
    "tuple_type": "input should be an array",
    "list_type": "input should be an array",
}


def is_none(value: Any) -> bool:
    """`exclude_if` predicate: leave the key out when the value is `None`."""
    return value is None


def is_empty(value: Any) -> bool:
    """`exclude_if` predicate: leave the key out when the value is `None`, `False`, `""` or an
    empty collection."""
    return not value


class Document(BaseModel):
    """Base of every on-disk model: camelCase aliases, unknown keys kept, frozen.

    Key order when written: the declared fields in order (those excluded when empty left out),
    then the unknown keys in the order they were read.
    """

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow",
                              frozen=True)

    @classmethod
    def from_json(cls, value: Any, where: str = "", form: Form | None = None) -> Self:
        """Validate a decoded JSON value (dicts, lists, str, numbers …).

        Raises `AppError(INVALID, "<where>.<field path>: <problem>", {"field": path})`, e.g.
        `agents[2].mdPath: field required`; `where` prefixes the path (`profiles[0]`). Given
        the window's `form` the value was typed in, a field it shows is named by its label
        instead (`Terminal font size: …`, details `{field, label}`: `field_labels`).
        """
        try:
            return cls.model_validate(value)
        except ValidationError as exc:
            path, problem = first_error(exc, value)
            if form is not None:
                raise field_refusal(form, path, problem, path=_join(where, path)) from exc
            path = _join(where, path)
            raise AppError(INVALID, f"{path}: {problem}" if path else problem,
                           {"field": path}) from exc

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to disk (camelCase keys, lists, floats as floats)."""
        return self.model_dump(mode="json", by_alias=True)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with the fields in `update` (snake_case names) replaced, not validated.

        Raises `TypeError` for a key that names no field: with unknown keys allowed, pydantic
        would silently add it to `extra` and write it to disk.
        """
        unknown = sorted(set(update or ()) - set(type(self).model_fields))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(unknown)}")
        return super().model_copy(update=update, deep=deep)

    @property
    def extra(self) -> Mapping[str, Any]:
        """Unknown keys read from disk (or given at construction), in their order."""
        return self.model_extra or {}


def parse_document(text: str, model: type[M], file: str) -> M:
    """Parse the text of `file` (a path, used in messages only) into a `model` instance.

    Raises `AppError(CORRUPT_FILE)` with details `{"file", "field"}`: for a JSON syntax error
    the message gives line and column (`field` is `None`, details add `line`, `column`); for a
    wrong shape it gives the field path and problem, e.g.
    `<file>: layouts[0].tree.root.node.id: field required` (`field` is `""` for the whole file).
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AppError(
            CORRUPT_FILE, f"{file}: invalid JSON at line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg}",
            {"file": file, "field": None, "line": exc.lineno, "column": exc.colno}) from exc
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        path, problem = first_error(exc, value)
        where = f"{path}: " if path else ""
        raise AppError(CORRUPT_FILE, f"{file}: {where}{problem}",
                       {"file": file, "field": path}) from exc


def dump_document(document: Document) -> str:
    """`document` as indented UTF-8 JSON text (2 spaces, non-ASCII kept) ending with a newline."""
    return json.dumps(document.to_json(), indent=2, ensure_ascii=False) + "\n"


def first_error(exc: ValidationError, value: Any) -> tuple[str, str]:
    """`(field path, problem)` of the first error of `exc` raised validating `value`.

    The problem is pydantic's message with a lower-case first letter (`field required`), in
    JSON words (`input should be an object`, not "a valid dictionary or instance of X"). A
    missing or unknown tag of a discriminated union is reported on the tag key itself
    (`root.type: input should be one of 'leaf', 'split', 'grid', not 'blob'`).
    """
    error = exc.errors()[0]
    path = field_path(error["loc"], value)
    ctx = error.get("ctx") or {}
    if error["type"] == "union_tag_not_found":  # the wrapper lacks its tag key
        return _join(path, str(ctx["discriminator"]).strip("'")), "field required"
    if error["type"] == "union_tag_invalid":
        return (_join(path, str(ctx["discriminator"]).strip("'")),
                f"input should be one of {ctx['expected_tags']}, not '{ctx['tag']}'")
    return path, _problem(error)


def field_path(loc: Sequence[int | str], value: Any) -> str:
    """The JSON path of a pydantic error location: `('agents', 2, 'mdPath')` → `agents[2].mdPath`.

    Segments pydantic adds that are not keys of the input (the tag of a discriminated union:
    `('root', 'split', 'node')`) are dropped by walking `value` along `loc`; the last segment is
    always kept (it may name a missing key).
    """
    path, current = "", value
    for index, segment in enumerate(loc):
        if isinstance(segment, int) and isinstance(current, list | tuple) \
                and 0 <= segment < len(current):
            current = current[segment]
        elif isinstance(segment, str) and isinstance(current, Mapping) and segment in current:
            current = current[segment]
        elif index < len(loc) - 1:
            continue
        path += f"[{segment}]" if isinstance(segment, int) else (f".{segment}" if path else segment)
    return path


def _problem(error: ErrorDetails) -> str:
    ctx = error.get("ctx") or {}
    kind = error["type"]
    if kind in _JSON_WORDING:
        return _JSON_WORDING[kind]
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    message = error["msg"]
    return message[:1].lower() + message[1:]


def _join(where: str, path: str) -> str:
    if not where or not path:
        return where or path
    return f"{where}{path}" if path.startswith("[") else f"{where}.{path}"
