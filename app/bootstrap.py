"""The one bootstrap: builds the whole object graph from a config (data dir, shell, adapters).

The window (`app.main`), the integration tests and the benchmarks all call `build`; nothing
else instantiates use cases or services. Adapters default to the local ones (disk, real PTYs,
PATH, clock, uuid4) and can be replaced (a PTY host with a short kill grace in tests).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from app.adapters.endpoint.host_base import EndpointHostBase
from app.adapters.pty import default_host_class
from app.adapters.sandbox import default_enforcer
from app.adapters.sandbox.needs import HostCliNeeds
from app.adapters.stores.filesystem import LocalFileSystem
from app.adapters.stores.workspace_store import JsonWorkspaceStore
from app.adapters.system.clock import SystemClock, Uuid4Ids
from app.adapters.system.commands import PathCommandResolver, SubprocessProfileDetector
from app.adapters.system.self_command import self_command
from app.adapters.system.tokens import SecretTokens
from app.adapters.vendors import VendorProjectors
from app.adapters.watcher.file_protocol import FileProtocolDoor
from app.adapters.watcher.project_files import ProjectFilesWatcher
from app.commands.endpoint_door import CommandDoor, EndpointDoor
from app.core.domain.pending_kills import CLOSE_GRACE_MS
from app.core.domain.scrollback import SCROLLBACK_CHARS
from app.core.ports import (
    AgentSessions,
    CliNeedsSource,
    Clock,
    CommandResolver,
    FileSystem,
    IdSource,
    LaunchProjector,
    PermissionProjector,
    ProcessInspector,
    ProfileDetector,
    ProjectDoor,
    SandboxEnforcer,
    TerminalHost,
    TokenSource,
)
from app.core.usecases.agents import (
    CreateAgent,
    DeleteAgent,
    ReadPersona,
    ReloadAgents,
    UpdateAgent,
)
from app.core.usecases.edit_layout import EditLayout
from app.core.usecases.launch_agent import LaunchAgent, LaunchConfig
from app.core.usecases.layout_recovery import ReloadLayouts, StartFreshLayouts
from app.core.usecases.open_shell import OpenShell
from app.core.usecases.permissions import AgentSandboxes
from app.core.usecases.profiles import DetectProfiles, LoadProfiles, SaveProfiles
from app.core.usecases.project_state import (
    AGENTS_FILE,
    LAYOUTS_FILE,
    PERMISSIONS_FILE,
    PERSONA_FILES,
)
from app.core.usecases.projects import CreateProject, OpenProject
from app.core.usecases.recent_projects import ListRecentProjects
from app.core.usecases.settings import LoadSettings, MarkFirstRunDone, UpdateSettings
from app.core.usecases.show_session import ForgetAgentRunning, ShowSession
from app.core.usecases.swap_profile import SwapProfile
from app.mcp.door import McpDoor
from app.services import AppServices
from app.services.access_control import AccessControl
from app.services.agents import AgentService
from app.services.conversations import ConversationService
from app.services.credentials import Credentials
from app.services.escalations import Escalations
from app.services.event_bus import EventBus
from app.services.headless import HeadlessTurns
from app.services.layouts import LayoutService
from app.services.open_projects import OpenProjects
from app.services.orchestrator import OrchestrationConfig, OrchestratorService
from app.services.permissions import PermissionService
from app.services.profile_swap import ProfileSwapService
from app.services.profiles import ProfileService
from app.services.projects import ProjectService
from app.services.resume import ResumeService
from app.services.scheduler import Scheduler, ThreadScheduler
from app.services.session_keeper import SessionKeeper
from app.services.settings import SettingsService
from app.services.terminal_bus import TerminalOutputBus
from app.services.terminal_views import TerminalViews
from app.services.terminals import TerminalService
from app.services.workspace import WorkspaceService


@dataclass(frozen=True)
class Config:
    """What the graph is built from: the app data dir (absolute), the user's shell (absolute
    path), the `--project` roots opened at start, the scrollback kept per session (chars),
    IdeA's own command line (default `self_command()`), the delegation timings and how long
    a closed cell's shell waits for an undo before its kill (ms; tests shorten it)."""

    data_dir: str
    shell: str
    startup_projects: Sequence[str] = ()
    scrollback_chars: int = SCROLLBACK_CHARS
    idea_command: tuple[str, ...] = ()
    orchestration: OrchestrationConfig = OrchestrationConfig()
    #: The user's home folder (absolute): what a typed `~` stands for. Empty: no expansion.
    home: str = ""
    close_grace_ms: int = CLOSE_GRACE_MS


