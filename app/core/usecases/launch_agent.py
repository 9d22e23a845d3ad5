"""Launch an agent in a cell (SPEC C5): one live session per agent."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.domain.access import split_front_matter
from app.core.domain.agents import AgentEntry
from app.core.domain.convention import handoffs_section, orchestration_section
from app.core.domain.conversation import conversation_id
from app.core.domain.launch_plan import (
    Delegation,
    LaunchInputs,
    LaunchPlan,
    Projection,
    plan_launch,
)
from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import find_leaf, leaves
from app.core.domain.profiles import Profile, install_hint, missing_command_message, resume_args
from app.core.domain.sessions import SessionRecord
from app.core.domain.shell_input import task_input_of
from app.core.errors import (
    AGENT_ALREADY_RUNNING,
    COMMAND_NOT_FOUND,
    INVALID,
    NOT_FOUND,
    AppError,
)
from app.core.events import AgentStateChanged, LayoutChanged, SessionStarted
from app.core.ports import (
    CommandResolver,
    EventSink,
    FileSystem,
    IdSource,
    LaunchProjector,
    TerminalHost,
    TokenSource,
)
from app.core.usecases.permissions import AgentSandboxes
from app.core.usecases.project_files import (
    persona_path,
    require_layouts,
    require_manifest,
    show_in_cell,
)
from app.core.usecases.project_state import CONTEXT_FILE, ProjectState


@dataclass(frozen=True)
class LaunchResult:
    """The agent's session id, whether an already live session was shown again
    (`reattached`), the layouts document (showing it unless launched in the background) and,
    for a new session that can reach IdeA, its launch `token` (never sent to a window)."""

    session_id: str
    reattached: bool
    layouts: LayoutDoc
    token: str | None = None


@dataclass(frozen=True)
class Prepared:
    """A run dir made ready for a launch: the agent's `profile`, the `plan` carried out up to
    the spawn (files written) and, when the project has an endpoint, the `delegation` (how the
    agent reaches IdeA with its launch token)."""

    profile: Profile
    plan: LaunchPlan
    delegation: Delegation | None


@dataclass(frozen=True)
class LaunchConfig:
    """Fixed at construction: the user's shell (absolute path; replaces an empty profile
    command) and IdeA's own command line (`self_command()`, what the `idea` wrapper and the MCP
    declaration run)."""

    shell: str
    idea_command: tuple[str, ...] = ()


class LaunchAgent:
    """Resolve agent + profile + context, write the run dir and spawn the CLI in a PTY."""

    def __init__(self, fs: FileSystem, terminals: TerminalHost, resolver: CommandResolver,
                 ids: IdSource, events: EventSink, projector: LaunchProjector,
                 tokens: TokenSource, config: LaunchConfig, *,
                 sandboxes: AgentSandboxes) -> None:
        self._fs, self._terminals, self._resolver = fs, terminals, resolver
        self._ids, self._events, self._projector = ids, events, projector
        self._tokens, self._config, self._sandboxes = tokens, config, sandboxes

    def execute(self, project: ProjectState, agent_id: str, node_id: str | None, cols: int,
                rows: int, profiles: Sequence[Profile],
                resume_id: str | None = None) -> LaunchResult:
        """Launch (or re-attach) agent `agent_id` in leaf `node_id` of the active layout, or in
        the background (no cell) when `node_id` is None.

        A live session on the same cell, or one shown in no cell of the active layout, is
        re-attached (a cell of another named layout showing it gives it up). Otherwise the
        launch plan (`plan_launch`) is carried out: `.ideai/run/<agent-id>/` gets its files and
        the CLI is spawned (size `cols` x `rows`); when the project has an endpoint the agent
        gets a fresh token and the means to reach IdeA (`LaunchProjector`). Its permissions
        (contracts §9.3) go into its CLI's settings and, when the OS confines them, the CLI runs
        through `idea sandbox-exec` (`AgentSandboxes`); the record keeps the status. Publishes
        `SessionStarted`, `AgentStateChanged(running)` and `LayoutChanged`. Raises
        `AGENT_ALREADY_RUNNING` (details `{nodeId, sessionId, agentId}`), `COMMAND_NOT_FOUND`
        ("command not found: <cmd>"), `NOT_FOUND` (agent or cell), `INVALID` (unknown
        profile), `CORRUPT_FILE` (also an unreadable `permissions.json`: never run
        unconfined), `NOT_WRITABLE`. `resume_id`: the CLI's own conversation to resume (its
        profile's `resume_args`; ignored when the profile cannot resume).
        """
        agent = require_manifest(project).get(agent_id)
        doc = require_layouts(project)
        if node_id is not None and find_leaf(doc.active.root, node_id) is None:
            raise AppError(NOT_FOUND, f"no cell '{node_id}'", {"nodeId": node_id})
        live = project.live_agent(agent_id)
        if live is not None and not self._terminals.is_alive(live.session_id):
            live = None  # ended; its exit notice is on its way
        if live is not None:
            return self._reattach(project, agent, node_id, live.session_id)
        if agent_id in project.headless:
            raise AppError(AGENT_ALREADY_RUNNING,
                           f"{agent.name} is working on a headless turn; launch it when the "
                           "turn has ended", {"agentId": agent_id, "headless": True})
        token = self._tokens.new_token() if project.endpoint is not None else None
        plan = self.prepare(project, agent_id, profiles, token, cols, rows, resume_id).plan
        session_id = self._terminals.spawn(plan.spawn)
        record = SessionRecord(session_id, "agent", agent.name, agent_id, sandbox=plan.sandbox)
        project.sessions[session_id] = record
        try:
            layouts = doc if node_id is None else show_in_cell(self._fs, project, node_id,
                                                               session_id, agent_id)
        except AppError:
            del project.sessions[session_id]
            self._terminals.kill(session_id)
            raise
        self._events.publish(SessionStarted(project.root, record))
        self._events.publish(AgentStateChanged(project.root, agent_id, "running", session_id))
        if node_id is not None:
            self._events.publish(LayoutChanged(project.root, layouts))
        return LaunchResult(session_id, False, layouts, token)

    def _reattach(self, project: ProjectState, agent: AgentEntry, node_id: str | None,
                  session_id: str) -> LaunchResult:
        doc = require_layouts(project)
        if node_id is None:  # already running: nothing to show anywhere
            return LaunchResult(session_id, True, doc)
        # A cell of another named layout gives the session up (it is not on screen there).
        shown_at = [leaf.id for leaf in leaves(doc.active.root) if leaf.session == session_id]
        elsewhere = [n for n in shown_at if n != node_id]
        if elsewhere:
            raise AppError(AGENT_ALREADY_RUNNING,
                           f"{agent.name} is already running in another cell",
                           {"nodeId": elsewhere[0], "sessionId": session_id,
                            "agentId": agent.agent_id})
        if node_id in shown_at:
            return LaunchResult(session_id, True, doc)
        layouts = show_in_cell(self._fs, project, node_id, session_id, agent.agent_id)
        self._events.publish(LayoutChanged(project.root, layouts))
        return LaunchResult(session_id, True, layouts)

    def prepare(self, project: ProjectState, agent_id: str, profiles: Sequence[Profile],
                token: str | None, cols: int = 120, rows: int = 32,
                resume_id: str | None = None) -> Prepared:
        """Plan agent `agent_id`'s launch and write its run dir (convention file with persona,
        skills, memory and handoffs; the vendor projection with `token`), everything but the
        spawn — what a PTY launch and a headless turn share. Errors of `execute` (but
        `AGENT_ALREADY_RUNNING`)."""
        agent = require_manifest(project).get(agent_id)
        prepared = self._plan(project, agent, profiles, cols, rows, token, resume_id)
        plan = prepared.plan
        self._fs.make_dirs(plan.run_dir)
        for file in plan.files:
            self._fs.make_dirs(posixpath.dirname(file.path))
            self._fs.write_text_atomic(file.path, file.text)
            if file.executable:
                self._fs.make_executable(file.path)
        return prepared

    def _plan(self, project: ProjectState, agent: AgentEntry, profiles: Sequence[Profile],
              cols: int, rows: int, token: str | None, resume_id: str | None) -> Prepared:
        profile = next((p for p in profiles if p.id == agent.profile_id), None)
        if profile is None:
            raise AppError(INVALID, f"agent '{agent.name}' uses unknown profile "
                           f"'{agent.profile_id}'", {"profileId": agent.profile_id})
        command = profile.command or self._config.shell
        resolved = self._resolver.which(command) if command else None
        if resolved is None:
            raise AppError(COMMAND_NOT_FOUND, missing_command_message(command, profile),
                           {"command": command, "install": install_hint(profile)})
        run_dir = project.path("run", agent.agent_id)
        sandbox = self._sandboxes.prepare(project.root, agent.agent_id, resolved, run_dir,
                                          project.endpoint)
        projection, orchestration, delegation = Projection(), None, None
        if project.endpoint is not None and token is not None:
            delegation = Delegation(endpoint=project.endpoint, agent_id=agent.agent_id,
                                    token=token, idea_command=self._config.idea_command,
                                    run_dir=run_dir)
            projection = self._projector.project(profile, delegation)
            others = [a.name for a in require_manifest(project).agents
                      if a.agent_id != agent.agent_id]
            orchestration = orchestration_section(agent.name, others, projection.mcp,
                                                  task_input_of(profile) == "shell")
        projection, notes = self._sandboxes.project(profile, sandbox, projection)
        plan = plan_launch(project_root=project.root, run_dir=run_dir, agent_id=agent.agent_id,
                           profile=profile, command=resolved,
                           inputs=self._inputs(project, agent, orchestration), cols=cols,
                           rows=rows, session_id=self._ids.new_id(), projection=projection,
                           resume=(resume_args(profile, resume_id) or ()) if resume_id else ())
        return Prepared(profile, sandbox.confine(plan, self._config.idea_command, notes),
                        delegation)

    def _inputs(self, project: ProjectState, agent: AgentEntry,
                orchestration: str | None) -> LaunchInputs:
        fs = self._fs
        skills = []
        for name in agent.skills or ():
            file = name if name.endswith(".md") else f"{name}.md"
            text = fs.read_text(project.path("skills", file.replace("/", "_")))
            if text is not None:
                skills.append((name.removesuffix(".md"), text))
        peers: list[tuple[str, str | None]] = [("the user", None)]
        peers += [(a.name, a.agent_id) for a in require_manifest(project).agents
                  if a.agent_id != agent.agent_id]
        handoffs = []
        for label, peer in peers:
            text = fs.read_text(project.path("conversations",
                                             conversation_id(agent.agent_id, peer), "handoff.md"))
            if text:
                handoffs.append((label, text))
        return LaunchInputs(
            context_md=fs.read_text(project.path(CONTEXT_FILE)),
            persona_md=persona_body(fs.read_text(persona_path(project, agent))),
            skills=skills,
            memory_index=fs.read_text(project.path("memory", "MEMORY.md")),
            handoff=handoffs_section(handoffs),
            orchestration=orchestration,
        )


def persona_body(text: str | None) -> str | None:
    """The persona as the agent reads it: without its front matter (the access matrix is
    IdeA's business); a front matter IdeA cannot read is left in."""
    if text is None:
        return None
    try:
        return split_front_matter(text)[2]
    except AppError:
        return text
