"""Project permissions `.ideai/permissions.json` (SPEC §3, C10, digest §2.1): the model and the
shape of its values.

Kept apart from `agents.json`: it is the project's security, not the agents' identity. How the
rules decide is `permission_rules.py`; this module only says what a valid rule is:

- `capability` is one of `read`, `write`, `delete` (file capabilities, `paths`) or
  `executeBash` (`commands`); a rule carries only the list of its kind.
- `paths` are globs relative to the project root with `.gitignore` semantics (`pathspec`'s
  `gitignore` patterns, the convention Claude Code also uses for its `Read`/`Edit` rules): `**`
  is everything, `secrets/**` a folder, `*.env` a name at any depth, a leading `/` anchors at
  the project root. Negation (`!`), `..` and backslash escapes at the end are refused.
- `commands` are shell wildcard patterns over a whole command (`git push*`, `npm run *`).
- An empty list means the whole capability (every path, in and outside the project; every
  command).

A value that breaks these rules fails validation naming its field
(`projectDefaults.rules[1].paths[0]: …`): `INVALID` from the window, `CORRUPT_FILE` from disk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pathspec import PathSpec
from pathspec.pattern import Pattern
from pathspec.patterns.gitignore import GitIgnorePatternError
from pydantic import AfterValidator, Field, StrictInt, ValidationInfo, field_validator

from app.core.domain.documents import Document, is_none

PERMISSIONS_VERSION = 1
Capability = Literal["read", "write", "delete", "executeBash"]
Effect = Literal["allow", "ask", "deny"]
CAPABILITIES: tuple[Capability, ...] = ("read", "write", "delete", "executeBash")
FILE_CAPABILITIES: tuple[Capability, ...] = ("read", "write", "delete")


def compile_globs(patterns: tuple[str, ...]) -> PathSpec[Pattern]:
    """The `pathspec` matcher of project-relative `.gitignore` patterns (already validated)."""
    return PathSpec.from_lines("gitignore", patterns)


def check_glob(pattern: str) -> str:
    """`pattern` unchanged when it is a valid project-relative glob; raises `ValueError` naming
    the problem otherwise (pydantic turns it into the field's message)."""
    if not pattern.strip():
        raise ValueError("a path pattern cannot be empty")
    if "\x00" in pattern:
        raise ValueError(f"{pattern!r}: a path pattern cannot contain NUL")
    if pattern.startswith("!"):
        raise ValueError(f"{pattern!r}: negation is not supported (write a rule with another "
                         "effect instead)")
    if ".." in pattern.split("/"):
        raise ValueError(f"{pattern!r}: '..' is not allowed (patterns are relative to the "
                         "project root)")
    if pattern.startswith("~"):
        raise ValueError(f"{pattern!r}: patterns are relative to the project root, not to the "
                         "home folder")
    try:
        compile_globs((pattern,))
    except GitIgnorePatternError as exc:
        raise ValueError(f"{pattern!r}: invalid glob ({exc})") from exc
    return pattern


def check_command(pattern: str) -> str:
    """`pattern` unchanged when it is a usable command pattern; raises `ValueError`."""
    if not pattern.strip():
        raise ValueError("a command pattern cannot be empty")
    return pattern


Glob = Annotated[str, AfterValidator(check_glob)]
CommandPattern = Annotated[str, AfterValidator(check_command)]


class PermissionRule(Document):
    """`{"capability", "effect", "paths": [glob], "commands": [pattern]}`."""

    capability: Capability
    effect: Effect
    paths: tuple[Glob, ...] = ()
    commands: tuple[CommandPattern, ...] = ()

    @field_validator("paths")
    @classmethod
    def _paths_for_files(cls, paths: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        if paths and info.data.get("capability") == "executeBash":
            raise ValueError("executeBash rules take commands, not paths")
        return paths

    @field_validator("commands")
    @classmethod
    def _commands_for_bash(cls, commands: tuple[str, ...],
                           info: ValidationInfo) -> tuple[str, ...]:
        capability = info.data.get("capability")
        if commands and capability is not None and capability != "executeBash":
            raise ValueError(f"only executeBash rules take commands ({capability} rules take "
                             "paths)")
        return commands


class PermissionPolicy(Document):
    """Rules plus the posture when none applies: `{"rules": [PermissionRule], "fallback"}`."""

    rules: tuple[PermissionRule, ...] = ()
    fallback: Effect


class PermissionsDoc(Document):
    """The whole file: `{"version", "projectDefaults": PermissionPolicy,
    "agents"?: {<agentId>: PermissionPolicy}, ...unknown}`; `agents` is left out when `None`."""

    version: StrictInt = PERMISSIONS_VERSION
    project_defaults: PermissionPolicy
    agents: Mapping[str, PermissionPolicy] | None = Field(default=None, exclude_if=is_none)
