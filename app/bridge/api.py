"""The js_api facade the window calls: ``window.pywebview.api.<feature>.<method>(...)``.

Each feature is a small object of thin methods: camelCase arguments in, a services call, a
DTO out (``docs/contracts.md`` §4), wrapped in the `{"ok"} | {"error"}` envelope by
``exposed``. Nothing here decides a rule. pywebview runs every call on a new thread; the
services lock what they share. Only public attributes are exposed to JS, so everything else
is underscore-prefixed.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Callable
from dataclasses import dataclass

from app import __version__
from app.bridge import dto
from app.bridge.errors import exposed
from app.core.domain.delegation import User
from app.core.domain.profiles import Profile
from app.core.errors import INVALID, AppError
from app.services import AppServices
from app.services.terminal_bus import ChunkConsumer


@dataclass(frozen=True)
class WindowContext:
    """What one window's api needs besides the services: its view id (for terminal views
    and flow control), where its pushes go, the folder picker, and start-up facts."""

    view: str
    consumer: ChunkConsumer
    on_ready: Callable[[], None]
    pick_folder: Callable[[], str | None]
    data_dir: str
    first_run_disabled: bool
    startup_projects: tuple[str, ...]


class AppApi:
    """``app.*``: version, data dir, first-run flag and the projects given on the command line."""

    def __init__(self, services: AppServices, ctx: WindowContext) -> None:
        self._services, self._ctx = services, ctx

    @exposed
    def info(self) -> dto.Json:
        """Called once per page load, after the page installed ``window.__ideaPush``: the
        previous page's terminal views are gone; pushes start."""
        self._services.terminals.detach_view(self._ctx.view)
        self._ctx.on_ready()
        first_run, problems = self._services.profiles.first_run()
        return dto.AppInfoDTO(
            view=self._ctx.view, version=__version__, data_dir=self._ctx.data_dir,
            first_run=first_run and not self._ctx.first_run_disabled, platform=sys.platform,
            problems=[dto.problem_dto(p) for p in problems],
            startup_projects=list(self._ctx.startup_projects),
        ).wire()


class ProfilesApi:
    """``profiles.*``: detection for the first-run wizard, the editor's Test button and
    templates, list and save."""

    def __init__(self, services: AppServices) -> None:
        self._profiles = services.profiles

    @exposed
    def detect(self) -> list[dto.Json]:
        return [dto.detection_dto(d).wire() for d in self._profiles.detect()]

    @exposed
    def test(self, profile: dto.Json) -> dto.Json:
        edited = Profile.from_json(profile, "profile", form="profile")
        return dto.detection_dto(self._profiles.test(edited)).wire()

    @exposed
    def templates(self) -> builtins.list[dto.Json]:
        return [t.to_json() for t in self._profiles.templates()]

    @exposed
    def list(self) -> builtins.list[dto.Json]:
        return [p.to_json() for p in self._profiles.list()]

    @exposed
    def save(self, profiles: builtins.list[dto.Json]) -> builtins.list[dto.Json]:
        if not isinstance(profiles, builtins.list):
            raise AppError(INVALID, "profiles: input should be an array", {"field": "profiles"})
        decoded = [Profile.from_json(p, f"profiles[{i}]", form="profile")
                   for i, p in enumerate(profiles)]
        return [p.to_json() for p in self._profiles.save(decoded)]


class ProjectsApi:
    """``projects.*``: create, open, close, recent list, folder picker."""

    def __init__(self, services: AppServices, ctx: WindowContext) -> None:
        self._projects, self._pick = services.projects, ctx.pick_folder
        self._activity = services.orchestrator.queue_depth

    @exposed
    def recent(self) -> list[dto.Json]:
        return [r.to_json() for r in self._projects.recent()]

    @exposed
    def create(self, root: str, name: str | None = None) -> dto.Json:
        return dto.project_dto(self._projects.create(root, name or None), self._activity).wire()

    @exposed
    def open(self, root: str) -> dto.Json:
        return dto.project_dto(self._projects.open(root), self._activity).wire()

    @exposed
    def close(self, root: str) -> None:
        self._projects.close(root)

    @exposed
    def pickFolder(self) -> str | None:
        return self._pick()


class LayoutApi:
    """``layout.edit(root, op)``: split/close/resize/assign/undo/redo on the active layout."""

    def __init__(self, services: AppServices) -> None:
        self._layouts = services.layouts

    @exposed
    def edit(self, root: str, op: dto.Json) -> dto.Json | None:
        return dto.layouts_json(self._layouts.edit(root, op))

    @exposed
    def showSession(self, root: str, session_id: str, node_id: str) -> dto.Json | None:
        """Cell `node_id` shows `session_id` (moved from any other cell); the document."""
        return dto.layouts_json(self._layouts.show_session(root, session_id, node_id))

    @exposed
    def startFresh(self, root: str) -> dto.Json:
        """Keep the unreadable `layouts.json` as `.bak`; write the layouts used meanwhile."""
        fresh = self._layouts.start_fresh(root)
        return dto.FreshStartDTO(layouts=fresh.layouts.to_json(), backup=fresh.backup).wire()


