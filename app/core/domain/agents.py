"""Agents manifest `.ideai/agents.json` (contract §1, digest §6.2) and naming rules.

A rewrite keeps the key spelling it read (`agentId` vs `id`, `mdPath` vs `md`); new entries use
`agentId`/`mdPath`. `md_path` is relative to `.ideai/` (e.g. `agents/git.md`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.domain import jsonshape as js
from app.core.errors import INVALID, NOT_FOUND, AppError

MANIFEST_VERSION = 1
_ENTRY_KEYS = ("agentId", "id", "name", "mdPath", "md", "profileId", "origin", "synchronized",
               "skills", "syncedTemplateVersion")


def _empty() -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class AgentEntry:
    """One agent: identity, persona path (relative to `.ideai/`), profile and template sync.

    `origin` is kept as read (its shape is not fixed by the format); `skills` is `None` when the
    key was absent. `id_key`/`md_key` remember the spelling read from disk.
    """

    agent_id: str
    name: str
    md_path: str
    profile_id: str
    synchronized: bool = False
    origin: Any = None
    skills: tuple[str, ...] | None = None
    synced_template_version: int | None = None
    extra: Mapping[str, Any] = field(default_factory=_empty)
    id_key: str = "agentId"
    md_key: str = "mdPath"

    @staticmethod
    def from_json(value: Any, where: str = "agents[0]") -> AgentEntry:
        """Decode one entry; raises `AppError(INVALID)` on a wrong shape."""
        obj = js.as_object(value, where)
        id_key = "agentId" if "agentId" in obj else "id"
        md_key = "mdPath" if "mdPath" in obj else "md"
        skills = obj.get("skills")
        return AgentEntry(
            agent_id=js.req_str(obj, id_key, where),
            name=js.req_str(obj, "name", where),
            md_path=js.req_str(obj, md_key, where),
            profile_id=js.opt_str(obj, "profileId", where) or "",
            synchronized=js.opt_bool(obj, "synchronized", where),
            origin=obj.get("origin"),
            skills=None if skills is None else tuple(js.str_list(skills, f"{where}.skills")),
            synced_template_version=js.opt_int(obj, "syncedTemplateVersion", where),
            extra=js.extra_keys(obj, _ENTRY_KEYS),
            id_key=id_key,
            md_key=md_key,
        )

    def to_json(self) -> dict[str, Any]:
        """Encode with the spelling read; optional keys omitted when `None`."""
        out: dict[str, Any] = {self.id_key: self.agent_id, "name": self.name,
                               self.md_key: self.md_path, "profileId": self.profile_id}
        if self.origin is not None:
            out["origin"] = self.origin
        out["synchronized"] = self.synchronized
        if self.skills is not None:
            out["skills"] = list(self.skills)
        if self.synced_template_version is not None:
            out["syncedTemplateVersion"] = self.synced_template_version
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class AgentManifest:
    """The whole `agents.json`: `{"version", "agents": [...], ...unknown}`."""

    version: int = MANIFEST_VERSION
    agents: tuple[AgentEntry, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=_empty)

    @staticmethod
    def from_json(value: Any) -> AgentManifest:
        """Decode `agents.json`; raises `AppError(INVALID)` on a wrong shape."""
        obj = js.as_object(value, "agents.json")
        raw = js.as_list(obj.get("agents"), "agents")
        return AgentManifest(
            version=js.opt_int(obj, "version", "agents.json") or MANIFEST_VERSION,
            agents=tuple(AgentEntry.from_json(a, f"agents[{i}]") for i, a in enumerate(raw)),
            extra=js.extra_keys(obj, ("version", "agents")),
        )

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"version", "agents", ...unknown}`."""
        return {"version": self.version, "agents": [a.to_json() for a in self.agents],
                **self.extra}

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
        return replace(self, agents=agents)

    def without(self, agent_id: str) -> AgentManifest:
        """A copy without `agent_id`; raises `AppError(NOT_FOUND)` when absent."""
        self.get(agent_id)
        return replace(self, agents=tuple(a for a in self.agents if a.agent_id != agent_id))


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