#: A per-project door built over the orchestrator and the credentials (endpoint, file protocol).
DoorFactory = Callable[[OrchestratorService, Credentials], ProjectDoor]
#: A watcher of each open project's files: `handlers[key](root)` when a file of `.ideai/` the
#: pattern `key` matches was edited (`ProjectFilesWatcher`).
WatcherFactory = Callable[[Mapping[str, Callable[[str], None]]], ProjectDoor]


def endpoint_door(orchestrator: OrchestratorService, credentials: Credentials) -> ProjectDoor:
    """The project endpoint (a Unix socket; a named pipe on Windows) with its two doors: MCP
    and `idea` commands."""
    host = endpoint_host()
    host.set_handler(EndpointDoor(credentials, mcp=McpDoor(orchestrator),
                                  command=CommandDoor(orchestrator)))
    return host


def endpoint_host() -> EndpointHostBase:
    """This platform's endpoint host: named pipes on Windows, Unix sockets elsewhere."""
    if sys.platform == "win32":
        from app.adapters.endpoint.named_pipe import NamedPipeEndpointHost

        return NamedPipeEndpointHost()
    from app.adapters.endpoint.unix_socket import UnixSocketEndpointHost

    return UnixSocketEndpointHost()


def local_doors() -> tuple[DoorFactory, ...]:
    """The endpoint and the file protocol."""
    return (endpoint_door, FileProtocolDoor)


def structured_sessions() -> dict[str, AgentSessions]:
    """The headless-turn adapters, one per structured protocol."""
    from app.adapters.sessions.acp import AcpSessions
    from app.adapters.sessions.claude_stream import ClaudeStreamSessions
    from app.adapters.sessions.codex_exec import CodexExecSessions

    return {"acp": AcpSessions(), "claude-stream-json": ClaudeStreamSessions(),
            "codex-exec": CodexExecSessions()}


@dataclass(frozen=True)
class Adapters:
    """The ports' implementations; `local()` gives the real ones. The OS sandbox's three
    (`enforcer`, `cli_needs`, `permissions`) default, when None, to this machine's: the
    platform's enforcer, `HostCliNeeds` over IdeA's command line, the vendor projections."""

    fs: FileSystem
    terminals: TerminalHost
    resolver: CommandResolver
    detector: ProfileDetector
    clock: Clock
    ids: IdSource
    tokens: TokenSource
    projector: LaunchProjector
    scheduler: Scheduler
    doors: Sequence[DoorFactory] = ()
    enforcer: SandboxEnforcer | None = None
    cli_needs: CliNeedsSource | None = None
    permissions: PermissionProjector | None = None
    #: Structured session adapters by protocol (`acp`, `claude-stream-json`, `codex-exec`).
    sessions: Mapping[str, AgentSessions] = field(default_factory=dict)
    #: Edits made outside IdeA to an open project's files (None: not watched).
    file_watcher: WatcherFactory | None = None

    @staticmethod
    def local(terminals: TerminalHost | None = None) -> Adapters:
        """Disk, the platform's PTY host (or `terminals`), PATH, wall clock, uuid4, secrets,
        the vendor projections, a timer thread."""
        resolver = PathCommandResolver()
        return Adapters(fs=LocalFileSystem(), terminals=terminals or default_host_class()(),
                        resolver=resolver, detector=SubprocessProfileDetector(resolver),
                        clock=SystemClock(), ids=Uuid4Ids(), tokens=SecretTokens(),
                        projector=VendorProjectors(), scheduler=ThreadScheduler(),
                        doors=local_doors(), sessions=structured_sessions(),
                        enforcer=default_enforcer(), permissions=VendorProjectors(),
                        file_watcher=ProjectFilesWatcher)


@dataclass(frozen=True)
class Container:
    """The built graph: the services every door drives, the config and the adapters."""

    config: Config
    adapters: Adapters
    services: AppServices = field(repr=False)
    #: The workspace (windows, tabs, what to restore: issue 9).
    workspace: WorkspaceService = field(repr=False)

    doors: Sequence[ProjectDoor] = ()
    #: What runs inside terminals (None when the PTY host cannot tell).
    inspector: ProcessInspector | None = None

    def shutdown(self, timeout_ms: int = 3_000) -> None:
        """End every pending ask, terminal session, door and timer (app exit)."""
        self.services.orchestrator.close()
        self.services.keeper.shutting_down()
        self.adapters.terminals.close_all(timeout_ms)
        for door in self.doors:
            door.close_all()
        self.adapters.scheduler.close()


