"""Wire DTOs of the window's bridge (docs/contracts.md §4): pydantic models, camelCase on the
wire, built from the services' read models and the core's events. Translation only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)
from pydantic.alias_generators import to_camel

from app.core.domain.access import IpcMatrix
from app.core.domain.conversation import Turn
from app.core.domain.delegation import Text
from app.core.domain.denials import Denial
from app.core.domain.documents import first_error
from app.core.domain.field_labels import Form, field_refusal
from app.core.domain.layout import LayoutDoc
from app.core.domain.project import Settings
from app.core.domain.sandbox import SandboxStatus
from app.core.domain.sessions import SessionRecord, SessionSandbox
from app.core.errors import INVALID, AppError
from app.core.events import (
    AgentActivityChanged,
    AgentsChanged,
    AgentStateChanged,
    DelegationChanged,
    DelegationReady,
    DenialReported,
    DomainEvent,
    EscalationRaised,
    EscalationResolved,
    HeadlessActivity,
    KillPending,
    LayoutChanged,
    ProblemRaised,
    ProblemResolved,
    SessionExited,
    SessionReleased,
    SessionStarted,
)
from app.core.usecases.launch_agent import LaunchResult
from app.core.usecases.open_shell import ShellOpened
from app.core.usecases.permissions import PermissionTest
from app.core.usecases.profiles import ProfileDetection
from app.core.usecases.project_state import Problem
from app.services.conversations import ConversationSummary
from app.services.headless import Entry
from app.services.permissions import PermissionsView
from app.services.profile_swap import Swapped
from app.services.resume import ResumeOutcome
from app.services.terminals import Attached
from app.services.views import AgentView, ProjectView

Json = dict[str, Any]
W = TypeVar("W", bound="Wire")


class Wire(BaseModel):
    """Base of every DTO: camelCase aliases; fields named in `omit_none` are left out when
    None (optional on the wire), others are sent as null."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)
    omit_none: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _drop_absent(self, handler: SerializerFunctionWrapHandler) -> Json:
        data: Json = handler(self)
        for name in self.omit_none:
            alias = to_camel(name)
            if data.get(alias) is None:
                data.pop(alias, None)
        return data

    def wire(self) -> Json:
        """The JSON object sent to the window."""
        out: Json = self.model_dump(mode="json", by_alias=True)
        return out


def parse(model: type[W], value: Any, where: str, form: Form | None = None) -> W:
    """Validate an input DTO from the window; raises `AppError(INVALID)` naming the field:
    as `form` shows it when the user typed it there (`Name: field required`, `field_labels`),
    else by its path (`size.cols: …`); details `{"field": <path in the DTO>}`."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        path, problem = first_error(exc, value)
        if form is not None:
            raise field_refusal(form, path, problem, path=f"{where}.{path}" if path else where,
                                details={"field": path}) from exc
        raise AppError(INVALID, f"{where}.{path}: {problem}" if path else f"{where}: {problem}",
                       {"field": path}) from exc


class AgentForm(Wire):
    """`agents.create` input: `{name, persona, profileId}`."""

    name: str
    persona: str = ""
    profile_id: str


class AgentChange(Wire):
    """`agents.update` input: any of `{name, persona, profileId}`, and `personaBase`: the
    persona text the new one was edited from (refused with `CHANGED_ON_DISK` when the file no
    longer holds it)."""

    name: str | None = None
    persona: str | None = None
    profile_id: str | None = None
    persona_base: str | None = None


class ProblemDTO(Wire):
    omit_none = frozenset({"recovery"})
    file: str
    message: str
    recovery: str | None = None


class SandboxStatusDTO(Wire):
    """What the OS sandbox gives: `state` (`enforced|degraded|off|unsupported`), `message`."""

    state: str
    message: str


class SessionSandboxDTO(SandboxStatusDTO):
    """An agent session's sandbox: the status, `notes` (what binds only through the CLI's
    settings, or not at all) and `refused` (fail-closed: the CLI was not run); `exposed`: what
    the CLI's needs open that the rules confine (a project under /tmp: "partly sandboxed")."""

    notes: list[str]
    refused: bool
    exposed: list[str] = []


class SessionDTO(Wire):
    omit_none = frozenset({"agent_id", "sandbox"})
    session_id: str
    kind: Literal["shell", "agent"]
    agent_id: str | None = None
    alive: bool
    exit_code: int | None
    title: str
    sandbox: SessionSandboxDTO | None = None


