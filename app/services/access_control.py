"""The access matrix enforced (seed 004, docs/contracts.md §8.3): every packet between two
parties is checked against both parties' `ipc` declarations, read from their personas' front
matter each time (a user's edit applies at once). A declaration IdeA cannot read refuses the
agent's packets (fail closed), naming the problem."""

from __future__ import annotations

from app.core.domain.access import HUMAN, IpcMatrix, check_access
from app.core.errors import FORBIDDEN, AppError
from app.core.usecases.agents import ReadPersona
from app.core.usecases.project_files import require_manifest
from app.services.open_projects import OpenProjects


class AccessControl:
    """`check(root, sender, receiver, signal, zone)` for agent ids (None = the user)."""

    def __init__(self, projects: OpenProjects, persona: ReadPersona) -> None:
        self._projects, self._persona = projects, persona

    def check(self, root: str, sender: str | None, receiver: str | None, signal: str,
              zone: str | None = None) -> None:
        """Raise `AppError(FORBIDDEN)` naming the rule the packet breaks."""
        (s_name, s_matrix), (r_name, r_matrix) = self._party(root, sender), self._party(
            root, receiver)
        check_access(s_name, s_matrix, r_name, r_matrix, signal, zone)

    def matrix(self, root: str, agent_id: str) -> IpcMatrix | None:
        """The agent's declaration (raises `AppError(INVALID)` naming the persona file when
        malformed)."""
        with self._projects.locked(root) as state:
            return self._persona.matrix(state, agent_id)

    def _party(self, root: str, agent_id: str | None) -> tuple[str, IpcMatrix | None]:
        if agent_id is None:
            return HUMAN, None
        with self._projects.locked(root) as state:
            name = require_manifest(state).get(agent_id).name
            try:
                return name, self._persona.matrix(state, agent_id)
            except AppError as exc:
                raise AppError(FORBIDDEN, f"{name}'s access matrix cannot be read: "
                                          f"{exc.message}", {"agent": name}) from exc