class SettingsApi:
    """``settings.*``: the preferences the window edits (`terminal`, `ui` sections)."""

    def __init__(self, services: AppServices) -> None:
        self._settings = services.settings

    @exposed
    def get(self) -> dto.Json:
        return dto.settings_dto(self._settings.get())

    @exposed
    def update(self, patch: dto.Json) -> dto.Json:
        return dto.settings_dto(self._settings.update(patch))


class AgentsApi:
    """``agents.*``: CRUD, persona text and launch in a cell."""

    def __init__(self, services: AppServices) -> None:
        self._agents, self._activity = services.agents, services.orchestrator.queue_depth
        self._swaps, self._projects = services.swaps, services.projects

    @exposed
    def list(self, root: str) -> list[dto.Json]:
        return [dto.agent_dto(root, view, self._activity).wire()
                for view in self._projects.view(root).agents]

    @exposed
    def create(self, root: str, form: dto.Json) -> dto.Json:
        new = dto.parse(dto.AgentForm, form, "agent", form="agent")
        view = self._agents.create(root, new.name, new.persona, new.profile_id)
        return dto.agent_dto(root, view, self._activity).wire()

    @exposed
    def update(self, root: str, agent_id: str, form: dto.Json) -> dto.Json:
        change = dto.parse(dto.AgentChange, form, "agent", form="agent")
        view = self._agents.update(root, agent_id, name=change.name, persona=change.persona,
                                   profile_id=change.profile_id,
                                   persona_base=change.persona_base)
        return dto.agent_dto(root, view, self._activity).wire()

    @exposed
    def delete(self, root: str, agent_id: str) -> None:
        self._agents.delete(root, agent_id)

    @exposed
    def persona(self, root: str, agent_id: str) -> str:
        return self._agents.persona(root, agent_id)

    @exposed
    def ipc(self, root: str, agent_id: str) -> dto.Json | None:
        return dto.ipc_dto(self._agents.ipc(root, agent_id))

    @exposed
    def setIpc(self, root: str, agent_id: str, matrix: dto.Json | None) -> dto.Json | None:
        return dto.ipc_dto(self._agents.set_ipc(root, agent_id, dto.ipc_of(matrix)))

    @exposed
    def launch(self, root: str, agent_id: str, node_id: str, cols: int, rows: int) -> dto.Json:
        return dto.launch_dto(self._agents.launch(root, agent_id, node_id, int(cols),
                                                  int(rows))).wire()

    # -- hot swap of profiles (issue 10 item 6) ---------------------------------------------
    @exposed
    def swapProfile(self, root: str, agent_id: str, profile_id: str,
                    size: dto.Json | None = None) -> dto.Json:
        """Swap the agent to `profile_id`; a live terminal stops and the agent relaunches in
        the same cell (`size`: `{cols, rows}` of that cell's terminal, optional)."""
        form = dto.parse(dto.SwapForm, size or {}, "size")
        swapped = self._swaps.swap(root, agent_id, profile_id, (form.cols, form.rows))
        return dto.swap_dto(root, swapped, self._activity).wire()


class OrchestrationApi:
    """``orchestration.*``: the user's messages to agents, and the write portal's acks."""

    def __init__(self, services: AppServices) -> None:
        self._orchestrator, self._escalations = services.orchestrator, services.escalations
        self._headless = services.headless

    @exposed
    def send(self, root: str, targets: list[str], text: str) -> list[dto.Json]:
        form = dto.parse(dto.SendForm, {"targets": targets, "text": text}, "send",
                          form="task")
        out = []
        for target in form.targets:
            try:
                done = self._orchestrator.dispatch(root, User(), {
                    "type": "agent.message", "target": target, "text": form.text})
                out.append(dto.SendOutcomeDTO(agent_id=target, ticket=done["ticket"]).wire())
            except AppError as exc:
                out.append(dto.SendOutcomeDTO(agent_id=target, error=exc.to_json()).wire())
        return out

    @exposed
    def delivered(self, root: str, ticket: str) -> None:
        self._orchestrator.delivered(root, ticket)

    @exposed
    def transcript(self, root: str, agent_id: str) -> list[dto.Json]:
        """The agent's recent headless-turn activity (`headlessActivity` events), oldest
        first."""
        return [dto.headless_entry_dto(root, agent_id, e) for e in
                self._headless.transcript(root, agent_id)]

    @exposed
    def humanLine(self, root: str, session_id: str, dirty: bool) -> None:
        self._orchestrator.human_line(root, session_id, bool(dirty))

    @exposed
    def decide(self, root: str, ticket: str, choice: str) -> None:
        self._escalations.decide(root, ticket, str(choice))

    @exposed
    def graph(self, root: str) -> list[dto.Json]:
        return self._orchestrator.graph(root)

    @exposed
    def pending(self, root: str) -> list[dto.Json]:
        """The escalations of `root` still waiting for the user (a new page shows them)."""
        return [dto.event_dto(e).wire() for e in self._escalations.pending(root)]