class AgentDTO(Wire):
    omit_none = frozenset({"session_id"})
    agent_id: str
    name: str
    md_path: str
    profile_id: str
    synchronized: bool
    skills: list[str]
    running: bool
    session_id: str | None = None
    activity: str = "stopped"
    queue_depth: int = 0


class ProjectDTO(Wire):
    root: str
    name: str
    agents: list[AgentDTO]
    layouts: Json | None
    problems: list[ProblemDTO]
    sessions: list[SessionDTO]


class LaunchDTO(Wire):
    session_id: str
    reattached: bool
    layouts: Json


class ShellDTO(Wire):
    session_id: str
    layouts: Json


class SizeMarkDTO(Wire):
    at: int
    cols: int
    rows: int


class AttachDTO(Wire):
    scrollback: str
    end: int
    alive: bool
    exit_code: int | None
    sizes: list[SizeMarkDTO] = []


class ProfileDetectionDTO(Wire):
    profile: Json
    installed: bool
    version: str | None
    state: str
    path: str | None
    output: str
    exit_code: int | None
    install: str | None = None


class AppInfoDTO(Wire):
    view: str
    version: str
    data_dir: str
    first_run: bool
    platform: str
    problems: list[ProblemDTO]
    startup_projects: list[str]


def session_dto(record: SessionRecord) -> SessionDTO:
    return SessionDTO(session_id=record.session_id, kind=record.kind, agent_id=record.agent_id,
                      alive=record.alive, exit_code=record.exit_code, title=record.title,
                      sandbox=sandbox_dto(record.sandbox))


def status_dto(status: SandboxStatus) -> SandboxStatusDTO:
    return SandboxStatusDTO(state=status.state, message=status.message)


def sandbox_dto(sandbox: SessionSandbox | None) -> SessionSandboxDTO | None:
    if sandbox is None:
        return None
    return SessionSandboxDTO(state=sandbox.status.state, message=sandbox.status.message,
                             notes=list(sandbox.notes), refused=sandbox.refused,
                             exposed=list(sandbox.exposed))


class PermissionsDTO(Wire):
    """`permissions.get`: the document (None: nothing posed), what this machine's OS sandbox
    can do, and the platform (`linux`, `darwin`, `win32`); `exposed`: why the OS cannot enforce
    file rules inside this project (it lies in a folder every CLI may write, such as /tmp)."""

    document: Json | None
    machine: SandboxStatusDTO
    platform: str
    exposed: list[str] = []


class RuleDTO(Wire):
    """The rule that decided: its JSON path (`where`), origin, capability, effect and its
    globs or command patterns (empty: the whole capability)."""

    where: str
    origin: str
    capability: str
    effect: str
    patterns: list[str]


class OsVerdictDTO(Wire):
    enforced: bool
    allowed: bool | None
    message: str


class PermissionTestDTO(Wire):
    """`permissions.test`: the effect, the one-line explanation, the deciding rule (None: the
    fallback of `origin`), the OS verdict and the sandbox status of the plan judged; `exposed`:
    that plan's lines on what the CLI's needs open that the rules confine."""

    effect: str
    explanation: str
    origin: str
    rule: RuleDTO | None
    os: OsVerdictDTO
    sandbox: SandboxStatusDTO
    exposed: list[str] = []


class DenialDTO(Wire):
    source: str
    tool: str
    target: str
    message: str
    at_ms: int


def permissions_dto(view: PermissionsView, platform: str) -> PermissionsDTO:
    return PermissionsDTO(document=dict(view.document) if view.document is not None else None,
                          machine=status_dto(view.machine), platform=platform,
                          exposed=list(view.exposed))


def permission_test_dto(test: PermissionTest) -> PermissionTestDTO:
    d, rule = test.decision, test.decision.rule
    return PermissionTestDTO(
        effect=d.effect, explanation=d.explain(), origin=d.origin,
        rule=None if rule is None else RuleDTO(where=rule.where, origin=rule.origin,
                                               capability=rule.capability, effect=rule.effect,
                                               patterns=list(rule.patterns)),
        os=OsVerdictDTO(enforced=test.os.enforced, allowed=test.os.allowed,
                        message=test.os.message),
        sandbox=status_dto(test.status), exposed=list(test.exposed))


def denial_dto(denial: Denial) -> DenialDTO:
    return DenialDTO(source=denial.source, tool=denial.tool, target=denial.target,
                     message=denial.message, at_ms=denial.at_ms)


