"""Headless turns (SPEC C8 "structured turns", issue 10 item 4): a task for an agent that has no
live terminal, when its profile speaks a structured protocol, runs as one turn of an
`AgentSession` (ACP, Claude stream-json, Codex exec) instead of launching a PTY.

The run dir is prepared exactly as for a terminal launch (`LaunchAgent.prepare`: persona,
skills, memory, handoffs, vendor projection), with a fresh launch token granted for the turn
so the agent can itself use IdeA's doors (an ask of its own, a hook). The pair's engine session
id for this profile (`providers.json`) resumes the vendor's conversation, and the turn's new id
is stored back. What the turn does — text, tool activity, permission requests (put to the user
as an escalation), its end — is published as `HeadlessActivity` and kept, bounded, for a window
that opens later. One turn at a time per agent; while it runs the agent counts as live
(`ProjectState.headless`), so a terminal launch is refused with `AGENT_ALREADY_RUNNING`.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.core.domain.agent_session import (
    Final,
    PermissionRequest,
    RateLimited,
    TextDelta,
    ToolActivity,
    TurnEvent,
)
from app.core.domain.conversation import conversation_id
from app.core.domain.delegation import AgentCaller, Ticket
from app.core.domain.headless import Protocol, headless_prompt, structured_protocol, structured_spec
from app.core.domain.profiles import Profile
from app.core.errors import INTERNAL, NOT_FOUND, SESSION_ERROR, AppError
from app.core.events import HeadlessActivity
from app.core.ports import AgentSession, AgentSessions, EventSink, TokenSource
from app.core.usecases.launch_agent import LaunchAgent
from app.core.usecases.profiles import LoadProfiles
from app.core.usecases.project_files import require_manifest
from app.services.conversations import ConversationService
from app.services.credentials import Credentials
from app.services.escalations import Escalations
from app.services.open_projects import OpenProjects

log = logging.getLogger(__name__)

#: Entries of an agent's headless transcript kept for windows that open later.
TRANSCRIPT_ENTRIES = 500
#: A text delta longer than this is cut in the transcript (characters; the reply is whole).
ENTRY_CHARS = 4_000


@dataclass(frozen=True)
class Entry:
    """One line of a headless transcript: `kind` `started` (the prompt), `text`, `tool`,
    `permission`, `rateLimited`, `final` or `error`; `ticket` the turn's."""

    ticket: str
    kind: str
    text: str
    at_ms: int


Done = Callable[[str | None, AppError | None], None]


