"""The js_api facade the window calls: ``window.pywebview.api.<feature>.<method>(...)``.

Each feature is a small object of thin methods that translate camelCase DTOs to use-case calls
(``docs/contracts.md`` §4). pywebview runs every call on a new thread, so calls that touch an
open project's state take the workspace lock; keystrokes and acks do not (they go straight to
the PTY host, which orders writes by sequence number). Only public attributes are exposed to JS,
so everything else is underscore-prefixed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from app import __version__
from app.bridge.errors import exposed
from app.bridge.workspace import UseCases, Workspace
from app.core.domain.profiles import Profile


class AppApi:
    """``app.*``: version, data dir, first-run flag and the projects given on the command line."""

    def __init__(self, ws: Workspace, uc: UseCases, on_ready: Callable[[], None],
                 first_run_disabled: bool, startup_projects: list[str]) -> None:
        self._ws, self._uc, self._on_ready = ws, uc, on_ready
        self._first_run_disabled = first_run_disabled
        self._startup = startup_projects

    @exposed
    def info(self) -> dict[str, Any]:
        """Called once by the UI after it installed ``window.__ideaPush``: starts the pushes."""
        self._on_ready()
        settings = self._uc.load_settings.execute(self._ws.data_dir)
        return {
            "version": __version__,
            "dataDir": self._ws.data_dir,
            "firstRun": not (settings.first_run_done or self._first_run_disabled),
            "platform": sys.platform,
            "problems": [p.to_json() for p in self._ws.app_problems],
            "startupProjects": list(self._startup),
        }


class ProfilesApi:
    """``profiles.*``: detection for the first-run wizard, list and save."""

    def __init__(self, ws: Workspace, uc: UseCases) -> None:
        self._ws, self._uc = ws, uc

    @exposed
    def detect(self) -> list[dict[str, Any]]:
        return [d.to_json() for d in self._uc.detect_profiles.execute()]

    @exposed
    def list(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self._ws.profiles()]

    @exposed
    def save(self, profiles: list[dict[str, Any]]) -> list[dict[str, Any]]:
        decoded = [Profile.from_json(p, f"profiles[{i}]") for i, p in enumerate(profiles)]
        self._uc.save_profiles.execute(self._ws.data_dir, decoded)
        self._uc.mark_first_run_done.execute(self._ws.data_dir)
        return [p.to_json() for p in decoded]


class ProjectsApi:
    """``projects.*``: create, open, close, recent list, folder picker."""

    def __init__(self, ws: Workspace, uc: UseCases,
                 pick_folder: Callable[[], str | None]) -> None:
        self._ws, self._uc, self._pick = ws, uc, pick_folder

    @exposed
    def recent(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self._uc.list_recent.execute(self._ws.data_dir)]

    @exposed
    def create(self, root: str, name: str | None = None) -> dict[str, Any]:
        with self._ws.lock:
            state = self._uc.create_project.execute(self._ws.data_dir, root, name or None)
            return self._ws.adopt(state)

    @exposed
    def open(self, root: str) -> dict[str, Any]:
        with self._ws.lock:
            known = self._ws.find(root)
            if known is not None:
                return self._ws.project_dto(known)
            create = self._ws.is_startup_project(root)
            state = self._uc.open_project.execute(self._ws.data_dir, root, create)
            return self._ws.adopt(state)

    @exposed
    def close(self, root: str) -> None:
        with self._ws.lock:
            self._ws.close(root)

    @exposed
    def pickFolder(self) -> str | None:
        return self._pick()


class LayoutApi:
    """``layout.edit(root, op)``: split/close/resize/assign/undo/redo on the active layout."""

    def __init__(self, ws: Workspace, uc: UseCases) -> None:
        self._ws, self._uc = ws, uc

    @exposed
    def edit(self, root: str, op: dict[str, Any]) -> dict[str, Any]:
        with self._ws.lock:
            state = self._ws.get(root)
            before = self._ws.shown_sessions(state)
            doc = self._uc.edit_layout.execute(state, op)
            self._ws.release_hidden_sessions(state, before)
            return doc.to_json()


class AgentsApi:
    """``agents.*``: CRUD, persona text and launch in a cell."""

    def __init__(self, ws: Workspace, uc: UseCases, shell: str) -> None:
        self._ws, self._uc, self._shell = ws, uc, shell

    @exposed
    def create(self, root: str, form: dict[str, Any]) -> dict[str, Any]:
        with self._ws.lock:
            state = self._ws.get(root)
            entry = self._uc.create_agent.execute(
                state, str(form.get("name", "")), str(form.get("persona", "")),
                str(form.get("profileId", "")), self._ws.profiles())
            return self._ws.agent_dto(state, entry)

    @exposed
    def update(self, root: str, agent_id: str, form: dict[str, Any]) -> dict[str, Any]:
        with self._ws.lock:
            state = self._ws.get(root)
            entry = self._uc.update_agent.execute(
                state, agent_id, self._ws.profiles(), name=form.get("name"),
                persona=form.get("persona"), profile_id=form.get("profileId"))
            return self._ws.agent_dto(state, entry)

    @exposed
    def delete(self, root: str, agent_id: str) -> None:
        with self._ws.lock:
            self._uc.delete_agent.execute(self._ws.get(root), agent_id)

    @exposed
    def persona(self, root: str, agent_id: str) -> str:
        with self._ws.lock:
            return self._uc.read_persona.execute(self._ws.get(root), agent_id)

    @exposed
    def launch(self, root: str, agent_id: str, node_id: str, cols: int,
               rows: int) -> dict[str, Any]:
        with self._ws.lock:
            state = self._ws.get(root)
            result = self._uc.launch_agent.execute(state, agent_id, node_id, int(cols),
                                                   int(rows), self._ws.profiles(), self._shell)
            self._ws.track_session(result.session_id, state.root)
            return result.to_json()


class TerminalsApi:
    """``terminals.*``: open a shell, attach/detach a view, keystrokes, resize, acks, kill."""

    def __init__(self, ws: Workspace, uc: UseCases, shell: str) -> None:
        self._ws, self._uc, self._shell = ws, uc, shell

    @exposed
    def openShell(self, root: str, node_id: str, cols: int, rows: int) -> dict[str, Any]:
        with self._ws.lock:
            state = self._ws.get(root)
            session = self._uc.open_shell.execute(state, node_id, int(cols), int(rows),
                                                  self._shell)
            self._ws.track_session(session, state.root)
            return {"sessionId": session}

    @exposed
    def attach(self, session_id: str) -> dict[str, Any]:
        return self._ws.attach(session_id)

    @exposed
    def detach(self, session_id: str) -> None:
        self._ws.detach(session_id)

    @exposed
    def write(self, session_id: str, seq: int, data: str) -> None:
        self._ws.pty.write(session_id, int(seq), data)

    @exposed
    def resize(self, session_id: str, cols: int, rows: int) -> None:
        self._ws.pty.resize(session_id, int(cols), int(rows))

    @exposed
    def ack(self, session_id: str, chars: int) -> None:
        self._ws.pty.ack(session_id, int(chars))

    @exposed
    def kill(self, session_id: str) -> None:
        self._ws.pty.kill(session_id)


class BridgeApi:
    """The object given to ``webview.create_window(js_api=...)``; one attribute per feature."""

    def __init__(self, ws: Workspace, uc: UseCases, *, on_ready: Callable[[], None],
                 pick_folder: Callable[[], str | None], shell: str,
                 first_run_disabled: bool, startup_projects: list[str]) -> None:
        self.app = AppApi(ws, uc, on_ready, first_run_disabled, startup_projects)
        self.profiles = ProfilesApi(ws, uc)
        self.projects = ProjectsApi(ws, uc, pick_folder)
        self.layout = LayoutApi(ws, uc)
        self.agents = AgentsApi(ws, uc, shell)
        self.terminals = TerminalsApi(ws, uc, shell)
