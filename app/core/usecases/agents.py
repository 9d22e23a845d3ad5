"""Agents CRUD and persona files (SPEC C5). Personas live in `.ideai/agents/<slug>.md`."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from app.core.domain.access import IpcMatrix, matrix_of
from app.core.domain.agents import AgentEntry, unique_md_path, validate_agent_name
from app.core.domain.profiles import Profile
from app.core.errors import AGENT_ALREADY_RUNNING, CHANGED_ON_DISK, INVALID, AppError
from app.core.ports import FileSystem, IdSource
from app.core.usecases.project_files import (
    FileReload,
    persona_path,
    reload_agents,
    reload_personas,
    require_manifest,
    save_manifest,
)
from app.core.usecases.project_state import ProjectState


def _check_profile(profile_id: str, profiles: Sequence[Profile]) -> None:
    if not any(p.id == profile_id for p in profiles):
        raise AppError(INVALID, f"unknown profile '{profile_id}'", {"field": "profileId"})


class CreateAgent:
    """Create an agent: persona file + manifest entry."""

    def __init__(self, fs: FileSystem, ids: IdSource) -> None:
        self._fs, self._ids = fs, ids

    def execute(self, project: ProjectState, name: str, persona: str, profile_id: str,
                profiles: Sequence[Profile]) -> AgentEntry:
        """Write `agents/<slug>.md` (`<slug>-2.md`… when another agent's or a file left on
        disk has that name) then `agents.json`; return the new entry.

        Raises `INVALID` (empty/duplicate name, unknown profile), `CORRUPT_FILE`
        (`agents.json` unreadable), `NOT_WRITABLE`.
        """
        manifest = require_manifest(project)
        clean = validate_agent_name(name, manifest)
        _check_profile(profile_id, profiles)
        # A persona on disk no agent names (one a deleted agent left, kept on purpose) is taken
        # too: the new agent's persona must never overwrite it.
        kept = [f"agents/{name}" for name in self._fs.list_dir(project.path("agents"))]
        md_path = unique_md_path(clean, [*(a.md_path for a in manifest.agents), *kept])
        entry = AgentEntry(agent_id=self._ids.new_id(), name=clean, md_path=md_path,
                           profile_id=profile_id, skills=())
        persona_file = persona_path(project, entry)
        self._fs.make_dirs(posixpath.dirname(persona_file))
        self._fs.write_text_atomic(persona_file, persona)
        save_manifest(self._fs, project, manifest.with_agent(entry))
        return entry


class UpdateAgent:
    """Rename an agent, change its profile and/or rewrite its persona."""

    def __init__(self, fs: FileSystem) -> None:
        self._fs = fs

    def execute(self, project: ProjectState, agent_id: str, profiles: Sequence[Profile],
                name: str | None = None, persona: str | None = None,
                profile_id: str | None = None, persona_base: str | None = None) -> AgentEntry:
        """Apply the given changes (`None` = unchanged); the persona file keeps its path.
        `persona_base`: the persona text the new one was edited from; when the file no longer
        holds it (edited on disk meanwhile), nothing is written.

        Raises `NOT_FOUND`, `INVALID`, `CORRUPT_FILE`, `NOT_WRITABLE`, `CHANGED_ON_DISK`
        (details `{field: "persona", onDisk: <the file's text>}`).
        """
        manifest = require_manifest(project)
        entry = manifest.get(agent_id)
        if name is not None:
            entry = entry.model_copy(
                update={"name": validate_agent_name(name, manifest, exclude_id=agent_id)})
        if profile_id is not None:
            _check_profile(profile_id, profiles)
            entry = entry.model_copy(update={"profile_id": profile_id})
        if persona is not None:
            persona_file = persona_path(project, entry)
            on_disk = None if persona_base is None else self._fs.read_text(persona_file) or ""
            if on_disk is not None and on_disk != persona_base:
                raise AppError(CHANGED_ON_DISK,
                               f"{entry.md_path} changed on disk since it was opened: saving "
                               "would lose that edit", {"field": "persona", "onDisk": on_disk})
            self._fs.make_dirs(posixpath.dirname(persona_file))
            self._fs.write_text_atomic(persona_file, persona)
        save_manifest(self._fs, project, manifest.with_agent(entry))
        return entry


class DeleteAgent:
    """Remove an agent from the manifest and its run dir; the persona `.md` is kept."""

    def __init__(self, fs: FileSystem) -> None:
        self._fs = fs

    def execute(self, project: ProjectState, agent_id: str) -> None:
        """Raises `NOT_FOUND`, `AGENT_ALREADY_RUNNING` (stop it first, details `{sessionId,
        agentId}`), `CORRUPT_FILE`, `NOT_WRITABLE`."""
        manifest = require_manifest(project)
        updated = manifest.without(agent_id)
        live = project.live_agent(agent_id)
        if live is not None:
            raise AppError(AGENT_ALREADY_RUNNING, "stop the agent before deleting it",
                           {"sessionId": live.session_id, "agentId": agent_id})
        save_manifest(self._fs, project, updated)
        self._fs.remove_tree(project.path("run", agent_id))


class ReadPersona:
    """The persona Markdown of an agent."""

    def __init__(self, fs: FileSystem) -> None:
        self._fs = fs

    def execute(self, project: ProjectState, agent_id: str) -> str:
        """Text of the agent's `.md` (`""` when the file is missing); raises NOT_FOUND,
        CORRUPT_FILE."""
        entry = require_manifest(project).get(agent_id)
        return self._fs.read_text(persona_path(project, entry)) or ""

    def matrix(self, project: ProjectState, agent_id: str) -> IpcMatrix | None:
        """The agent's access matrix (its persona's `ipc` front matter), or None; raises
        NOT_FOUND, CORRUPT_FILE, and INVALID naming the persona file and what is wrong in it
        (`<path>: ipc.sends_to: expected a list of names`)."""
        path = persona_path(project, require_manifest(project).get(agent_id))
        with naming_file(path):
            return matrix_of(self._fs.read_text(path) or "")


@contextmanager
def naming_file(path: str) -> Iterator[None]:
    """An `AppError(INVALID)` about the text of file `path` raised inside names the file first
    (`<path>: <message>`, as the messages about the project's JSON files do); its details are
    kept."""
    try:
        yield
    except AppError as exc:
        if exc.code != INVALID or exc.message.startswith(f"{path}: "):
            raise
        raise AppError(INVALID, f"{path}: {exc.message}", exc.details) from exc


class ReloadAgents:
    """Read `agents.json` again after an edit outside IdeA (`reload_agents`)."""

    def __init__(self, fs: FileSystem) -> None:
        self._fs = fs

    def execute(self, project: ProjectState) -> FileReload:
        """What changed in `project` (updated in place); writes nothing, raises nothing: an
        unreadable file becomes its problem."""
        return reload_agents(self._fs, project)

    def personas(self, project: ProjectState) -> list[tuple[str, FileReload]]:
        """Read the agents' personas again (`reload_personas`): `(persona file, what changed)`
        for each whose problems changed; writes nothing, raises nothing."""
        return reload_personas(self._fs, project)
