"""Agents as every door drives them (SPEC C5): CRUD, persona, launch in a cell."""

from __future__ import annotations

from app.core.usecases.agents import CreateAgent, DeleteAgent, ReadPersona, UpdateAgent
from app.core.usecases.launch_agent import LaunchAgent, LaunchResult
from app.core.usecases.profiles import LoadProfiles
from app.services.open_projects import OpenProjects
from app.services.session_keeper import SessionKeeper
from app.services.views import AgentView, agent_view


class AgentService:
    """Agent operations on open projects; profiles are read from `profiles.json` each time."""

    def __init__(self, projects: OpenProjects, keeper: SessionKeeper, profiles: LoadProfiles,
                 create: CreateAgent, update: UpdateAgent, delete: DeleteAgent,
                 persona: ReadPersona, launch: LaunchAgent) -> None:
        self._projects, self._keeper, self._profiles = projects, keeper, profiles
        self._create, self._update, self._delete = create, update, delete
        self._persona, self._launch = persona, launch

    def create(self, root: str, name: str, persona: str, profile_id: str) -> AgentView:
        """A new agent of project `root`. Errors of `CreateAgent`."""
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            entry = self._create.execute(state, name, persona, profile_id, profiles)
            return agent_view(state, entry)

    def update(self, root: str, agent_id: str, name: str | None = None,
               persona: str | None = None, profile_id: str | None = None) -> AgentView:
        """Change an agent (`None` = unchanged). Errors of `UpdateAgent`."""
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            entry = self._update.execute(state, agent_id, profiles, name=name, persona=persona,
                                         profile_id=profile_id)
            return agent_view(state, entry)

    def delete(self, root: str, agent_id: str) -> None:
        """Remove an agent (it must be stopped). Errors of `DeleteAgent`."""
        with self._projects.locked(root) as state:
            self._delete.execute(state, agent_id)

    def persona(self, root: str, agent_id: str) -> str:
        """The agent's persona Markdown. Errors of `ReadPersona`."""
        with self._projects.locked(root) as state:
            return self._persona.execute(state, agent_id)

    def launch(self, root: str, agent_id: str, node_id: str, cols: int,
               rows: int) -> LaunchResult:
        """Launch (or re-attach) the agent in cell `node_id`. Errors of `LaunchAgent`."""
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            before = set(state.sessions)
            result = self._launch.execute(state, agent_id, node_id, cols, rows, profiles)
            self._keeper.after_start(state, before)
            return result
