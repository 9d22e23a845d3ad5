"""Delegation between agents (SPEC C8, docs/contracts.md §7): one service, every door.

`dispatch(root, caller, command)` handles the commands of §7.1. The rules are the core's
(`delegation`, `mailbox`, `wait_for`, `activity`); this module holds the mailboxes, the
waiting askers, the timers, and routes each turn's text to the write portal of the window
showing the agent, or types it headless when none does.

Threads: doors call `dispatch` from their own worker threads (an ask blocks until its turn
ended); PTY output arrives on reader threads (`on_output`), events on their publisher's
thread, timers on the scheduler's. One lock guards the lines; nothing is published, launched or
typed while it is held (effects run after it is released), and it is never taken while a
project lock is wanted, so project locks always come first.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from app.core.domain.activity import PromptWatch, on_notification
from app.core.domain.conversation import conversation_id
from app.core.domain.delegation import (
    MAX_TYPED_BYTES,
    AgentCaller,
    AskAgent,
    Caller,
    Hook,
    ListAgents,
    MessageAgent,
    Reply,
    RunAgent,
    StopAgent,
    Ticket,
    check_message_target,
    delivered_text,
    parse_command,
    task_file_text,
)
from app.core.domain.denials import DENIAL_HOOKS, denial_from_hook
from app.core.domain.headless import engine_session_id
from app.core.domain.mailbox import DEFAULT_CAPACITY, Mailbox
from app.core.domain.sessions import TerminalChunk
from app.core.domain.shell_input import done_once_typed, task_input_of
from app.core.domain.terminal_text import tail
from app.core.domain.wait_for import WaitForGraph
from app.core.domain.withdrawal import withdraw_ask
from app.core.errors import (
    AGENT_ERROR,
    CANCELLED,
    FORBIDDEN,
    INTERNAL,
    NO_REPLY,
    NOT_FOUND,
    TIMEOUT,
    AppError,
)
from app.core.events import (
    AgentActivityChanged,
    DelegationChanged,
    DelegationReady,
    DenialReported,
    DomainEvent,
    SessionExited,
    SessionStarted,
)
from app.core.ports import (
    EventSink,
    FileSystem,
    Hangup,
    IdSource,
    ProcessInspector,
    TerminalHost,
)
from app.core.usecases.profiles import LoadProfiles
from app.core.usecases.project_files import require_manifest
from app.core.usecases.project_state import ideai_path
from app.services.access_control import AccessControl
from app.services.agent_lines import AgentLine, Delivery, Outcome, Waiter
from app.services.agents import AgentService
from app.services.conversations import ConversationService
from app.services.escalations import Escalations
from app.services.headless import HeadlessTurns
from app.services.open_projects import OpenProjects
from app.services.scheduler import Scheduler
from app.services.terminal_views import TerminalViews

log = logging.getLogger(__name__)

Effect = Callable[[], None]
DEFAULT_SUBMIT = "\r"
DEFAULT_SUBMIT_DELAY_MS = 60


@dataclass(frozen=True)
class OrchestrationConfig:
    """Times in seconds: the per-turn timeout; how long a just-launched CLI must stay quiet
    (after printing something) to count as ready, and the most a launch may take to settle;
    how long a reply may still come after the turn looked finished (prompt back, stop hook);
    how often a shell terminal running a program is looked at again for its next task."""

    turn_timeout_s: float = 300.0
    capacity: int = DEFAULT_CAPACITY
    settle_quiet_s: float = 1.0
    settle_max_s: float = 15.0
    settle_poll_s: float = 0.25
    reply_grace_s: float = 1.5
    program_poll_s: float = 1.0


class OrchestratorService:
    """Mailboxes, turns and delivery of every agent of every open project."""

    def __init__(self, projects: OpenProjects, agents: AgentService, profiles: LoadProfiles,
                 terminals: TerminalHost, views: TerminalViews, events: EventSink,
                 ids: IdSource, scheduler: Scheduler, conversations: ConversationService,
                 access: AccessControl, escalations: Escalations, files: FileSystem,
                 config: OrchestrationConfig = OrchestrationConfig(),
                 headless: HeadlessTurns | None = None,
                 inspector: ProcessInspector | None = None) -> None:
        self._projects, self._agents, self._profiles = projects, agents, profiles
        self._inspector = inspector
        self._files, self._headless = files, headless
        self._conversations, self._access, self._escalations = conversations, access, escalations
        self._terminals, self._views, self._events = terminals, views, events
        self._ids, self._scheduler, self._config = ids, scheduler, config
        self._lock = threading.Lock()
        self._lines: dict[tuple[str, str], AgentLine] = {}
        self._by_session: dict[str, AgentLine] = {}
        self._graph = WaitForGraph()
        views.listen(self._on_view)

    # ------------------------------------------------------------------ the one entry
    def dispatch(self, root: str, caller: Caller, command: Any,
                 hangup: Hangup | None = None) -> dict[str, Any]:
        """Carry out `command` (a §7.1 object) for `caller` in project `root`; blocks for an
        ask, which `hangup` withdraws when the caller leaves first. Raises `AppError`
        (INVALID, NOT_FOUND, FORBIDDEN, INBOX_FULL, CYCLE, TIMEOUT, NO_REPLY, CANCELLED,
        COMMAND_NOT_FOUND…)."""
        parsed = parse_command(command)
        if isinstance(caller, AgentCaller) and caller.root != self._projects.get(
                root, in_tab=False).state.root:
            raise AppError(FORBIDDEN, "an agent may only act in its own project")
        if isinstance(parsed, ListAgents):
            return self._list(root)
        if isinstance(parsed, RunAgent):
            return self._run_agent(root, parsed.target)
        if isinstance(parsed, StopAgent):
            return self._stop(root, parsed.target)
        if isinstance(parsed, MessageAgent | AskAgent):
            return self._post(root, caller, parsed, hangup)
        if not isinstance(caller, AgentCaller):
            raise AppError(FORBIDDEN, "only an agent can reply to a task or report a hook")
        if isinstance(parsed, Reply):
            return self._answer(caller, parsed)
        return self._hook(caller, parsed)

    def close(self) -> None:
        """App exit: every waiting asker gets an answer now (their threads may then end)."""
        with self._lock:
            waiters = [w for line in self._lines.values() for w in line.waiters.values()]
            for line in self._lines.values():
                line.waiters.clear()
        for waiter in waiters:
            waiter.settle(Outcome(code=INTERNAL, message="IdeA is closing"))
        self._escalations.close()
        if self._headless is not None:
            self._headless.close()

    def graph(self, root: str) -> list[dict[str, Any]]:
        """The delegations of `root` not done yet: `[{ticket, from, to, state}]` (`from` an
        agent id or "user"; state `active` for a current turn, `queued` for a waiting one)."""
        with self._lock:
            out = []
            for line in self._lines.values():
                if line.root != root:
                    continue
                current = line.mailbox.current
                tickets = [(current, "active")] if current and \
                    current.id not in line.orphaned else []
                tickets += [(t, "queued") for t in line.mailbox.waiting()]
                out += [{"ticket": t.id, "from": t.requester or "user", "to": t.target,
                         "kind": t.kind, "state": state} for t, state in tickets]
            return out

    def delivered(self, root: str, ticket: str) -> None:
        """A window's write portal typed and submitted the text of `ticket` (idempotent; a
        portal that did not tag its writes starts the turn's clock here)."""
        with self._lock:
            line = next((ln for ln in self._lines.values() if ln.root == root and ln.delivery
                         and ln.delivery.ticket == ticket), None)
            if line is not None:
                self._typing_began(line)

    def typing_started(self, session_id: str, ticket: str) -> None:
        """A window's write portal writes the text of `ticket` into `session_id` now (called
        before the write reaches the PTY, so the echo and the answer count for the turn)."""
        with self._lock:
            line = self._by_session.get(session_id)
            if line is not None and line.delivery is not None \
                    and line.delivery.ticket == ticket:
                self._typing_began(line)

    def human_line(self, root: str, session_id: str, dirty: bool) -> None:
        """A window's portal says the human's line in `session_id` has text on it (`dirty`) or
        is empty again; a delivery waiting for it to be clean goes on."""
        with self._lock:
            line = self._by_session.get(session_id)
            if line is None or line.root != root:
                return
            line.human_dirty = dirty
            delivery = line.delivery
            effects = self._route(line) if (not dirty and delivery is not None
                                            and delivery.view is None) else []
        self._run(effects)

    def queue_depth(self, root: str, agent_id: str) -> tuple[str, int]:
        """`(activity, queue depth)` of an agent (for the agents list of a window)."""
        with self._lock:
            line = self._lines.get((root, agent_id))
            return (line.activity, line.mailbox.depth) if line else ("stopped", 0)

    # ------------------------------------------------------------------ commands
    def _resolve(self, root: str, target: str) -> tuple[str, str, str]:
        """`(root, agent_id, name)` of `target` (an id, or a name case-insensitively)."""
        with self._projects.locked(root) as state:
            agents = require_manifest(state).agents
            wanted = target.strip().casefold()
            entry = next((a for a in agents if a.agent_id == target), None) or next(
                (a for a in agents if a.name.casefold() == wanted), None)
            if entry is None:
                names = ", ".join(a.name for a in agents) or "none"
                raise AppError(NOT_FOUND, f"no agent named {target!r} (agents: {names})",
                               {"target": target})
            return state.root, entry.agent_id, entry.name

    def _line(self, root: str, agent_id: str, name: str) -> AgentLine:
        line = self._lines.get((root, agent_id))
        if line is None:
            line = AgentLine(root, agent_id, name, Mailbox(name, self._config.capacity))
            self._lines[(root, agent_id)] = line
        return line

    def _list(self, root: str) -> dict[str, Any]:
        with self._projects.locked(root) as state:
            entries = [(a, state.live_agent(a.agent_id)) for a in require_manifest(state).agents]
        try:
            names = {p.id: p.name for p in self._profiles.execute(include_disabled=True)}
        except AppError:  # an unreadable profiles.json: the listing still works, with ids
            names = {}
        with self._lock:
            out = []
            for entry, live in entries:
                line = self._lines.get((root, entry.agent_id))
                out.append({"agentId": entry.agent_id, "name": entry.name,
                            "profileId": entry.profile_id,
                            "profileName": names.get(entry.profile_id, entry.profile_id),
                            "running": live is not None,
                            "activity": line.activity if line else (
                                "idle" if live else "stopped"),
                            "queueDepth": line.mailbox.depth if line else 0})
        return {"agents": out}

    def _run_agent(self, root: str, target: str) -> dict[str, Any]:
        root, agent_id, _ = self._resolve(root, target)
        result, started = self._agents.ensure_running(root, agent_id)
        return {"agentId": agent_id, "sessionId": result.session_id, "started": started}

    def _stop(self, root: str, target: str) -> dict[str, Any]:
        root, agent_id, _ = self._resolve(root, target)
        with self._projects.locked(root) as state:
            live = state.live_agent(agent_id)
        if live is not None:
            self._terminals.kill(live.session_id)
        return {"agentId": agent_id, "stopped": live is not None}

    def _post(self, root: str, caller: Caller, request: MessageAgent | AskAgent,
              hangup: Hangup | None) -> dict[str, Any]:
        root, agent_id, name = self._resolve(root, request.target)
        requester = caller.agent_id if isinstance(caller, AgentCaller) else None
        ask = isinstance(request, AskAgent)
        if not ask:
            check_message_target(requester, agent_id, name)
        self._access.check(root, requester, agent_id, request.signal, request.zone)
        text = request.task if isinstance(request, AskAgent) else request.text
        ticket = Ticket(self._ids.new_id(), "ask" if ask else "message", agent_id, requester,
                        caller.label, text, request.signal, tuple(request.files or ()),
                        request.zone, request.decision)
        waiter = Waiter() if ask else None
        # A target with no terminal whose profile speaks a structured protocol works headless
        protocol = self._headless.protocol_of(root, agent_id) if self._headless else None
        with self._lock:
            if ask and requester is not None:
                names = {ln.agent_id: ln.name for ln in self._lines.values() if ln.root == root}
                self._graph.check(requester, agent_id, {**names, agent_id: name,
                                                        requester: caller.label})
            line = self._line(root, agent_id, name)
            line.mailbox.post(ticket)
            if line.session_id is None and protocol is not None:
                line.headless = True
            effects: list[Effect] = []
            if waiter is not None:
                line.waiters[ticket.id] = waiter
                if requester is not None:
                    self._graph.add(ticket.id, requester, agent_id)
                    effects = self._asker_waits(root, requester, ticket.id)
            effects += [self._publish_delegation(line, ticket, "queued"), self._activity(line)]
            effects += self._advance(line)
            running = line.session_id is not None or line.headless
            queued = [t.id for t in line.mailbox.waiting()]
            position = queued.index(ticket.id) + 1 if ticket.id in queued else 0
        self._run(effects)
        if not running:
            try:
                self._agents.ensure_running(root, agent_id)
            except AppError as exc:
                self._fail_queued(root, agent_id, ticket.id, exc)
                raise
        if waiter is None:
            return {"ticket": ticket.id, "position": position}
        if hangup is not None:
            hangup.on_hangup(partial(self._abandon, root, agent_id, ticket.id,
                                     f"{caller.label} hung up before the answer"))
        outcome = waiter.wait()
        assert outcome is not None
        if outcome.code is not None:
            raise AppError(outcome.code, outcome.message, {"ticket": ticket.id,
                                                           **outcome.details})
        return {"ticket": ticket.id, "reply": outcome.reply or ""}

    def _fail_queued(self, root: str, agent_id: str, ticket_id: str, exc: AppError) -> None:
        """The target could not even start: take the ticket back."""
        with self._lock:
            line = self._lines.get((root, agent_id))
            if line is None:
                return
            ticket = line.mailbox.withdraw(ticket_id)
            line.waiters.pop(ticket_id, None)
            effects = [self._activity(line)]
            if ticket is not None:
                effects += self._ask_over(line.root, ticket)
                effects.append(self._publish_delegation(line, ticket, "failed", exc.code))
        self._run(effects)

    def _abandon(self, root: str, agent_id: str, ticket_id: str, why: str) -> None:
        """The asker of `ticket_id` went away: a queued ticket is withdrawn; a turn already
        under way goes on (its answer is still logged) but nobody waits for it any more."""
        with self._lock:
            line = self._lines.get((root, agent_id))
            effects = self._abandoned(line, ticket_id, why) if line is not None else []
        self._run(effects)

    def _abandoned(self, line: AgentLine, ticket_id: str, why: str) -> list[Effect]:
        """The rules of `withdraw_ask`: a queued ask is dropped, one under way is orphaned
        (its turn goes on, its reply is logged, answered to nobody); either way it leaves the
        wait-for graph and is reported `failed` / `CANCELLED` now."""
        waiter = line.waiters.pop(ticket_id, None)
        if waiter is None:
            return []  # answered already
        effects: list[Effect] = [partial(waiter.settle, Outcome(code=CANCELLED, message=why))]
        gone = withdraw_ask(line.mailbox, ticket_id)
        if gone.ticket is None:
            return effects
        if gone.kind == "orphaned" and (line.delivery is None or not line.delivery.delivered):
            # Its turn began but nothing was typed (held behind a screen waiting for the human,
            # or the human's own line): it ends here, as a queued one would be dropped (a trial
            # saw the target stay busy for good).
            log.info("%s: ask %s to %s withdrawn before it was typed: %s", line.root, ticket_id,
                     line.name, why)
            return effects + self._end_turn(line, Outcome(
                code=CANCELLED, message=why,
                details={"outputTail": f"withdrawn before it was typed: {why}"}))
        effects += self._ask_over(line.root, gone.ticket)
        if gone.kind == "orphaned":
            line.orphaned.add(ticket_id)
        log.info("%s: ask %s to %s withdrawn (%s): %s", line.root, ticket_id, line.name,
                 gone.kind, why)
        return effects + [self._publish_delegation(line, gone.ticket, "failed", CANCELLED),
                          self._activity(line)]

    def _asker_waits(self, root: str, requester: str, ticket_id: str) -> list[Effect]:
        """Agent `requester` now waits on `ticket_id`: its own turn's clock stops meanwhile.
        Asking outside any turn IdeA gave it (its human typed `idea ask`, or asked it to ask),
        it is busy until the answer: no task is typed into a terminal blocked in its own ask."""
        asker = self._lines.get((root, requester))
        if asker is None:
            return []
        asker.asking.add(ticket_id)
        if asker.mailbox.current is None:
            if asker.activity != "idle":
                return []
            asker.activity = "busy"
            return [self._activity(asker)]
        if asker.turn_timer is not None:
            asker.turn_timer.cancel()
            asker.turn_timer = None
            asker.turn_left = max(0.0, asker.turn_deadline - self._scheduler.monotonic())
        return []

    def _ask_over(self, root: str, ticket: Ticket) -> list[Effect]:
        """`ticket` (an ask) is answered or gone: out of the wait-for graph, and the asker's
        clock runs again once it waits on nothing else; an asker that asked outside a turn is
        idle again and takes its next task."""
        self._graph.remove(ticket.id)
        if ticket.requester is None:
            return []
        asker = self._lines.get((root, ticket.requester))
        if asker is None or ticket.id not in asker.asking:
            return []
        asker.asking.discard(ticket.id)
        if asker.asking:
            return []
        if asker.mailbox.current is None:
            effects: list[Effect] = []
            if asker.activity == "busy" and asker.session_id is not None:
                asker.activity = "idle"
                effects.append(self._activity(asker))
            return effects + self._advance(asker)
        if asker.turn_left is not None:
            self._arm_turn(asker, asker.turn_left)
        return []

    def _arm_turn(self, line: AgentLine, seconds: float) -> None:
        """The current turn has `seconds` left (its timer restarts)."""
        current = line.mailbox.current
        if current is None:
            return
        if line.turn_timer is not None:
            line.turn_timer.cancel()
        line.turn_left = None
        line.turn_deadline = self._scheduler.monotonic() + seconds
        ticket_id = current.id
        line.turn_timer = self._scheduler.call_later(
            seconds, lambda: self._timed_out(line, ticket_id))

    def _answer(self, caller: AgentCaller, reply: Reply) -> dict[str, Any]:
        """An answer packet of `caller` (§8.2), checked against the access matrices."""
        if reply.signal == "ESCALATE":
            self._access.check(caller.root, caller.agent_id, None, "ESCALATE")
            with self._lock:
                line = self._lines.get((caller.root, caller.agent_id))
                current = line.mailbox.current if line is not None else None
            choice = self._escalations.ask_user(caller.root, caller.agent_id,
                                                list(reply.options or ()),
                                                current.text if current else None)
            return {"choice": choice}
        with self._lock:
            line = self._lines.get((caller.root, caller.agent_id))
            if line is None:
                raise AppError(NOT_FOUND, f"{caller.name} has no task in progress to reply to",
                               {"ticket": reply.ticket})
            current = line.mailbox.resolve(reply.ticket)
        final = reply.signal in ("RETURN", "ERROR")
        self._access.check(caller.root, caller.agent_id,
                           current.requester if final else None, reply.signal)
        context = reply.context or ""
        with self._lock:
            if line.mailbox.current is not current:
                raise AppError(NOT_FOUND, f"ticket {current.id} ended meanwhile",
                               {"ticket": current.id})
            late = line.overdue
            if reply.signal == "RETURN":
                effects = self._end_turn(line, Outcome(reply=reply.result or ""), replied=True)
            elif reply.signal == "ERROR":
                effects = self._end_turn(line, Outcome(
                    code=AGENT_ERROR, message=f"{line.name} reported an error: {context}",
                    details={"outputTail": f"ERROR: {context}"}), replied=True)
            elif reply.signal == "BLOCKED_ON":
                line.activity, line.blocked_on = "blocked", context
                effects = [self._activity(line)]
            else:  # CHECKPOINT: the pair's log keeps it; the turn goes on
                root = line.root
                effects = [partial(self._conversations.response, root, current,
                                   f"[CHECKPOINT] {context}")]
        self._run(effects)
        # `late`: its asker had been told TIMEOUT already; the answer is only logged
        return {"ticket": current.id, **({"late": True} if late and final else {})}

    def _hook(self, caller: AgentCaller, hook: Hook) -> dict[str, Any]:
        if hook.event in DENIAL_HOOKS:  # the CLI reports a refusal: nothing for the turn
            denial = denial_from_hook(hook.event, hook.payload)
            if denial is not None:
                self._events.publish(DenialReported(caller.root, caller.agent_id, denial))
            return {}
        with self._lock:
            line = self._lines.get((caller.root, caller.agent_id))
            if line is None or line.session_id != caller.session_id:
                return {}
            effects: list[Effect] = self._engine_id(line, hook.payload)
            if hook.event == "session-start":
                effects += self._settle(line)
            elif hook.event == "notification":
                kind = str(hook.payload.get("notification_type", ""))
                before = line.activity
                line.activity = on_notification(line.activity, kind)
                if kind == "idle_prompt" and line.mailbox.current is not None:
                    effects += self._turn_looked_over(line, hook.payload)
                elif line.activity != before:
                    effects.append(self._activity(line))
            elif line.mailbox.current is not None:  # stop, stop-failure
                effects += self._turn_looked_over(line, hook.payload)
            elif line.settling_since is not None:  # the CLI is back after its reply
                effects += self._settled(line)
        self._run(effects)
        return {}

    def _engine_id(self, line: AgentLine, payload: dict[str, Any]) -> list[Effect]:
        """A hook naming the CLI's own session: kept as the resume id of the user's
        conversation with the agent for this profile (the terminal is that conversation)."""
        engine = engine_session_id(payload)
        if engine is None or engine == line.engine_id or line.profile_id is None:
            return []
        line.engine_id = engine
        root, conversation, profile = line.root, conversation_id(None, line.agent_id), \
            line.profile_id

        def keep() -> None:
            try:
                self._conversations.set_provider_id(root, conversation, profile, engine)
            except AppError as exc:  # a corrupt providers.json is reported, never overwritten
                log.warning("engine session id not kept: %s", exc.message)

        return [keep]

    # ------------------------------------------------------------------ turns (lock held)
    def _advance(self, line: AgentLine) -> list[Effect]:
        """Start the next turn when the agent is ready, free and back from its last reply."""
        if line.settling_since is not None:
            return []
        if line.session_id is None:
            return self._advance_headless(line) if line.headless else []
        if line.activity != "idle" or line.asking:
            return []  # busy, or blocked in its own ask (`_asker_waits`)
        if self._runs_a_program(line):
            return []
        ticket = line.mailbox.start_next()
        if ticket is None:
            return []
        line.activity = "busy"
        line.overdue = False
        line.forget_turn_output()
        root = line.root
        effects: list[Effect] = [self._activity(line),
                                 self._publish_delegation(line, ticket, "active"),
                                 lambda: self._conversations.prompt(root, ticket)]
        text = delivered_text(ticket, task_input=line.task_input)
        if len(text.encode("utf-8")) > MAX_TYPED_BYTES:
            path = ideai_path(root, "tasks", f"{ticket.id}.md")
            text = delivered_text(ticket, task_file=path, task_input=line.task_input)
            effects.append(partial(self._keep_task, path,
                                   task_file_text(ticket, line.task_input)))
        line.delivery = Delivery(ticket.id, text)
        return effects + self._route(line)

    def _runs_a_program(self, line: AgentLine) -> bool:
        """A shell terminal whose shell is not at its prompt (`vim`, `python3`, a build in the
        foreground) would get the task as that program's input: its next task waits, looked
        at again every `program_poll_s` (ADR 019)."""
        session = line.session_id
        if line.task_input != "shell" or self._inspector is None or session is None \
                or line.mailbox.depth == 0:
            return False
        if self._inspector.foreground(session) is None:
            return False
        if not line.program_check:
            line.program_check = True
            self._scheduler.call_later(self._config.program_poll_s,
                                       lambda: self._program_checked(line, session))
        return True

    def _program_checked(self, line: AgentLine, session: str) -> None:
        with self._lock:
            line.program_check = False
            effects = self._advance(line) if line.session_id == session else []
        self._run(effects)

    def _advance_headless(self, line: AgentLine) -> list[Effect]:
        """No terminal, a structured profile: the next ticket runs as a headless turn."""
        if line.headless_ticket is not None or self._headless is None:
            return []
        ticket = line.mailbox.start_next()
        if ticket is None:
            line.headless = False
            return []
        line.activity = "busy"
        line.headless_ticket = ticket.id
        root, agent, headless = line.root, line.agent_id, self._headless
        done = partial(self._headless_done, line, ticket.id)
        return [self._activity(line), self._publish_delegation(line, ticket, "active"),
                lambda: self._conversations.prompt(root, ticket),
                lambda: headless.run(root, agent, ticket, done)]

    def _headless_done(self, line: AgentLine, ticket_id: str, reply: str | None,
                       error: AppError | None) -> None:
        with self._lock:
            current = line.mailbox.current
            if line.headless_ticket != ticket_id or current is None or current.id != ticket_id:
                return
            line.headless_ticket = None
            if error is None:
                outcome = Outcome(reply=reply or "")
            else:
                outcome = Outcome(code=error.code,
                                  message=f"{line.name}'s headless turn failed: {error.message}",
                                  details={**error.details, "outputTail": error.message})
            effects = self._end_turn(line, outcome)
        self._run(effects)

    def _keep_task(self, path: str, text: str) -> None:
        """A task too long to type goes in a file the typed line points to."""
        self._files.make_dirs(path.rsplit("/", 1)[0])
        self._files.write_text_atomic(path, text)

    def _route(self, line: AgentLine) -> list[Effect]:
        """Send the current turn's text to a view showing the session, or type it headless
        once the human's line there is clean."""
        delivery, session = line.delivery, line.session_id
        if delivery is None or delivery.delivered or session is None:
            return []
        views = sorted(self._views.views_of(session))
        if views:
            delivery.view = views[0]
            event = DelegationReady(line.root, line.agent_id, session, views[0],
                                    delivery.ticket, delivery.text, line.submit_sequence,
                                    line.submit_delay_ms, line.human_dirty,
                                    line.waiting_screens)
            return [lambda: self._events.publish(event)]
        delivery.view = None
        if line.human_dirty:
            return []  # text left on the line: typed once a portal reports it clean
        self._typing_began(line)
        return [lambda: self._type_headless(session, delivery.text, line.submit_sequence,
                                            line.submit_delay_ms)]

    def _typing_began(self, line: AgentLine) -> None:
        """The current turn's text is being typed: its output, prompt watch and clock start."""
        delivery = line.delivery
        if delivery is None or delivery.delivered:
            return
        delivery.delivered = True
        line.forget_turn_output()
        if line.prompt_pattern:
            delivery.watch = PromptWatch(line.prompt_pattern, delivery.text)
        if line.asking:
            line.turn_left = self._config.turn_timeout_s
        else:
            self._arm_turn(line, self._config.turn_timeout_s)
        current = line.mailbox.current
        if current is not None and done_once_typed(line.task_input, current.kind):
            self._turn_looked_over(line, {}, said="")  # after the grace: the submit lands first

    def _type_headless(self, session: str, text: str, submit: str | None,
                       delay_ms: int | None) -> None:
        """The write portal of a session no window shows: no human line to wait for."""
        try:
            self._terminals.inject(session, text)
        except AppError:
            return
        delay = (DEFAULT_SUBMIT_DELAY_MS if delay_ms is None else delay_ms) / 1000

        def submit_now() -> None:
            try:
                self._terminals.inject(session, DEFAULT_SUBMIT if submit is None else submit)
            except AppError:
                pass

        self._scheduler.call_later(delay, submit_now)

    def _end_turn(self, line: AgentLine, outcome: Outcome,
                  replied: bool = False) -> list[Effect]:
        """The current turn is over with `outcome`; the next one may start (after a reply,
        once the CLI is back: `_settle_after_reply`)."""
        ticket = line.mailbox.end_turn()
        for timer in (line.turn_timer, line.grace_timer):
            if timer is not None:
                timer.cancel()
        line.turn_timer = line.grace_timer = None
        line.turn_left = None
        line.asking.clear()
        line.delivery = None
        line.blocked_on = None
        overdue, line.overdue = line.overdue, False
        if line.activity in ("busy", "waiting", "blocked"):
            line.activity = "idle" if line.session_id is not None else "stopped"
        effects: list[Effect] = []
        if ticket is not None:
            orphaned = ticket.id in line.orphaned  # reported failed when its asker left
            said = outcome.reply if outcome.code is None else outcome.details.get("outputTail")
            if isinstance(said, str) and said and outcome.code not in (None, AGENT_ERROR):
                # A turn IdeA saw fail (the CLI's error, a timeout) is logged and handed off as
                # such, not as the agent's answer; an error the agent reported is its own words.
                said = f"[{outcome.code}] {said}"
            if isinstance(said, str) and said and orphaned:
                # Its asker withdrew the ask mid-turn: the answer reached nobody, and the log
                # and the handoff say so (a trial read it as an ordinary exchange).
                said = f"[{CANCELLED}] answered after the ask was withdrawn; nobody received " \
                       f"it: {said}"
            if isinstance(said, str) and said:
                effects.append(partial(self._conversations.response, line.root, ticket, said))
            waiter = line.waiters.pop(ticket.id, None)
            if waiter is not None:
                effects.append(partial(waiter.settle, outcome))
            if ticket.kind == "ask":
                effects += self._ask_over(line.root, ticket)
            line.orphaned.discard(ticket.id)
            if orphaned:
                log.info("%s: %s answered ticket %s, whose asker had left: logged only",
                         line.root, line.name, ticket.id)
            elif not overdue:  # an overdue one was reported failed at its timeout
                effects.append(self._publish_delegation(line, ticket,
                                                        "failed" if outcome.code else "done",
                                                        outcome.code))
        if replied and line.session_id is not None:
            effects += self._settle_after_reply(line)
        effects.append(self._activity(line))
        return effects + self._advance(line)

    def _settle_after_reply(self, line: AgentLine) -> list[Effect]:
        """After a reply the CLI still prints (the tool call's result, its prompt): the next
        task is typed once it is back — its prompt, a stop hook, or `settle_quiet_s` of quiet
        (at most `settle_max_s`)."""
        session = line.session_id
        line.settling_since = self._scheduler.monotonic()
        line.settle_watch = PromptWatch(line.prompt_pattern) if line.prompt_pattern else None
        self._scheduler.call_later(self._config.settle_poll_s,
                                   lambda: self._poll_after_reply(line, session))
        return []

    def _poll_after_reply(self, line: AgentLine, session: str | None) -> None:
        now = self._scheduler.monotonic()
        with self._lock:
            since = line.settling_since
            if since is None or line.session_id != session:
                return
            last = max(since, line.last_output_at or since)
            done = (now - last >= self._config.settle_quiet_s
                    or now - since >= self._config.settle_max_s)
            effects = self._settled(line) if done else []
        self._run(effects)
        if not done:
            self._scheduler.call_later(self._config.settle_poll_s,
                                       lambda: self._poll_after_reply(line, session))

    def _settled(self, line: AgentLine) -> list[Effect]:
        line.settling_since, line.settle_watch = None, None
        return self._advance(line)

    def _turn_looked_over(self, line: AgentLine, payload: dict[str, Any],
                          said: str | None = None) -> list[Effect]:
        """The CLI looks done (prompt back, stop hook, a message typed into a shell): a reply
        may still be on its way; after a short grace the turn ends without one, having said
        `said` (by default the hook's last message, else the turn's output tail)."""
        if line.grace_timer is not None or line.mailbox.current is None:
            return []
        ticket_id = line.mailbox.current.id
        if said is None:
            last = payload.get("last_assistant_message") or payload.get("last-assistant-message")
            said = last if isinstance(last, str) and last.strip() else tail(
                "".join(line.tail), 2_000)
        line.grace_timer = self._scheduler.call_later(
            self._config.reply_grace_s, lambda: self._no_reply(line, ticket_id, said))
        return []

    def _no_reply(self, line: AgentLine, ticket_id: str, said: str) -> None:
        with self._lock:
            current = line.mailbox.current
            if current is None or current.id != ticket_id:
                return
            line.grace_timer = None
            message = (f"{line.name} ended its turn without idea_reply" +
                       (f"; its last output: {said}" if said else ""))
            outcome = (Outcome(reply=said) if current.kind == "message" else
                       Outcome(code=NO_REPLY, message=message, details={"outputTail": said}))
            effects = self._end_turn(line, outcome)
        self._run(effects)

    def _timed_out(self, line: AgentLine, ticket_id: str) -> None:
        """The turn's time is up: its asker is answered TIMEOUT at once; the turn itself goes
        on until the CLI looks done or replies (never typing the next task into a CLI still at
        work), and ends for good after one more timeout."""
        with self._lock:
            current = line.mailbox.current
            if current is None or current.id != ticket_id:
                return
            seconds = round(self._config.turn_timeout_s)
            if line.overdue:
                effects = self._end_turn(line, Outcome(code=TIMEOUT, message="overdue"))
            else:
                line.overdue = True
                line.turn_timer = None
                outcome = Outcome(code=TIMEOUT, message=(
                    f"{line.name} did not answer within {seconds} s (it goes on with this "
                    "task; its answer, if any, is kept in your conversation log)"),
                    details={"timeoutS": seconds})
                waiter = line.waiters.pop(current.id, None)
                effects = [partial(waiter.settle, outcome)] if waiter is not None else []
                if current.kind == "ask":
                    effects += self._ask_over(line.root, current)
                if current.id not in line.orphaned:  # reported already when its asker left
                    effects.append(self._publish_delegation(line, current, "failed", TIMEOUT))
                self._arm_turn(line, self._config.turn_timeout_s)
        self._run(effects)

    # ------------------------------------------------------------------ sessions (bus)
    def on_event(self, event: DomainEvent) -> None:
        """Event-bus handler: agent sessions starting and ending."""
        if isinstance(event, SessionStarted) and event.session.kind == "agent" \
                and event.session.agent_id is not None:
            self._started(event.root, event.session.agent_id, event.session.title,
                          event.session.session_id)
        elif isinstance(event, SessionExited):
            self._exited(event.session_id, event.exit_code)

    def _started(self, root: str, agent_id: str, name: str, session_id: str) -> None:
        profile = self._profile_of(root, agent_id)
        with self._lock:
            line = self._line(root, agent_id, name)
            line.session_id, line.started_at = session_id, self._scheduler.monotonic()
            line.last_output_at = None
            line.settling_since = line.settle_watch = None
            line.human_dirty = False
            line.headless = False  # its terminal takes the next turns
            line.activity = "starting"
            line.engine_id = None
            line.profile_id = profile.id if profile is not None else None
            if profile is not None:
                line.prompt_pattern = profile.prompt_ready_pattern
                line.submit_sequence = profile.submit_sequence
                line.submit_delay_ms = profile.submit_delay_ms
                line.waiting_screens = profile.waiting_screens
            line.task_input = task_input_of(profile) if profile is not None else "prompt"
            self._by_session[session_id] = line
            effects = [self._activity(line)]
        self._run(effects)
        self._scheduler.call_later(self._config.settle_poll_s, lambda: self._poll_settle(line,
                                                                                        session_id))

    def _profile_of(self, root: str, agent_id: str) -> Any:
        try:
            with self._projects.locked(root) as state:
                profile_id = require_manifest(state).get(agent_id).profile_id
            return next((p for p in self._profiles.execute() if p.id == profile_id), None)
        except AppError:
            return None

    def _poll_settle(self, line: AgentLine, session_id: str) -> None:
        now = self._scheduler.monotonic()
        with self._lock:
            if line.session_id != session_id or line.activity != "starting":
                return
            quiet = (line.last_output_at is not None
                     and now - line.last_output_at >= self._config.settle_quiet_s)
            if not (quiet or now - line.started_at >= self._config.settle_max_s):
                effects: list[Effect] = []
                again = True
            else:
                effects, again = self._settle(line), False
        self._run(effects)
        if again:
            self._scheduler.call_later(self._config.settle_poll_s,
                                       lambda: self._poll_settle(line, session_id))

    def _settle(self, line: AgentLine) -> list[Effect]:
        """The launched CLI is ready for its first turn."""
        if line.activity != "starting":
            return []
        line.activity = "idle"
        return [self._activity(line), *self._advance(line)]

    def _exited(self, session_id: str, exit_code: int | None) -> None:
        with self._lock:
            line = self._by_session.pop(session_id, None)
            if line is None or line.session_id != session_id:
                return
            line.session_id = None
            effects: list[Effect] = []
            if line.mailbox.current is not None:
                effects += self._end_turn(line, Outcome(
                    code=NO_REPLY, message=f"{line.name} exited (code {exit_code}) before "
                                           "answering", details={"exitCode": exit_code}))
            line.activity, line.blocked_on = "stopped", None
            root, agent = line.root, line.agent_id
            effects.append(lambda: self._escalations.withdraw(
                root, agent, f"{line.name} exited before you answered"))
            for ticket in list(line.mailbox.waiting()):  # askers would wait for nobody
                if ticket.kind == "ask":
                    line.mailbox.withdraw(ticket.id)
                    effects += self._ask_over(line.root, ticket)
                    waiter = line.waiters.pop(ticket.id, None)
                    outcome = Outcome(code=NO_REPLY, message=f"{line.name} exited before "
                                                             "getting to this task")
                    if waiter is not None:
                        effects.append(partial(waiter.settle, outcome))
                    effects.append(self._publish_delegation(line, ticket, "failed", NO_REPLY))
            effects.append(self._activity(line))
            effects += self._asker_gone(line)
        self._run(effects)

    def _asker_gone(self, asker: AgentLine) -> list[Effect]:
        """`asker` exited: what it asked others is withdrawn (queued) or unwatched (under
        way), so nobody works for it unheard and the wait-for graph forgets it."""
        effects: list[Effect] = []
        for line in list(self._lines.values()):
            if line.root != asker.root or line is asker:
                continue
            tickets = [*line.mailbox.waiting(), *filter(None, [line.mailbox.current])]
            for ticket in tickets:
                if ticket.kind == "ask" and ticket.requester == asker.agent_id:
                    effects += self._abandoned(line, ticket.id,
                                               f"{asker.name} exited before the answer")
        return effects

    def on_output(self, chunk: TerminalChunk) -> None:
        """Terminal-output tap (reader thread): readiness, the turn's output, prompt-ready."""
        line = self._by_session.get(chunk.session_id)
        if line is None:
            return
        with self._lock:
            line.last_output_at = self._scheduler.monotonic()
            if line.settle_watch is not None and line.settle_watch.feed(chunk.text):
                effects = self._settled(line)
            else:
                effects = self._turn_output(line, chunk.text)
        self._run(effects)

    def _turn_output(self, line: AgentLine, text: str) -> list[Effect]:
        delivery = line.delivery
        if delivery is None or not delivery.delivered:
            return []
        line.remember(text)
        if delivery.watch is None or delivery.prompt_seen or not delivery.watch.feed(text):
            return []
        delivery.prompt_seen = True
        return self._turn_looked_over(line, {})

    # ------------------------------------------------------------------ views (portal)
    def _on_view(self, session_id: str, view: str, attached: bool) -> None:
        """A view appeared or went: a pending delivery follows it (re-sent, or typed
        headless when its view left before typing it)."""
        with self._lock:
            line = self._by_session.get(session_id)
            delivery = line.delivery if line is not None else None
            if line is None or delivery is None or delivery.delivered:
                return
            if attached and delivery.view is not None and delivery.view != view:
                return  # another view is already typing it
            if not attached and delivery.view != view:
                return
            effects = self._route(line)
        self._run(effects)

    # ------------------------------------------------------------------ events
    def _activity(self, line: AgentLine) -> Effect:
        current = line.mailbox.current
        event = AgentActivityChanged(line.root, line.agent_id, line.activity,
                                     line.mailbox.depth, current.id if current else None,
                                     line.blocked_on)
        return lambda: self._events.publish(event)

    def _publish_delegation(self, line: AgentLine, ticket: Ticket, state: Any,
                            reason: str | None = None) -> Effect:
        event = DelegationChanged(line.root, ticket.id, ticket.requester, ticket.target, state,
                                  reason, ticket.kind)
        return lambda: self._events.publish(event)

    @staticmethod
    def _run(effects: list[Effect]) -> None:
        for effect in effects:
            try:
                effect()
            except Exception:
                log.exception("delegation effect failed")
