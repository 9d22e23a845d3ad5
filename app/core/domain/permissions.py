"""Project permissions `.ideai/permissions.json` (SPEC §3, digest §2.1), model only.

Kept apart from `agents.json`: it is the project's security, not the agents' identity. Paths
are project-relative globs (`"**"` = everything); commands are patterns for `executeBash`.
How rules combine (deny wins, nothing posed ⇒ no sandbox) is not decided here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field, StrictInt

from app.core.domain.documents import Document, is_none

PERMISSIONS_VERSION = 1
Capability = Literal["read", "write", "delete", "executeBash"]
Effect = Literal["allow", "ask", "deny"]


class PermissionRule(Document):
    """`{"capability", "effect", "paths": [glob], "commands": [pattern]}`."""

    capability: Capability
    effect: Effect
    paths: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()


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