def detection_dto(found: ProfileDetection) -> ProfileDetectionDTO:
    d = found.detection
    return ProfileDetectionDTO(profile=found.profile.to_json(), installed=found.installed,
                               version=found.version, state=d.state, path=d.path,
                               output=d.output, exit_code=d.exit_code,
                               install=found.install)


def problem_dto(problem: Problem) -> ProblemDTO:
    return ProblemDTO(file=problem.file, message=problem.message, recovery=problem.recovery)


def settings_dto(settings: Settings) -> Json:
    """The editable sections of `settings.json`: `{terminal: {fontSize, scrollbackLines},
    ui: {sidePanelWidth, sidePanelCollapsed}}`."""
    return {"terminal": settings.terminal.model_dump(mode="json", by_alias=True,
                                                     include={"font_size", "scrollback_lines"}),
            "ui": settings.ui.model_dump(mode="json", by_alias=True,
                                         include={"side_panel_width", "side_panel_collapsed"})}


def layouts_json(doc: LayoutDoc | None) -> Json | None:
    """The layouts document exactly as `layouts.json` holds it."""
    return doc.to_json() if doc is not None else None


#: `(root, agent_id) -> (activity, queue depth)`, from the orchestrator.
ActivityOf = Callable[[str, str], tuple[str, int]]


def agent_dto(root: str, view: AgentView, activity_of: ActivityOf) -> AgentDTO:
    e, live = view.entry, view.session
    activity, depth = activity_of(root, e.agent_id)
    if live is not None and activity == "stopped":
        activity = "idle"  # running, and no delegation has concerned it yet
    return AgentDTO(agent_id=e.agent_id, name=e.name, md_path=e.md_path,
                    profile_id=e.profile_id, synchronized=e.synchronized,
                    skills=list(e.skills or ()), running=live is not None,
                    session_id=live.session_id if live is not None else None,
                    activity=activity, queue_depth=depth)


def project_dto(view: ProjectView, activity_of: ActivityOf) -> ProjectDTO:
    return ProjectDTO(root=view.root, name=view.name,
                      agents=[agent_dto(view.root, a, activity_of) for a in view.agents],
                      layouts=layouts_json(view.layouts),
                      problems=[problem_dto(p) for p in view.problems],
                      sessions=[session_dto(s) for s in view.sessions])


# ---- resume after a restart (issue 10 item 7) -------------------------------------------------
class ResumeOutcomeDTO(Wire):
    agent: Json
    choice: str
    session_id: str | None
    resumed: bool
    layouts: Json


def resume_outcome_dto(outcome: ResumeOutcome) -> ResumeOutcomeDTO:
    return ResumeOutcomeDTO(agent=outcome.agent.to_json(), choice=outcome.choice,
                            session_id=outcome.session_id, resumed=outcome.resumed,
                            layouts=outcome.layouts.to_json())


def launch_dto(result: LaunchResult) -> LaunchDTO:
    return LaunchDTO(session_id=result.session_id, reattached=result.reattached,
                     layouts=result.layouts.to_json())


def shell_dto(opened: ShellOpened) -> ShellDTO:
    return ShellDTO(session_id=opened.session_id, layouts=opened.layouts.to_json())


def attach_dto(attached: Attached) -> AttachDTO:
    return AttachDTO(scrollback=attached.scrollback, end=attached.end, alive=attached.alive,
                     exit_code=attached.exit_code,
                     sizes=[SizeMarkDTO(at=m.at, cols=m.cols, rows=m.rows)
                            for m in attached.sizes])


# -- events ---------------------------------------------------------------------------------
class ProblemEvent(Wire):
    omit_none = frozenset({"root", "recovery"})
    type: Literal["problem"] = "problem"
    root: str | None = None
    file: str
    message: str
    recovery: str | None = None


class ProblemResolvedEvent(Wire):
    omit_none = frozenset({"root"})
    type: Literal["problemResolved"] = "problemResolved"
    root: str | None = None
    file: str


class FreshStartDTO(Wire):
    layouts: Json
    backup: str


class LayoutChangedEvent(Wire):
    type: Literal["layoutChanged"] = "layoutChanged"
    root: str
    layouts: Json


class SessionStartedEvent(Wire):
    type: Literal["sessionStarted"] = "sessionStarted"
    root: str
    session: SessionDTO


class SessionExitedEvent(Wire):
    type: Literal["sessionExited"] = "sessionExited"
    root: str
    session_id: str
    exit_code: int | None


