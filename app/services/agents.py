"""Agents as every door drives them (SPEC C5): CRUD, persona, launch in a cell."""

from __future__ import annotations

from collections.abc import Mapping

from app.core.domain.access import IpcMatrix, matrix_of, validate_matrix, with_matrix
from app.core.domain.delegation import AgentCaller
from app.core.domain.layout_nodes import leaves
from app.core.domain.sessions import SessionRecord
from app.core.events import AgentsChanged
from app.core.ports import EventSink
from app.core.usecases.agents import (
    CreateAgent,
    DeleteAgent,
    ReadPersona,
    ReloadAgents,
    UpdateAgent,
    naming_file,
)
from app.core.usecases.launch_agent import LaunchAgent, LaunchResult
from app.core.usecases.profiles import LoadProfiles
from app.core.usecases.project_files import persona_path, require_layouts, require_manifest
from app.core.usecases.project_state import AGENTS_FILE
from app.services.credentials import Credentials
from app.services.file_problems import announce
from app.services.open_projects import OpenProjects
from app.services.session_keeper import SessionKeeper
from app.services.terminal_bus import TerminalOutputBus
from app.services.views import AgentView, agent_view

#: Terminal size of an agent launched by IdeA itself (cols, rows); its cell fits it when shown.
BACKGROUND_SIZE = (120, 32)


class AgentService:
    """Agent operations on open projects; profiles are read from `profiles.json` each time.
    Each new launch's token is granted to its session (`Credentials`)."""

    def __init__(self, projects: OpenProjects, keeper: SessionKeeper, profiles: LoadProfiles,
                 create: CreateAgent, update: UpdateAgent, delete: DeleteAgent,
                 persona: ReadPersona, launch: LaunchAgent, credentials: Credentials,
                 sizes: TerminalOutputBus | None = None, reload: ReloadAgents | None = None,
                 events: EventSink | None = None) -> None:
        self._projects, self._keeper, self._profiles = projects, keeper, profiles
        self._reload, self._events = reload, events
        self._sizes = sizes
        self._credentials = credentials
        self._create, self._update, self._delete = create, update, delete
        self._persona, self._launch = persona, launch

    def create(self, root: str, name: str, persona: str, profile_id: str) -> AgentView:
        """A new agent of project `root`. Errors of `CreateAgent`."""
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            entry = self._create.execute(state, name, persona, profile_id, profiles)
            return agent_view(state, entry)

    def update(self, root: str, agent_id: str, name: str | None = None,
               persona: str | None = None, profile_id: str | None = None,
               persona_base: str | None = None) -> AgentView:
        """Change an agent (`None` = unchanged; `persona_base`: the text the persona was edited
        from). Errors of `UpdateAgent`."""
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            entry = self._update.execute(state, agent_id, profiles, name=name, persona=persona,
                                         profile_id=profile_id, persona_base=persona_base)
            return agent_view(state, entry)

    def reload(self, root: str) -> None:
        """`agents.json` of open project `root` changed on disk (the file watcher): read it
        again; windows hear `AgentsChanged` when the agents changed, and `ProblemRaised` /
        `ProblemResolved` as the file (or a persona of the agents it now lists) becomes
        unreadable or readable again. No error when the project is not open."""
        if self._reload is None or self._events is None:
            return
        handle = self._projects.find(root)
        if handle is None:
            return
        with handle.lock:
            outcome = self._reload.execute(handle.state)
            personas = self._reload.personas(handle.state)
            root = handle.state.root
            file = handle.state.path(AGENTS_FILE)
        announce(self._events, root, file, outcome)
        for persona, persona_outcome in personas:
            announce(self._events, root, persona, persona_outcome)
        if outcome.changed:
            self._events.publish(AgentsChanged(root))

    def personas_changed(self, root: str) -> None:
        """A persona of open project `root` was written (by IdeA or outside it; the file
        watcher): windows hear `ProblemRaised` for a persona whose front matter IdeA cannot
        read any more, `ProblemResolved` when it can again. No error when the project is not
        open."""
        if self._reload is None or self._events is None:
            return
        handle = self._projects.find(root)
        if handle is None:
            return
        with handle.lock:
            personas = self._reload.personas(handle.state)
            root = handle.state.root
        for persona, outcome in personas:
            announce(self._events, root, persona, outcome)

    def delete(self, root: str, agent_id: str) -> None:
        """Remove an agent (it must be stopped). Errors of `DeleteAgent`."""
        with self._projects.locked(root) as state:
            self._delete.execute(state, agent_id)

    def persona(self, root: str, agent_id: str) -> str:
        """The agent's persona Markdown. Errors of `ReadPersona`."""
        with self._projects.locked(root) as state:
            return self._persona.execute(state, agent_id)

    def ipc(self, root: str, agent_id: str) -> IpcMatrix | None:
        """The agent's access matrix (its persona's `ipc` front matter), or None.
        Raises `AppError(INVALID)` naming the persona file and the key when it is malformed."""
        with self._projects.locked(root) as state:
            return self._persona.matrix(state, agent_id)

    def set_ipc(self, root: str, agent_id: str, matrix: IpcMatrix | None) -> IpcMatrix | None:
        """Write `matrix` (None: unrestricted) into the persona's front matter, the persona's
        text untouched. Raises `AppError(INVALID)` for an unknown signal or zone, and when the
        existing front matter is not YAML (naming the file; it is never overwritten)."""
        if matrix is not None:
            validate_matrix(matrix)
        with self._projects.locked(root) as state:
            text = self._persona.execute(state, agent_id)
            with naming_file(persona_path(state, require_manifest(state).get(agent_id))):
                updated = with_matrix(text, matrix)
            if updated != text:
                self._update.execute(state, agent_id, self._profiles.execute(), persona=updated)
            return matrix_of(updated)

    def launch(self, root: str, agent_id: str, node_id: str | None, cols: int,
               rows: int, resume_id: str | None = None) -> LaunchResult:
        """Launch (or re-attach) the agent in cell `node_id` (None: in the background),
        resuming the CLI's own conversation `resume_id` when given. Errors of `LaunchAgent`."""
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            before = set(state.sessions)
            result = self._launch.execute(state, agent_id, node_id, cols, rows, profiles,
                                          resume_id)
            if not result.reattached and self._sizes is not None:
                self._sizes.sized(result.session_id, cols, rows, from_start=True)
            self._keeper.after_start(state, before)
            if result.token is not None:
                entry = require_manifest(state).get(agent_id)
                self._credentials.grant(
                    AgentCaller(state.root, agent_id, entry.name, result.session_id),
                    result.token)
            return result

    def ensure_running(self, root: str, agent_id: str) -> tuple[LaunchResult, bool]:
        """The agent's live session, launching it when it has none: in the first free cell of
        the active layout (no session, or an ended one), else in the background. Returns
        `(result, started)`. Errors of `LaunchAgent`."""
        with self._projects.locked(root) as state:
            live = state.live_agent(agent_id)
            doc = require_layouts(state)
            if live is not None:
                return LaunchResult(live.session_id, True, doc), False
            free = next((leaf.id for leaf in leaves(doc.active.root)
                         if not _shows_live(state.sessions, leaf.session)), None)
        return self.launch(root, agent_id, free, *BACKGROUND_SIZE), True


def _shows_live(sessions: Mapping[str, SessionRecord], session_id: str | None) -> bool:
    record = sessions.get(session_id) if session_id is not None else None
    return record is not None and record.alive
