"""Launch an agent in a cell (SPEC C5): one live session per agent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.domain.agents import AgentEntry
from app.core.domain.convention import compose_convention_file
from app.core.domain.launch_plan import agent_cwd, plan_injection
from app.core.domain.layout_nodes import find_leaf, leaves
from app.core.domain.profiles import Profile
from app.core.domain.sessions import SpawnSpec
from app.core.errors import (
    AGENT_ALREADY_RUNNING,
    COMMAND_NOT_FOUND,
    INVALID,
    NOT_FOUND,
    AppError,
)
from app.core.ports import CommandResolver, FileSystem, IdSource, PtyHost
from app.core.usecases.project_files import (
    persona_path,
    require_layouts,
    require_manifest,
    show_in_cell,
)
from app.core.usecases.project_state import CONTEXT_FILE, ProjectState


@dataclass(frozen=True)
class LaunchResult:
    """The agent's session id; `reattached` when an already live session is shown again."""

    session_id: str
    reattached: bool

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"sessionId", "reattached"}`."""
        return {"sessionId": self.session_id, "reattached": self.reattached}


class LaunchAgent:
    """Resolve agent + profile + context, write the run dir and spawn the CLI in a PTY."""

    def __init__(self, fs: FileSystem, pty: PtyHost, resolver: CommandResolver,
                 ids: IdSource) -> None:
        self._fs, self._pty, self._resolver, self._ids = fs, pty, resolver, ids

    def execute(self, project: ProjectState, agent_id: str, node_id: str, cols: int, rows: int,
                profiles: Sequence[Profile], shell: str = "") -> LaunchResult:
        """Launch (or re-attach) agent `agent_id` in leaf `node_id` of the active layout.

        A live session on the same cell, or one whose cell was closed, is re-attached. Otherwise
        `.ideai/run/<agent-id>/` gets the convention file and the CLI is spawned there (size
        `cols` x `rows`, env `IDEA_AGENT_ID`, `IDEA_PROJECT_ROOT`); `shell` replaces an empty
        profile command. Raises `AGENT_ALREADY_RUNNING` (details `{nodeId, sessionId}`),
        `COMMAND_NOT_FOUND` ("command not found: <cmd>"), `NOT_FOUND` (agent or cell),
        `INVALID` (unknown profile), `CORRUPT_FILE`, `NOT_WRITABLE`.
        """
        agent = require_manifest(project).get(agent_id)
        doc = require_layouts(project)
        if find_leaf(doc.active.root, node_id) is None:
            raise AppError(NOT_FOUND, f"no cell '{node_id}'", {"nodeId": node_id})
        live = project.live_agents.get(agent_id)
        if live is not None and not self._pty.is_alive(live[0]):
            del project.live_agents[agent_id]
            live = None
        if live is not None:
            return self._reattach(project, agent_id, node_id, *live)
        profile = next((p for p in profiles if p.id == agent.profile_id), None)
        if profile is None:
            raise AppError(INVALID, f"agent '{agent.name}' uses unknown profile "
                           f"'{agent.profile_id}'", {"profileId": agent.profile_id})
        command = profile.command or shell
        resolved = self._resolver.which(command) if command else None
        if resolved is None:
            raise AppError(COMMAND_NOT_FOUND, f"command not found: {command or '$SHELL'}",
                           {"command": command})
        spec = self._prepare(project, agent, profile, resolved, cols, rows)
        session_id = self._pty.spawn(spec)
        project.live_agents[agent_id] = (session_id, node_id)
        try:
            show_in_cell(self._fs, project, node_id, session_id, agent_id)
        except AppError:
            del project.live_agents[agent_id]
            self._pty.kill(session_id)
            raise
        return LaunchResult(session_id, reattached=False)

    def _reattach(self, project: ProjectState, agent_id: str, node_id: str, session_id: str,
                  live_node: str) -> LaunchResult:
        doc = require_layouts(project)
        shown_at = {leaf.id for lay in doc.layouts for leaf in leaves(lay.root)
                    if leaf.session == session_id}
        if live_node != node_id and live_node in shown_at:
            raise AppError(AGENT_ALREADY_RUNNING, "agent already running in another cell",
                           {"nodeId": live_node, "sessionId": session_id})
        if node_id not in shown_at:
            show_in_cell(self._fs, project, node_id, session_id, agent_id)
        project.live_agents[agent_id] = (session_id, node_id)
        return LaunchResult(session_id, reattached=True)

    def _prepare(self, project: ProjectState, agent: AgentEntry, profile: Profile,
                 command: str, cols: int, rows: int) -> SpawnSpec:
        fs = self._fs
        run_dir = project.path("run", agent.agent_id)
        fs.make_dirs(run_dir)
        skills = []
        for name in agent.skills or ():
            file = name if name.endswith(".md") else f"{name}.md"
            text = fs.read_text(project.path("skills", file.replace("/", "_")))
            if text is not None:
                skills.append((name.removesuffix(".md"), text))
        text = compose_convention_file(
            project_root=project.root,
            context_md=fs.read_text(project.path(CONTEXT_FILE)),
            persona_md=fs.read_text(persona_path(project, agent)),
            skills=skills,
            memory_index=fs.read_text(project.path("memory", "MEMORY.md")),
        )
        injection = plan_injection(profile, run_dir)
        fs.write_text_atomic(injection.file, text)
        env = {"IDEA_AGENT_ID": agent.agent_id, "IDEA_PROJECT_ROOT": project.root,
               **injection.env}
        return SpawnSpec(command=command, args=[*profile.args, *injection.args],
                         cwd=agent_cwd(profile, run_dir, project.root), env=env, cols=cols,
                         rows=rows, session_id=self._ids.new_id())
