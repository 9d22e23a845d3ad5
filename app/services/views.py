"""Read models the doors render: a project as the services know it (state plus its sessions).

Plain values, built under the project's lock, safe to hand to another thread."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.domain.agents import AgentEntry
from app.core.domain.layout import LayoutDoc
from app.core.domain.sessions import SessionRecord
from app.core.usecases.project_state import Problem, ProjectState


@dataclass(frozen=True)
class AgentView:
    """An agent of the manifest and its live session, if any."""

    entry: AgentEntry
    session: SessionRecord | None


@dataclass(frozen=True)
class ProjectView:
    """An open project: identity, agents, layouts (None when corrupt), problems, sessions."""

    root: str
    name: str
    agents: tuple[AgentView, ...]
    layouts: LayoutDoc | None
    problems: tuple[Problem, ...]
    sessions: tuple[SessionRecord, ...]


def agent_view(state: ProjectState, entry: AgentEntry) -> AgentView:
    """`entry` with its live session in `state`."""
    return AgentView(entry, state.live_agent(entry.agent_id))


def project_view(state: ProjectState) -> ProjectView:
    """A snapshot of `state` (call it under the project's lock)."""
    agents = state.manifest.agents if state.manifest is not None else ()
    return ProjectView(
        root=state.root, name=state.name,
        agents=tuple(agent_view(state, a) for a in agents),
        layouts=state.layouts, problems=tuple(state.problems),
        sessions=tuple(state.sessions.values()),
    )
