"""What the window's bridge keeps between calls: open projects and who owns which PTY session.

The rules (what a project is, how a layout changes, how an agent launches) live in ``app/core``;
this module only holds the in-memory ``ProjectState`` of each open project, maps PTY sessions to
projects, and turns states into the DTOs of ``docs/contracts.md`` §4.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from app.adapters.pty.base import TerminalHost
from app.bridge.push import PushPump
from app.core.domain.agents import AgentEntry
from app.core.domain.layout_nodes import leaves
from app.core.domain.profiles import Profile
from app.core.errors import NOT_FOUND, AppError
from app.core.usecases.agents import CreateAgent, DeleteAgent, ReadPersona, UpdateAgent
from app.core.usecases.edit_layout import EditLayout
from app.core.usecases.launch_agent import LaunchAgent
from app.core.usecases.open_shell import OpenShell
from app.core.usecases.profiles import DetectProfiles, LoadProfiles, SaveProfiles
from app.core.usecases.project_state import Problem, ProjectState, clean_root, mark_exited
from app.core.usecases.projects import CreateProject, OpenProject
from app.core.usecases.recent_projects import ListRecentProjects
from app.core.usecases.settings import LoadSettings, MarkFirstRunDone


@dataclass(frozen=True)
class UseCases:
    """Every use case the bridge drives, built once by the composition root."""

    detect_profiles: DetectProfiles
    load_profiles: LoadProfiles
    save_profiles: SaveProfiles
    load_settings: LoadSettings
    mark_first_run_done: MarkFirstRunDone
    create_project: CreateProject
    open_project: OpenProject
    list_recent: ListRecentProjects
    edit_layout: EditLayout
    create_agent: CreateAgent
    update_agent: UpdateAgent
    delete_agent: DeleteAgent
    read_persona: ReadPersona
    open_shell: OpenShell
    launch_agent: LaunchAgent


class Workspace:
    """Open projects of this process (keyed by cleaned root) and PTY session ownership."""

    def __init__(self, data_dir: str, uc: UseCases, pty: TerminalHost, pump: PushPump,
                 startup_projects: list[str]) -> None:
        self.data_dir = data_dir
        self.pty = pty
        self.lock = threading.RLock()
        self.app_problems: list[Problem] = []
        self._uc, self._pump = uc, pump
        self._projects: dict[str, ProjectState] = {}
        self._session_root: dict[str, str] = {}
        self._startup = {clean_root(p) for p in startup_projects}

    # -- projects -------------------------------------------------------------------------
    def is_startup_project(self, root: str) -> bool:
        return clean_root(root) in self._startup

    def find(self, root: str) -> ProjectState | None:
        return self._projects.get(clean_root(root))

    def get(self, root: str) -> ProjectState:
        """The open project at ``root``; raises ``AppError(NOT_FOUND)`` when not open."""
        state = self.find(root)
        if state is None:
            raise AppError(NOT_FOUND, f"project not open: {root}", {"root": root})
        return state

    def adopt(self, state: ProjectState) -> dict[str, Any]:
        self._projects[state.root] = state
        return self.project_dto(state)

    def close(self, root: str) -> None:
        """Forget the project's tab; its agent sessions keep running, plain shells end."""
        state = self._projects.pop(clean_root(root), None)
        if state is None:
            return
        agent_sessions = {s for s, _ in state.live_agents.values()}
        for session, owner in list(self._session_root.items()):
            if owner == state.root and session not in agent_sessions:
                self.pty.kill(session)

    def profiles(self) -> list[Profile]:
        return self._uc.load_profiles.execute(self.data_dir)

    # -- sessions -------------------------------------------------------------------------
    def track_session(self, session_id: str, root: str) -> None:
        self._session_root[session_id] = root

    def attach(self, session_id: str) -> dict[str, Any]:
        """A view shows ``session_id``: flow control on, scrollback for the repaint."""
        if session_id not in self.pty.session_ids():  # e.g. a session from before a restart
            return {"scrollback": "", "end": 0, "alive": False, "exitCode": None}
        self.pty.set_flow_control(session_id, True)
        scrollback, end = self.pty.snapshot(session_id)
        return {"scrollback": scrollback, "end": end, "alive": self.pty.is_alive(session_id),
                "exitCode": self.pty.exit_code(session_id)}

    def detach(self, session_id: str) -> None:
        """No view shows ``session_id`` any more: keep reading so a background agent never stalls."""
        if session_id in self.pty.session_ids():
            self.pty.set_flow_control(session_id, False)

    def shown_sessions(self, state: ProjectState) -> set[str]:
        if state.layouts is None:
            return set()
        return {leaf.session for leaf in leaves(state.layouts.active.root) if leaf.session}

    def release_hidden_sessions(self, state: ProjectState, before: set[str]) -> None:
        """After a layout edit: a plain shell whose cell was closed ends; an agent detaches."""
        gone = before - self.shown_sessions(state)
        agent_sessions = {s for s, _ in state.live_agents.values()}
        for session in gone:
            if session in agent_sessions:
                self.detach(session)
            elif session in self.pty.session_ids():
                self.pty.kill(session)

    def on_exit(self, session_id: str, exit_code: int) -> None:
        """PTY host callback (reader thread): free the agent, tell the UI."""
        with self.lock:
            root = self._session_root.get(session_id)
            state = self._projects.get(root) if root else None
            if state is not None:
                mark_exited(state, session_id)
        self._pump.add_event({"type": "sessionExited", "sessionId": session_id,
                              "exitCode": exit_code})

    # -- DTOs -----------------------------------------------------------------------------
    def project_dto(self, state: ProjectState) -> dict[str, Any]:
        agents = state.manifest.agents if state.manifest is not None else ()
        live: dict[str, dict[str, Any]] = {}
        for session, owner in self._session_root.items():
            if owner == state.root:
                live[session] = {"agentId": state.agent_of_session(session),
                                 "alive": self.pty.is_alive(session)}
        return {
            "root": state.root,
            "name": state.name,
            "agents": [self.agent_dto(state, a) for a in agents],
            "layouts": state.layouts.to_json() if state.layouts is not None else None,
            "problems": [p.to_json() for p in state.problems],
            "liveSessions": live,
        }

    def agent_dto(self, state: ProjectState, entry: AgentEntry) -> dict[str, Any]:
        live = state.live_agents.get(entry.agent_id)
        running = live is not None and self.pty.is_alive(live[0])
        out: dict[str, Any] = {
            "agentId": entry.agent_id, "name": entry.name, "mdPath": entry.md_path,
            "profileId": entry.profile_id, "synchronized": entry.synchronized,
            "skills": list(entry.skills or ()), "running": running,
        }
        if running and live is not None:
            out["sessionId"] = live[0]
            out["nodeId"] = live[1]
        return out
