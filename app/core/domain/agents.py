"""Agents manifest `.ideai/agents.json` (contract §1, digest §6.2) and naming rules.

A rewrite keeps the key spelling it read (`agentId` vs `id`, `mdPath` vs `md`); new entries use
`agentId`/`mdPath`. `md_path` is relative to `.ideai/` (e.g. `agents/git.md`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any, Literal, Self

from pydantic import (
    AliasChoices,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    field_validator,
    model_serializer,
    model_validator,
)

from app.core.domain.documents import Document, is_none
from app.core.errors import INVALID, NOT_FOUND, AppError

MANIFEST_VERSION = 1
IdKey = Literal["agentId", "id"]
MdKey = Literal["mdPath", "md"]


class AgentEntry(Document):
    """One agent: identity, persona path (relative to `.ideai/`), profile and template sync.

    JSON: `{"agentId"|"id", "name", "mdPath"|"md", "profileId", "origin"?, "synchronized",
    "skills"?, "syncedTemplateVersion"?, ...unknown}`. `origin` is kept as read (its shape is
    not fixed by the format); `origin`, `skills` and `syncedTemplateVersion` are left out when
    `None` (`skills` is `None` when the key was absent). `id_key`/`md_key` remember the spelling
    read from disk; a new entry writes `agentId`/`mdPath`.
    """

    agent_id: str = Field(validation_alias=AliasChoices("agentId", "id"),
                          serialization_alias="agentId")
    name: str
    md_path: str = Field(validation_alias=AliasChoices("mdPath", "md"),
                         serialization_alias="mdPath")
    profile_id: str = ""
    origin: Any = Field(default=None, exclude_if=is_none)
    synchronized: StrictBool = False
    skills: tuple[str, ...] | None = Field(default=None, exclude_if=is_none)
    synced_template_version: StrictInt | None = Field(default=None, exclude_if=is_none)
    _id_key: IdKey = PrivateAttr(default="agentId")
    _md_key: MdKey = PrivateAttr(default="mdPath")

    @field_validator("profile_id", mode="before")
    @classmethod
    def _null_profile_is_empty(cls, value: Any) -> Any:
        return "" if value is None else value

    @model_validator(mode="wrap")
    @classmethod
    def _remember_spelling(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        entry = handler(data)
        if isinstance(data, dict):
            if "agentId" not in data and "id" in data:
                entry._id_key = "id"
            if "mdPath" not in data and "md" in data:
                entry._md_key = "md"
        return entry

    @model_serializer(mode="wrap")
    def _write_spelling(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        rename = {"agentId": self._id_key, "mdPath": self._md_key}
        return {rename.get(key, key): value for key, value in out.items()}

    @property
    def id_key(self) -> IdKey:
        """`"agentId"` or `"id"`: the key spelling this entry is written with."""
        return self._id_key

    @property
    def md_key(self) -> MdKey:
        """`"mdPath"` or `"md"`: the key spelling this entry is written with."""
        return self._md_key


class AgentManifest(Document):
    """The whole `agents.json`: `{"version", "agents": [AgentEntry], ...unknown}`."""

    version: StrictInt = MANIFEST_VERSION
    agents: tuple[AgentEntry, ...] = ()

    def get(self, agent_id: str) -> AgentEntry:
        """The entry with `agent_id`; raises `AppError(NOT_FOUND)`."""
        for agent in self.agents:
            if agent.agent_id == agent_id:
                return agent
        raise AppError(NOT_FOUND, f"no agent '{agent_id}'", {"agentId": agent_id})

    def with_agent(self, entry: AgentEntry) -> AgentManifest:
        """A copy where the entry with the same id is replaced, or `entry` appended."""
        if any(a.agent_id == entry.agent_id for a in self.agents):
            agents = tuple(entry if a.agent_id == entry.agent_id else a for a in self.agents)
        else:
            agents = (*self.agents, entry)
        return self.model_copy(update={"agents": agents})

    def without(self, agent_id: str) -> AgentManifest:
        """A copy without `agent_id`; raises `AppError(NOT_FOUND)` when absent."""
        self.get(agent_id)
        return self.model_copy(
            update={"agents": tuple(a for a in self.agents if a.agent_id != agent_id)})


def slugify(name: str) -> str:
    """Lowercase ASCII slug with `-` separators ("Dév Ops!" → "dev-ops"); "agent" if empty."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug or "agent"


def unique_md_path(name: str, existing_md_paths: Iterable[str]) -> str:
    """`agents/<slug>.md` not in `existing_md_paths` (case-insensitive); adds `-2`, `-3` …"""
    taken = {path.lower() for path in existing_md_paths}
    base = slugify(name)
    candidate, n = f"agents/{base}.md", 2
    while candidate.lower() in taken:
        candidate, n = f"agents/{base}-{n}.md", n + 1
    return candidate


def validate_agent_name(name: str, manifest: AgentManifest, exclude_id: str | None = None) -> str:
    """Return `name` stripped; raises `AppError(INVALID)` when empty or already used
    (case-insensitively) by another agent than `exclude_id`."""
    clean = name.strip()
    if not clean:
        raise AppError(INVALID, "agent name must not be empty", {"field": "name"})
    for agent in manifest.agents:
        if agent.agent_id != exclude_id and agent.name.strip().lower() == clean.lower():
            raise AppError(INVALID, f"an agent named '{agent.name}' already exists",
                           {"field": "name"})
    return clean


def validate_manifest(manifest: AgentManifest) -> None:
    """Rules a well-formed `agents.json` may still break: an agent id used twice (cells and
    tokens name agents by id). Raises `AppError(INVALID, "agents[i].agentId: …")`."""
    seen: dict[str, int] = {}
    for i, agent in enumerate(manifest.agents):
        if agent.agent_id in seen:
            raise AppError(INVALID, f"agents[{i}].{agent.id_key}: duplicate agent id "
                                    f"{agent.agent_id!r} (also agents[{seen[agent.agent_id]}])",
                           {"field": f"agents[{i}].{agent.id_key}"})
        seen[agent.agent_id] = i