class HeadlessTurns:
    """Runs headless turns on worker threads; `done(reply, error)` is called once per turn."""

    def __init__(self, projects: OpenProjects, launch: LaunchAgent, profiles: LoadProfiles,
                 sessions: Mapping[str, AgentSessions], credentials: Credentials,
                 tokens: TokenSource, conversations: ConversationService,
                 escalations: Escalations, events: EventSink, now_ms: Callable[[], int],
                 turn_timeout_s: float = 300.0) -> None:
        self._projects, self._launch, self._profiles = projects, launch, profiles
        self._sessions, self._credentials, self._tokens = sessions, credentials, tokens
        self._conversations, self._escalations = conversations, escalations
        self._events, self._now_ms, self._timeout_s = events, now_ms, turn_timeout_s
        self._lock = threading.Lock()
        self._transcripts: dict[tuple[str, str], deque[Entry]] = {}
        self._live: dict[tuple[str, str], AgentSession] = {}

    def protocol_of(self, root: str, agent_id: str) -> Protocol | None:
        """The structured protocol agent `agent_id` would run a headless turn with, or None
        (its profile has none, or IdeA has no adapter for it)."""
        profile = self._profile(root, agent_id)
        protocol = structured_protocol(profile) if profile is not None else None
        return protocol if protocol in self._sessions else None

    def transcript(self, root: str, agent_id: str) -> list[Entry]:
        """The agent's recent headless activity, oldest first (bounded)."""
        with self._lock:
            return list(self._transcripts.get((root, agent_id), ()))

    def run(self, root: str, agent_id: str, ticket: Ticket, done: Done) -> None:
        """Start `ticket`'s turn on a worker thread (returns at once)."""
        threading.Thread(target=self._turn, args=(root, agent_id, ticket, done),
                         name=f"headless-{agent_id[:8]}", daemon=True).start()

    def close(self) -> None:
        """App exit: every running turn's session is closed (its turn ends with an error)."""
        with self._lock:
            live = list(self._live.values())
        for session in live:
            session.close()

    def stop(self, root: str, agent_id: str) -> bool:
        """Close the structured session of agent `agent_id`'s running turn (a profile swap):
        the turn ends with an error for its asker. False when no session is open (none runs,
        or one is still starting: that turn finishes under the profile it started with)."""
        with self._lock:
            session = self._live.get((root, agent_id))
        if session is None:
            return False
        session.close()
        return True

    # ------------------------------------------------------------------ one turn (worker)
    def _turn(self, root: str, agent_id: str, ticket: Ticket, done: Done) -> None:
        reply: str | None = None
        error: AppError | None = None
        held: list[str] = []  # the turn's session id, once it has one
        try:
            reply = self._run_turn(root, agent_id, ticket, held)
        except AppError as exc:
            error = exc
        except Exception:
            log.exception("headless turn of %s failed", agent_id)
            error = AppError(INTERNAL, "IdeA failed running this headless turn (see its log)")
        finally:
            self._finish(root, agent_id, held[0] if held else None)
        if error is not None:
            self._note(root, agent_id, ticket.id, "error", error.message)
        try:
            done(reply, error)
        except Exception:
            log.exception("headless turn end of %s failed", agent_id)

    def _run_turn(self, root: str, agent_id: str, ticket: Ticket, held: list[str]) -> str:
        profiles = self._profiles.execute()
        handle = self._projects.get(root, in_tab=False)
        with handle.lock:
            state = handle.state
            entry = require_manifest(state).get(agent_id)
            token = self._tokens.new_token() if state.endpoint is not None else None
            prepared = self._launch.prepare(state, agent_id, profiles, token)
            session_id = prepared.plan.spawn.session_id
            state.headless[agent_id] = session_id
            held.append(session_id)
        if token is not None:
            self._credentials.grant(AgentCaller(root, agent_id, entry.name, session_id), token)
        protocol = structured_protocol(prepared.profile)
        sessions = self._sessions.get(protocol) if protocol is not None else None
        if protocol is None or sessions is None:
            raise AppError(SESSION_ERROR, f"{entry.name}'s profile has no structured adapter IdeA "
                                          "can run headless")
        conversation = conversation_id(ticket.requester, agent_id)
        resume = self._conversations.provider_id(root, conversation, prepared.profile.id)
        spec = structured_spec(prepared.plan, protocol, prepared.delegation, resume,
                               self._timeout_s)
        self._note(root, agent_id, ticket.id, "started", ticket.text)
        session = sessions.start(spec)
        with self._lock:
            self._live[(root, agent_id)] = session
        try:
            final = session.prompt(headless_prompt(ticket),
                                   lambda event: self._on_event(root, agent_id, ticket, session,
                                                                event))
        finally:
            engine_id = session.engine_session_id
            session.close()
            if engine_id:
                self._remember(root, conversation, prepared.profile, engine_id)
        if final.engine_session_id and final.engine_session_id != engine_id:
            self._remember(root, conversation, prepared.profile, final.engine_session_id)
        if final.is_error:
            raise AppError(SESSION_ERROR, final.error_message or final.text or
                           f"{entry.name}'s turn failed")
        self._note(root, agent_id, ticket.id, "final", final.text)
        return final.text

    def _remember(self, root: str, conversation: str, profile: Profile, engine_id: str) -> None:
        try:
            self._conversations.set_provider_id(root, conversation, profile.id, engine_id)
        except AppError as exc:  # a corrupt providers.json is reported, never overwritten
            log.warning("engine session id not kept: %s", exc.message)

    def _finish(self, root: str, agent_id: str, session_id: str | None) -> None:
        with self._lock:
            self._live.pop((root, agent_id), None)
        if session_id is not None:
            self._credentials.revoke(session_id)
        try:
            handle = self._projects.get(root, in_tab=False)
        except AppError:
            handle = None  # the project closed meanwhile
        if handle is not None and session_id is not None:
            with handle.lock:
                if handle.state.headless.get(agent_id) == session_id:
                    del handle.state.headless[agent_id]
        self._escalations.withdraw(root, agent_id, "its headless turn ended")

    # ------------------------------------------------------------------ events (worker)
    def _on_event(self, root: str, agent_id: str, ticket: Ticket, session: AgentSession,
                  event: TurnEvent) -> None:
        if isinstance(event, TextDelta):
            self._note(root, agent_id, ticket.id, "text", event.text[:ENTRY_CHARS])
        elif isinstance(event, ToolActivity):
            detail = f" {event.detail}" if event.detail else ""
            self._note(root, agent_id, ticket.id, "tool", f"{event.label}{detail}")
        elif isinstance(event, PermissionRequest):
            self._note(root, agent_id, ticket.id, "permission", event.title)
            threading.Thread(target=self._ask_permission,
                             args=(root, agent_id, session, event), daemon=True).start()
        elif isinstance(event, RateLimited):
            when = f" until {event.resets_at_ms}" if event.resets_at_ms else ""
            self._note(root, agent_id, ticket.id, "rateLimited", f"rate limited{when}")
        elif isinstance(event, Final):
            pass  # the turn's result, handled by `_run_turn`

    def _ask_permission(self, root: str, agent_id: str, session: AgentSession,
                        request: PermissionRequest) -> None:
        """The user decides (an escalation with the options as buttons); anything else
        denies. The adapter denies on its own when nobody answers in time."""
        names = [option.name for option in request.options]
        try:
            choice = self._escalations.ask_user(root, agent_id, names,
                                                f"Permission: {request.title}")
        except AppError:
            choice = None
        option = next((o for o in request.options if o.name == choice), None)
        try:
            session.respond_permission(request.request_id,
                                       option.option_id if option else None)
        except AppError as exc:
            if exc.code != NOT_FOUND:  # NOT_FOUND: answered by its timeout already
                log.warning("permission answer not taken: %s", exc.message)

    def _note(self, root: str, agent_id: str, ticket: str, kind: str, text: str) -> None:
        entry = Entry(ticket, kind, text, self._now_ms())
        with self._lock:
            ring = self._transcripts.setdefault((root, agent_id),
                                                deque(maxlen=TRANSCRIPT_ENTRIES))
            ring.append(entry)
        self._events.publish(HeadlessActivity(root, agent_id, ticket, kind, text, entry.at_ms))

    def _profile(self, root: str, agent_id: str) -> Profile | None:
        try:
            handle = self._projects.get(root, in_tab=False)
            with handle.lock:
                profile_id = require_manifest(handle.state).get(agent_id).profile_id
        except AppError:
            return None
        return next((p for p in self._profiles.execute() if p.id == profile_id), None)