def build(config: Config, adapters: Adapters | None = None) -> Container:
    """Wire use cases, services and buses over `adapters` (default `Adapters.local()`)."""
    a = adapters or Adapters.local()
    data = config.data_dir
    events = EventBus()
    output = TerminalOutputBus(config.scrollback_chars)
    a.terminals.set_listener(output)
    projects = OpenProjects()
    views = TerminalViews(a.terminals, output)
    keeper = SessionKeeper(projects, a.terminals, output, views, events,
                           ForgetAgentRunning(a.fs, events), scheduler=a.scheduler,
                           close_grace_ms=config.close_grace_ms)
    load_profiles = LoadProfiles(a.fs, data)
    credentials = Credentials()
    events.subscribe(credentials.on_event)
    idea_command = config.idea_command or tuple(self_command())
    enforcer = a.enforcer or default_enforcer()
    needs = a.cli_needs or HostCliNeeds(idea_command)
    sandboxes = AgentSandboxes(a.fs, enforcer, needs, a.permissions or VendorProjectors())
    launch = LaunchAgent(a.fs, a.terminals, a.resolver, a.ids, events, a.projector, a.tokens,
                         LaunchConfig(config.shell, idea_command), sandboxes=sandboxes)
    permissions = PermissionService(projects, a.fs, enforcer, needs, load_profiles, a.resolver,
                                    config.shell, a.clock, events)
    events.subscribe(permissions.on_event)
    output.tap(permissions.on_output)
    agents = AgentService(projects, keeper, load_profiles, CreateAgent(a.fs, a.ids),
                          UpdateAgent(a.fs), DeleteAgent(a.fs), ReadPersona(a.fs), launch,
                          credentials, output, ReloadAgents(a.fs), events)
    conversations = ConversationService(a.fs, a.ids, a.clock)
    escalations = Escalations(events, a.ids)
    headless = HeadlessTurns(projects, launch, load_profiles, a.sessions, credentials,
                             a.tokens, conversations, escalations, events, a.clock.now_ms,
                             config.orchestration.turn_timeout_s)
    inspector = a.terminals if isinstance(a.terminals, ProcessInspector) else None
    orchestrator = OrchestratorService(projects, agents, load_profiles, a.terminals, views,
                                       events, a.ids, a.scheduler, conversations,
                                       AccessControl(projects, ReadPersona(a.fs)), escalations,
                                       a.fs, config.orchestration, headless, inspector)
    events.subscribe(orchestrator.on_event)
    output.tap(orchestrator.on_output)
    layouts = LayoutService(projects, keeper, EditLayout(a.fs, a.ids, events),
                            ShowSession(a.fs, events), StartFreshLayouts(a.fs, events),
                            ReloadLayouts(a.fs), events)
    doors = [factory(orchestrator, credentials) for factory in a.doors]
    if a.file_watcher is not None:
        doors.append(a.file_watcher({AGENTS_FILE: agents.reload,
                                     PERMISSIONS_FILE: permissions.recheck,
                                     LAYOUTS_FILE: layouts.reload,
                                     PERSONA_FILES: agents.personas_changed}))
    # hot swap of profiles (issue 10 item 6)
    swaps = ProfileSwapService(projects, agents, a.terminals, output, headless, load_profiles,
                               SwapProfile(a.fs, a.resolver, config.shell))
    services = AppServices(
        events=events, output=output, open_projects=projects,
        projects=ProjectService(
            projects, keeper, OpenProject(a.fs, a.ids, a.clock, events, data),
            CreateProject(a.fs, a.ids, a.clock, events, data), ListRecentProjects(a.fs, data),
            events, doors, config.startup_projects, config.home),
        layouts=layouts,
        terminals=TerminalService(projects, keeper, a.terminals, views,
                                  OpenShell(a.terminals, a.ids, a.fs, events, config.shell),
                                  output, orchestrator.typing_started),
        agents=agents, orchestrator=orchestrator, credentials=credentials,
        conversations=conversations, escalations=escalations, headless=headless,
        resume=ResumeService(projects, agents, conversations, load_profiles, a.fs, events),
        swaps=swaps,
        permissions=permissions,
        profiles=ProfileService(DetectProfiles(a.detector, config.shell), load_profiles,
                                SaveProfiles(a.fs, data, a.resolver), LoadSettings(a.fs, data),
                                MarkFirstRunDone(a.fs, data)),
        settings=SettingsService(LoadSettings(a.fs, data), UpdateSettings(a.fs, data), output),
        keeper=keeper,
    )
    # -- the workspace (issue 9: windows, tabs, restore)
    workspace = WorkspaceService(JsonWorkspaceStore(a.fs, data), events, projects, output,
                                 inspector)
    return Container(config, a, services, workspace, doors, inspector)