class ConversationsApi:
    """``conversations.*``: an agent's pair conversations, their turns and handoff."""

    def __init__(self, services: AppServices) -> None:
        self._services = services

    @exposed
    def list(self, root: str, agent_id: str) -> builtins.list[dto.Json]:
        view = self._services.projects.view(root)
        peers: builtins.list[str | None] = [None, *(a.entry.agent_id for a in view.agents)]
        found = self._services.conversations.of_agent(view.root, agent_id, peers)
        return [dto.conversation_dto(c) for c in found]

    @exposed
    def read(self, root: str, conversation: str) -> dto.Json:
        view = self._services.projects.view(root)
        turns = self._services.conversations.turns(view.root, conversation)
        return {"turns": [dto.turn_dto(t) for t in turns],
                "handoff": self._services.conversations.handoff(view.root, conversation)}


class PermissionsApi:
    """``permissions.*``: the project's `permissions.json`, the test box, agents' denials."""

    def __init__(self, services: AppServices) -> None:
        self._permissions = services.permissions

    @exposed
    def get(self, root: str) -> dto.Json:
        return dto.permissions_dto(self._permissions.get(root), sys.platform).wire()

    @exposed
    def save(self, root: str, document: dto.Json) -> dto.Json:
        return dict(self._permissions.save(root, document))

    @exposed
    def test(self, root: str, agent_id: str | None, capability: str, target: str,
             draft: dto.Json | None = None) -> dto.Json:
        found = self._permissions.test(root, agent_id or None, str(capability), str(target),
                                       draft)
        return dto.permission_test_dto(found).wire()

    @exposed
    def denials(self, root: str, agent_id: str) -> list[dto.Json]:
        return [dto.denial_dto(d).wire() for d in self._permissions.denials(root, agent_id)]


class TerminalsApi:
    """``terminals.*``: open a shell, attach/detach a view, keystrokes, resize, acks, kill."""

    def __init__(self, services: AppServices, ctx: WindowContext) -> None:
        self._terminals, self._ctx = services.terminals, ctx

    @exposed
    def openShell(self, root: str, node_id: str, cols: int, rows: int,
                  cwd: str | None = None) -> dto.Json:
        return dto.shell_dto(self._terminals.open_shell(root, node_id, int(cols), int(rows),
                                                        str(cwd) if cwd else None)).wire()

    @exposed
    def attach(self, session_id: str) -> dto.Json:
        attached = self._terminals.attach(session_id, self._ctx.view, self._ctx.consumer)
        return dto.attach_dto(attached).wire()

    @exposed
    def detach(self, session_id: str) -> None:
        self._terminals.detach(session_id, self._ctx.view)

    @exposed
    def write(self, session_id: str, seq: int, data: str, ticket: str | None = None) -> None:
        self._terminals.write(session_id, int(seq), data,
                              str(ticket) if ticket is not None else None)

    @exposed
    def resize(self, session_id: str, cols: int, rows: int) -> None:
        self._terminals.resize(session_id, int(cols), int(rows))

    @exposed
    def ack(self, session_id: str, chars: int) -> None:
        self._terminals.ack(session_id, self._ctx.view, int(chars))

    @exposed
    def ackMany(self, acks: dict[str, int]) -> None:
        """Batched flow control (ADR 008): `{sessionId: chars}` consumed by this window."""
        if not isinstance(acks, dict):
            raise AppError(INVALID, "acks must be an object of sessionId: chars",
                           {"field": "acks"})
        for session_id, chars in acks.items():
            self._terminals.ack(str(session_id), self._ctx.view, int(chars))

    @exposed
    def kill(self, session_id: str) -> None:
        self._terminals.kill(session_id)


class ResumeApi:
    """``resume.*``: the resume panel on opening a project (issue 10 item 7)."""

    def __init__(self, services: AppServices) -> None:
        self._resume = services.resume

    @exposed
    def pending(self, root: str) -> list[dto.Json]:
        return [r.to_json() for r in self._resume.pending(root)]

    @exposed
    def answer(self, root: str, node_id: str, choice: str, cols: int, rows: int) -> dto.Json:
        return dto.resume_outcome_dto(self._resume.answer(root, node_id, str(choice), int(cols),
                                                          int(rows))).wire()


class BridgeApi:
    """The object given to ``webview.create_window(js_api=...)``; one attribute per feature."""

    def __init__(self, services: AppServices, ctx: WindowContext) -> None:
        self.app = AppApi(services, ctx)
        self.profiles = ProfilesApi(services)
        self.projects = ProjectsApi(services, ctx)
        self.layout = LayoutApi(services)
        self.agents = AgentsApi(services)
        self.terminals = TerminalsApi(services, ctx)
        self.orchestration = OrchestrationApi(services)
        self.conversations = ConversationsApi(services)
        self.permissions = PermissionsApi(services)
        self.resume = ResumeApi(services)
        self.settings = SettingsApi(services)

