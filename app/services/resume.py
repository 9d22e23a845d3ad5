"""The resume panel's service (issue 10 item 7): lists the agents of an open project that were
running when IdeA last stopped (`find_resumable`) and carries out the user's answer for each:
Resume (relaunch in its own cell with the CLI's own id), New conversation (relaunch fresh, the
handoff injected) or Ignore (the cell forgets it was running). This is the vendor-resume layer;
reopening windows and cells is the workspace's business.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.domain.layout import LayoutDoc
from app.core.events import LayoutChanged
from app.core.ports import EventSink, FileSystem
from app.core.usecases.profiles import LoadProfiles
from app.core.usecases.project_files import require_layouts
from app.core.usecases.resume import (
    ProviderIds,
    Resumable,
    check_choice,
    find_resumable,
    forget_was_running,
    resumable_in,
)
from app.services.agents import AgentService
from app.services.conversations import ConversationService
from app.services.open_projects import OpenProjects


@dataclass(frozen=True)
class ResumeOutcome:
    """What one answer did: the agent's row as the panel listed it, the `choice` carried out,
    the new `session_id` (None for Ignore), `resumed` (launched with the CLI's own id) and the
    layouts document after it."""

    agent: Resumable
    choice: str
    session_id: str | None
    resumed: bool
    layouts: LayoutDoc


class ResumeService:
    """Resume panel operations on open projects (profiles read from `profiles.json` each time)."""

    def __init__(self, projects: OpenProjects, agents: AgentService,
                 conversations: ConversationService, profiles: LoadProfiles, fs: FileSystem,
                 events: EventSink) -> None:
        self._projects, self._agents, self._conversations = projects, agents, conversations
        self._profiles, self._fs, self._events = profiles, fs, events

    def pending(self, root: str) -> list[Resumable]:
        """The agents to offer for project `root`. Raises `NOT_FOUND` (project not open),
        `CORRUPT_FILE`."""
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            return find_resumable(state, profiles, self._provider_id(root))

    def answer(self, root: str, node_id: str, choice: str, cols: int,
               rows: int) -> ResumeOutcome:
        """Carry out `choice` (`resume`, `new`, `ignore`) for the agent of cell `node_id`,
        launched at `cols` x `rows`. Raises `INVALID` (unknown choice), `NOT_FOUND` (nothing to
        resume in that cell), and the errors of `AgentService.launch`."""
        decided = check_choice(choice)
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            row = resumable_in(state, node_id, profiles, self._provider_id(root))
            if decided == "ignore":
                forget_was_running(self._fs, state, node_id)
                layouts = require_layouts(state)
                self._events.publish(LayoutChanged(root, layouts))
                return ResumeOutcome(row, decided, None, False, layouts)
        resume_id = row.resume_id if decided == "resume" and row.how == "resume" else None
        result = self._agents.launch(root, row.agent_id, node_id, cols, rows, resume_id)
        return ResumeOutcome(row, decided, result.session_id, resume_id is not None,
                             result.layouts)

    def _provider_id(self, root: str) -> ProviderIds:
        conversations = self._conversations

        def look_up(conversation: str, profile_id: str) -> str | None:
            return conversations.provider_id(root, conversation, profile_id)

        return look_up