class KillPendingEvent(Wire):
    type: Literal["killPending"] = "killPending"
    root: str
    session_id: str
    grace_ms: int


class SessionReleasedEvent(Wire):
    type: Literal["sessionReleased"] = "sessionReleased"
    root: str
    session_id: str


class AgentsChangedEvent(Wire):
    type: Literal["agentsChanged"] = "agentsChanged"
    root: str


class AgentStateChangedEvent(Wire):
    omit_none = frozenset({"session_id"})
    type: Literal["agentStateChanged"] = "agentStateChanged"
    root: str
    agent_id: str
    state: Literal["running", "stopped"]
    session_id: str | None = None


class AgentActivityEvent(Wire):
    omit_none = frozenset({"ticket", "blocked_on"})
    type: Literal["agentActivity"] = "agentActivity"
    root: str
    agent_id: str
    activity: str
    queue_depth: int
    ticket: str | None = None
    blocked_on: str | None = None


class EscalationEvent(Wire):
    omit_none = frozenset({"task"})
    type: Literal["escalation"] = "escalation"
    root: str
    ticket: str
    agent_id: str
    options: list[str]
    task: str | None = None


class EscalationResolvedEvent(Wire):
    type: Literal["escalationResolved"] = "escalationResolved"
    root: str
    ticket: str
    choice: str | None


class IpcDTO(Wire):
    """An access matrix on the wire (`receivesFrom`, `sendsTo`, `signals`, `zoneAccess`)."""

    omit_none = frozenset({"receives_from", "sends_to", "signals", "zone_access"})
    receives_from: list[str] | None = None
    sends_to: list[str] | None = None
    signals: list[str] | None = None
    zone_access: list[str] | None = None


class ConversationDTO(Wire):
    omit_none = frozenset()
    id: str
    peer: str | None
    turns: int
    last_at_ms: int


class DelegationEvent(Wire):
    omit_none = frozenset({"reason"})
    type: Literal["delegation"] = "delegation"
    root: str
    ticket: str
    from_: str = Field(alias="from")
    to: str
    kind: str
    state: str
    reason: str | None = None


class HeadlessActivityEvent(Wire):
    omit_none = frozenset()
    type: Literal["headlessActivity"] = "headlessActivity"
    root: str
    agent_id: str
    ticket: str
    kind: str
    text: str
    at_ms: int


class DelegationReadyEvent(Wire):
    omit_none = frozenset({"submit_sequence", "submit_delay_ms"})
    type: Literal["delegationReady"] = "delegationReady"
    root: str
    agent_id: str
    session_id: str
    view: str
    ticket: str
    text: str
    submit_sequence: str | None = None
    submit_delay_ms: int | None = None
    line_dirty: bool = False
    waiting_screens: list[str] = []


class PermissionDeniedEvent(Wire):
    type: Literal["permissionDenied"] = "permissionDenied"
    root: str
    agent_id: str
    denial: DenialDTO


class SendOutcomeDTO(Wire):
    """One target of `orchestration.send`: its ticket, or the error."""

    omit_none = frozenset({"ticket", "error"})
    agent_id: str
    ticket: str | None = None
    error: Json | None = None


class SendForm(Wire):
    """`orchestration.send` input: the task typed in Send a task, checked as the window's
    (a blank or too long one is refused as a whole, naming the Task box), not per target."""

    targets: list[str]
    text: Text


