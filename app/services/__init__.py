"""Application services: what every door (window, MCP server, `idea` command, file watcher)
shares — open projects with one lock each, session ownership and lifecycle, the domain-event
bus and the terminal-output bus. Threads and queues are allowed here; technologies are not
(no adapter is imported: the bootstrap hands in the ports)."""

from __future__ import annotations

from dataclasses import dataclass

from app.services.agents import AgentService
from app.services.conversations import ConversationService
from app.services.credentials import Credentials
from app.services.escalations import Escalations
from app.services.event_bus import EventBus
from app.services.headless import HeadlessTurns
from app.services.layouts import LayoutService
from app.services.open_projects import OpenProjects
from app.services.orchestrator import OrchestratorService
from app.services.permissions import PermissionService
from app.services.profile_swap import ProfileSwapService
from app.services.profiles import ProfileService
from app.services.projects import ProjectService
from app.services.resume import ResumeService
from app.services.session_keeper import SessionKeeper
from app.services.settings import SettingsService
from app.services.terminal_bus import TerminalOutputBus
from app.services.terminals import TerminalService


@dataclass(frozen=True)
class AppServices:
    """Everything a door drives, built once by `app.bootstrap.build`."""

    events: EventBus
    output: TerminalOutputBus
    open_projects: OpenProjects
    projects: ProjectService
    layouts: LayoutService
    terminals: TerminalService
    agents: AgentService
    profiles: ProfileService
    orchestrator: OrchestratorService
    credentials: Credentials
    conversations: ConversationService
    escalations: Escalations
    headless: HeadlessTurns
    # resume after a restart (issue 10 item 7)
    resume: ResumeService
    # hot swap of profiles (issue 10 item 6)
    swaps: ProfileSwapService
    permissions: PermissionService
    settings: SettingsService
    keeper: SessionKeeper