def event_dto(event: DomainEvent) -> Wire:
    """The wire form of a domain event."""
    if isinstance(event, ProblemRaised):
        return ProblemEvent(root=event.root, file=event.file, message=event.message,
                            recovery=event.recovery)
    if isinstance(event, ProblemResolved):
        return ProblemResolvedEvent(root=event.root, file=event.file)
    if isinstance(event, LayoutChanged):
        return LayoutChangedEvent(root=event.root, layouts=event.layouts.to_json())
    if isinstance(event, SessionStarted):
        return SessionStartedEvent(root=event.root, session=session_dto(event.session))
    if isinstance(event, SessionExited):
        return SessionExitedEvent(root=event.root, session_id=event.session_id,
                                  exit_code=event.exit_code)
    if isinstance(event, SessionReleased):
        return SessionReleasedEvent(root=event.root, session_id=event.session_id)
    if isinstance(event, KillPending):
        return KillPendingEvent(root=event.root, session_id=event.session_id,
                                grace_ms=event.grace_ms)
    if isinstance(event, AgentsChanged):
        return AgentsChangedEvent(root=event.root)
    if isinstance(event, AgentStateChanged):
        return AgentStateChangedEvent(root=event.root, agent_id=event.agent_id,
                                      state=event.state, session_id=event.session_id)
    if isinstance(event, AgentActivityChanged):
        return AgentActivityEvent(root=event.root, agent_id=event.agent_id,
                                  activity=event.activity, queue_depth=event.queue_depth,
                                  ticket=event.ticket, blocked_on=event.blocked_on)
    if isinstance(event, EscalationRaised):
        return EscalationEvent(root=event.root, ticket=event.ticket, agent_id=event.agent_id,
                               options=list(event.options), task=event.task)
    if isinstance(event, EscalationResolved):
        return EscalationResolvedEvent(root=event.root, ticket=event.ticket,
                                       choice=event.choice)
    if isinstance(event, DelegationChanged):
        return DelegationEvent(root=event.root, ticket=event.ticket,
                               from_=event.requester or "user", to=event.target,
                               kind=event.kind, state=event.state, reason=event.reason)
    if isinstance(event, HeadlessActivity):
        return HeadlessActivityEvent(root=event.root, agent_id=event.agent_id,
                                     ticket=event.ticket, kind=event.kind, text=event.text,
                                     at_ms=event.at_ms)
    if isinstance(event, DelegationReady):
        return DelegationReadyEvent(
            root=event.root, agent_id=event.agent_id, session_id=event.session_id,
            view=event.view, ticket=event.ticket, text=event.text,
            submit_sequence=event.submit_sequence, submit_delay_ms=event.submit_delay_ms,
            line_dirty=event.line_dirty, waiting_screens=list(event.waiting_screens))
    if isinstance(event, DenialReported):
        return PermissionDeniedEvent(root=event.root, agent_id=event.agent_id,
                                     denial=denial_dto(event.denial))
    raise TypeError(f"no wire form for {type(event).__name__}")


def headless_entry_dto(root: str, agent_id: str, entry: Entry) -> Json:
    """A transcript entry in the `headlessActivity` event's shape."""
    return HeadlessActivityEvent(root=root, agent_id=agent_id, ticket=entry.ticket,
                                 kind=entry.kind, text=entry.text, at_ms=entry.at_ms).wire()


def ipc_dto(matrix: IpcMatrix | None) -> Json | None:
    if matrix is None:
        return None
    return IpcDTO(**{k: list(v) if v is not None else None
                     for k, v in vars(matrix).items()}).wire()


def ipc_of(value: Any) -> IpcMatrix | None:
    """An access matrix from the window (None: unrestricted); raises `AppError(INVALID)`."""
    if value is None:
        return None
    form = parse(IpcDTO, value, "ipc")
    return IpcMatrix(*(tuple(v) if v is not None else None for v in (
        form.receives_from, form.sends_to, form.signals, form.zone_access)))


def conversation_dto(summary: ConversationSummary) -> Json:
    return ConversationDTO(id=summary.id, peer=summary.peer, turns=summary.turns,
                           last_at_ms=summary.last_at_ms).wire()


def turn_dto(turn: Turn) -> Json:
    out: Json = turn.model_dump(by_alias=True, exclude_none=True)
    return out


# -- hot swap of profiles (issue 10 item 6) -------------------------------------------------
class SwapForm(Wire):
    """`agents.swapProfile`'s optional size: the cell's terminal (cols x rows)."""

    cols: int = Field(default=120, ge=2, le=1000)
    rows: int = Field(default=32, ge=2, le=1000)


class SwapDTO(Wire):
    omit_none = frozenset({"session_id", "layouts", "node_id"})
    agent: AgentDTO
    previous_profile_id: str
    conversation_id: str
    relaunched: bool
    session_id: str | None = None
    node_id: str | None = None
    layouts: Json | None = None


def swap_dto(root: str, swapped: Swapped, activity_of: ActivityOf) -> SwapDTO:
    launch, plan = swapped.launch, swapped.plan
    return SwapDTO(agent=agent_dto(root, swapped.agent, activity_of),
                   previous_profile_id=plan.old_profile_id,
                   conversation_id=plan.conversation_id, relaunched=launch is not None,
                   session_id=launch.session_id if launch is not None else None,
                   node_id=plan.node_id if launch is not None else None,
                   layouts=launch.layouts.to_json() if launch is not None else None)
