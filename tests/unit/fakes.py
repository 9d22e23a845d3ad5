"""Hand-written fakes of the core ports (no I/O, no sleeps)."""

from __future__ import annotations

import posixpath
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.core.domain.agent_session import (
    Final,
    PermissionRequest,
    StructuredSpec,
    TurnEvent,
)
from app.core.domain.delegation import AgentCaller
from app.core.domain.detection import Detection
from app.core.domain.launch_plan import Delegation, PlannedFile, Projection
from app.core.domain.permission_rules import EffectivePermissions
from app.core.domain.profiles import Profile
from app.core.domain.sandbox import (
    CliNeed,
    SandboxPlan,
    SandboxRefused,
    SandboxStatus,
    must_refuse,
    sandbox_status,
)
from app.core.domain.sessions import SpawnSpec, TerminalChunk
from app.core.errors import (
    ALREADY_EXISTS,
    CANCELLED,
    FORBIDDEN,
    INVALID,
    NOT_FOUND,
    NOT_WRITABLE,
    SESSION_ERROR,
    TIMEOUT,
    AppError,
)
from app.core.events import DomainEvent
from app.core.ports import ConnectionHandler, Hangup, TerminalListener


class FakeFileSystem:
    """In-memory files and dirs; `read_only` dirs (and their subtrees) refuse writes."""

    def __init__(self, dirs: set[str] | None = None, read_only: set[str] | None = None) -> None:
        self.files: dict[str, str] = {}
        self.dirs: set[str] = {"/"} | set(dirs or set())
        self.read_only: set[str] = set(read_only or set())
        self.writes: list[str] = []
        self.executable: set[str] = set()
        for d in list(self.dirs):
            self._add_parents(d)

    def _add_parents(self, path: str) -> None:
        while path not in ("/", ""):
            self.dirs.add(path)
            path = posixpath.dirname(path)

    def _locked(self, path: str) -> bool:
        return any(path == ro or path.startswith(ro + "/") for ro in self.read_only)

    def read_text(self, path: str, *, exact: bool = False) -> str | None:
        text = self.files.get(path)
        if text is None or exact:
            return text
        return text.replace("\r\n", "\n").replace("\r", "\n")  # as the real one reads

    def write_text_atomic(self, path: str, text: str) -> None:
        parent = posixpath.dirname(path)
        if self._locked(path) or parent not in self.dirs:
            raise AppError(NOT_WRITABLE, f"cannot write {path}")
        self.files[path] = text
        self.writes.append(path)

    def append_line(self, path: str, line: str) -> None:
        parent = posixpath.dirname(path)
        if self._locked(path) or parent not in self.dirs:
            raise AppError(NOT_WRITABLE, f"cannot write {path}")
        old = self.files.get(path, "")
        self.files[path] = old + ("\n" if old and not old.endswith("\n") else "") + line + "\n"
        self.writes.append(path)

    def list_dir(self, path: str) -> list[str]:
        names = {p[len(path) + 1:].split("/", 1)[0] for p in [*self.files, *self.dirs]
                 if p.startswith(path + "/")}
        return sorted(names)

    def make_executable(self, path: str) -> None:
        if path not in self.files:
            raise AppError(NOT_WRITABLE, f"cannot make {path} executable")
        self.executable.add(path)

    def make_dirs(self, path: str) -> None:
        if self._locked(path):
            raise AppError(NOT_WRITABLE, f"cannot create {path}")
        self._add_parents(path)

    def exists(self, path: str) -> bool:
        return path in self.files or path in self.dirs

    def is_dir(self, path: str) -> bool:
        return path in self.dirs

    def is_writable_dir(self, path: str) -> bool:
        return path in self.dirs and not self._locked(path)

    def remove_tree(self, path: str) -> None:
        self.files = {p: t for p, t in self.files.items()
                      if p != path and not p.startswith(path + "/")}
        self.dirs = {d for d in self.dirs if d != path and not d.startswith(path + "/")}

    def move(self, path: str, target: str) -> None:
        if self._locked(path) or path not in self.files or self.exists(target):
            raise AppError(NOT_WRITABLE, f"cannot move {path} to {target}")
        self.files[target] = self.files.pop(path)
        self.writes.append(target)


class FakeTerminalHost:
    """The `TerminalHost` port in memory: spawned specs are recorded; sessions stay alive until
    `exit()`/`kill()`; `emit()` plays the reader thread (offsets in UTF-16 units, as the real
    host stamps them). `kill` ends the session at once and reports the exit (code None)."""

    def __init__(self) -> None:
        self.listener: TerminalListener | None = None
        self.specs: list[SpawnSpec] = []
        self.alive: set[str] = set()
        self.known: set[str] = set()
        self.killed: list[str] = []
        self.forgotten: list[str] = []
        self.writes: list[tuple[str, int, str]] = []
        self.injected: list[tuple[str, str]] = []
        self.sizes: list[tuple[str, int, int]] = []
        self.acks: list[tuple[str, int]] = []
        self.flow: dict[str, bool] = {}
        self.windows: list[tuple[str, int, int]] = []
        self.units: dict[str, int] = {}
        self.running: dict[str, str] = {}  # session → its foreground program (ProcessInspector)

    def foreground(self, session_id: str) -> str | None:
        return self.running.get(session_id)

    def cwd(self, session_id: str) -> str | None:
        return None

    def set_listener(self, listener: TerminalListener) -> None:
        self.listener = listener

    def spawn(self, spec: SpawnSpec) -> str:
        self.specs.append(spec)
        self.alive.add(spec.session_id)
        self.known.add(spec.session_id)
        return spec.session_id

    def emit(self, session_id: str, text: str) -> TerminalChunk:
        offset = self.units.get(session_id, 0)
        end = offset + len(text.encode("utf-16-le")) // 2
        self.units[session_id] = end
        chunk = TerminalChunk(session_id, offset, end, text)
        if self.listener is not None:
            self.listener.output(chunk)
        return chunk

    def exit(self, session_id: str, code: int | None = 0) -> None:
        self.alive.discard(session_id)
        if self.listener is not None:
            self.listener.exited(session_id, code)

    def _known(self, session_id: str) -> None:
        if session_id not in self.known:
            raise AppError(NOT_FOUND, f"no terminal session {session_id}")

    def write(self, session_id: str, seq: int, data: str) -> None:
        self._known(session_id)
        self.writes.append((session_id, seq, data))

    def inject(self, session_id: str, data: str) -> None:
        self._known(session_id)
        self.injected.append((session_id, data))

    def resize(self, session_id: str, cols: int, rows: int) -> None:
        self._known(session_id)
        self.sizes.append((session_id, cols, rows))

    def kill(self, session_id: str) -> None:
        self._known(session_id)
        self.killed.append(session_id)
        if session_id in self.alive:
            self.exit(session_id, None)

    def is_alive(self, session_id: str) -> bool:
        return session_id in self.alive

    def ack(self, session_id: str, chars: int) -> None:
        self.acks.append((session_id, chars))

    def set_flow_control(self, session_id: str, enabled: bool) -> None:
        self._known(session_id)
        self.flow[session_id] = enabled

    def set_flow_window(self, session_id: str, high: int, low: int) -> None:
        self.windows.append((session_id, high, low))

    def forget(self, session_id: str) -> None:
        if session_id in self.alive:
            raise AppError(INVALID, f"session still running: {session_id}")
        self.known.discard(session_id)
        self.forgotten.append(session_id)

    def session_ids(self) -> list[str]:
        return sorted(self.known)

    def close_all(self, timeout_ms: int = 3_000) -> None:
        for session_id in sorted(self.alive):
            self.kill(session_id)


@dataclass
class FakeResolver:
    """`which` answers from a fixed table of installed commands."""

    installed: dict[str, str] = field(default_factory=dict)

    def which(self, command: str) -> str | None:
        return self.installed.get(command)


@dataclass
class FakeDetector:
    """`detect` answers from a fixed table of version lines (a command not in it is missing;
    one in `outcomes` answers that); records calls."""

    versions: dict[str, str] = field(default_factory=dict)
    calls: list[tuple[str, list[str] | None, int]] = field(default_factory=list)
    outcomes: dict[str, Detection] = field(default_factory=dict)

    def detect(self, command: str, args: list[str] | None, timeout_ms: int) -> Detection:
        self.calls.append((command, args, timeout_ms))
        if command in self.outcomes:
            return self.outcomes[command]
        version = self.versions.get(command)
        if version is None:
            return Detection("missing", output=f"{command}: not found on the PATH")
        path = command if command.startswith("/") else f"/usr/bin/{command}"
        if args is None:
            return Detection("installed", path=path)
        return Detection("installed", path=path, version=version, output=version, exit_code=0)


@dataclass
class FakeClock:
    now: int = 1_700_000_000_000

    def now_ms(self) -> int:
        return self.now


class SequentialIds:
    """Ids `id-1`, `id-2`, … (deterministic)."""

    def __init__(self, prefix: str = "id") -> None:
        self.prefix, self.count = prefix, 0

    def new_id(self) -> str:
        self.count += 1
        return f"{self.prefix}-{self.count}"


@dataclass
class FakeEventSink:
    events: list[DomainEvent] = field(default_factory=list)

    def publish(self, event: DomainEvent) -> None:
        self.events.append(event)


class SequentialTokens:
    """Tokens `token-1`, `token-2`, … (deterministic)."""

    def __init__(self) -> None:
        self.count = 0

    def new_token(self) -> str:
        self.count += 1
        return f"token-{self.count}"


class FakeProjector:
    """A `LaunchProjector` that records what it was asked and adds one marker file."""

    def __init__(self, mcp: bool = True) -> None:
        self.calls: list[tuple[str, Delegation]] = []
        self.mcp = mcp

    def project(self, profile: Profile, delegation: Delegation) -> Projection:
        self.calls.append((profile.id, delegation))
        marker = PlannedFile(f"{delegation.run_dir}/bin/idea", "#!/bin/sh\n", executable=True)
        return Projection(files=(marker,), env={"IDEA_TOKEN": delegation.token}, mcp=self.mcp)


class _ManualTimer:
    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due, self.callback, self.cancelled = due, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """A `Scheduler` whose time only moves with `advance(seconds)` (no thread, no sleep)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[_ManualTimer] = []

    def monotonic(self) -> float:
        return self.now

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> _ManualTimer:
        timer = _ManualTimer(self.now + delay_s, callback)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        """Move time forward, running every timer that falls due, in order."""
        end = self.now + seconds
        while True:
            due = sorted((t for t in self.timers if not t.cancelled and t.due <= end),
                         key=lambda t: t.due)
            if not due:
                break
            timer = due[0]
            self.timers.remove(timer)
            self.now = max(self.now, timer.due)
            timer.callback()
        self.now = end

    def close(self) -> None:
        self.timers.clear()
class FakeEndpointHost:
    """The `EndpointHost` port in memory: `serve` hands out `/fake-endpoint/<n>.sock`; roots in
    `taken` are served by "another IdeA" (`ALREADY_EXISTS`)."""

    def __init__(self, taken: set[str] | None = None) -> None:
        self.handler: ConnectionHandler | None = None
        self.taken: set[str] = set(taken or set())
        self.served: dict[str, str] = {}
        self.stopped: list[str] = []
        self.closed = False
        self._count = 0

    def set_handler(self, handler: ConnectionHandler) -> None:
        self.handler = handler

    def serve(self, root: str) -> str:
        if root in self.taken:
            raise AppError(ALREADY_EXISTS, f"{root} is open in another IdeA")
        if root not in self.served:
            self._count += 1
            self.served[root] = f"/fake-endpoint/{self._count}.sock"
        return self.served[root]

    def stop(self, root: str) -> None:
        if self.served.pop(root, None) is not None:
            self.stopped.append(root)

    def close_all(self) -> None:
        for root in list(self.served):
            self.stop(root)
        self.closed = True


class FakeVerifier:
    """The `Verifier` port from a table `token -> AgentCaller`."""

    def __init__(self, grants: dict[str, AgentCaller] | None = None) -> None:
        self.grants: dict[str, AgentCaller] = dict(grants or {})

    def verify(self, root: str, requester: str, token: str) -> AgentCaller:
        caller = self.grants.get(token)
        if caller is None or caller.agent_id != requester or caller.root != root.rstrip("/"):
            raise AppError(FORBIDDEN, f"not allowed: this token does not belong to agent "
                                      f"{requester!r} of this project")
        return caller


@dataclass
class _PendingAsk:
    ticket: str
    caller: AgentCaller
    command: dict[str, Any]
    done: threading.Event = field(default_factory=threading.Event)
    outcome: str | AppError = ""


class FakeDispatcher:
    """The `Dispatcher` port, thread-safe: records every `(caller, command)`; answers
    `answers[type]` (a result dict, or an `AppError` to raise; default `{}`).

    With `block_asks`, `agent.ask` gets ticket `t<n>` and blocks until `agent.reply` names
    that ticket (or `release` is called); the reply is `{"ticket", "reply"}`. Without it an ask
    answers `{"ticket", "reply": "echo: <task>"}` at once."""

    def __init__(self, block_asks: bool = True, ask_timeout_s: float = 30.0) -> None:
        self.block_asks = block_asks
        self.ask_timeout_s = ask_timeout_s
        self.answers: dict[str, dict[str, Any] | AppError] = {}
        self.calls: list[tuple[AgentCaller, dict[str, Any]]] = []
        self.pending: dict[str, _PendingAsk] = {}
        self.hung_up: list[str] = []
        self._cond = threading.Condition()
        self._tickets = 0

    def dispatch(self, root: str, caller: AgentCaller, command: dict[str, Any],
                 hangup: Hangup | None = None) -> dict[str, Any]:
        kind = command.get("type")
        with self._cond:
            self.calls.append((caller, command))
            self._cond.notify_all()
        answer = self.answers.get(str(kind))
        if isinstance(answer, AppError):
            raise answer
        if kind == "agent.ask":
            return self._ask(caller, command, hangup)
        if kind == "agent.reply" and self.block_asks:
            ticket = str(command.get("ticket") or "")
            self.release(ticket, str(command.get("result", "")))
            return {"ticket": ticket}
        return dict(answer or {})

    def _ask(self, caller: AgentCaller, command: dict[str, Any],
             hangup: Hangup | None) -> dict[str, Any]:
        with self._cond:
            self._tickets += 1
            ask = _PendingAsk(f"t{self._tickets}", caller, command)
            if self.block_asks:
                self.pending[ask.ticket] = ask
            self._cond.notify_all()
        if hangup is not None and self.block_asks:
            hangup.on_hangup(lambda: self._hung_up(ask.ticket))
        if not self.block_asks:
            return {"ticket": ask.ticket, "reply": f"echo: {command.get('task')}"}
        if not ask.done.wait(self.ask_timeout_s):
            raise AppError(TIMEOUT, "fake ask never released")
        if isinstance(ask.outcome, AppError):
            raise ask.outcome
        return {"ticket": ask.ticket, "reply": ask.outcome}

    def _hung_up(self, ticket: str) -> None:
        with self._cond:
            self.hung_up.append(ticket)
            self._cond.notify_all()
        self.release(ticket, AppError(CANCELLED, "the asker hung up"))

    def wait_hung_up(self, count: int, timeout_s: float = 10.0) -> list[str]:
        """Block until `count` asks were hung up by their door; returns their tickets."""
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.hung_up) >= count, timeout_s):
                raise AssertionError(f"{len(self.hung_up)} asks hung up, wanted {count}")
            return list(self.hung_up)

    def release(self, ticket: str, outcome: str | AppError) -> None:
        """End the pending ask `ticket` with a reply text or an error; NOT_FOUND if none."""
        with self._cond:
            ask = self.pending.pop(ticket, None)
        if ask is None:
            raise AppError(NOT_FOUND, f"no pending ask with ticket {ticket!r}")
        ask.outcome = outcome
        ask.done.set()

    def wait_pending(self, count: int, timeout_s: float = 10.0) -> list[_PendingAsk]:
        """Block until `count` asks are pending; returns them in ticket order."""
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.pending) >= count, timeout_s):
                raise AssertionError(f"{len(self.pending)} asks pending, wanted {count}")
            return sorted(self.pending.values(), key=lambda a: int(a.ticket[1:]))

    def wait_calls(self, count: int, timeout_s: float = 10.0) -> list[tuple[AgentCaller,
                                                                          dict[str, Any]]]:
        """Block until `count` calls were recorded; returns them all."""
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.calls) >= count, timeout_s):
                raise AssertionError(f"{len(self.calls)} calls, wanted {count}")
            return list(self.calls)


class FakeSandboxEnforcer:
    """`SandboxEnforcer` of a pretend kernel with Landlock ABI `abi` (`None`: no Landlock).
    `enforce` records each plan it confined (in `confined`) and refuses like the real one."""

    def __init__(self, abi: int | None = 7, reason: str = "no Landlock here") -> None:
        self.abi = abi
        self.reason = reason
        self.confined: list[SandboxPlan] = []

    def status(self, plan: SandboxPlan | None) -> SandboxStatus:
        return sandbox_status(plan, self.abi, self.reason)

    def enforce(self, plan: SandboxPlan) -> SandboxStatus:
        status = self.status(plan)
        if must_refuse(plan, status):
            raise SandboxRefused(status)
        if status.confined:
            self.confined.append(plan)
        return status

    def refuses(self, plan: SandboxPlan) -> bool:
        return must_refuse(plan, self.status(plan))


class FakeCliNeeds:
    """`CliNeedsSource` giving every CLI the same needs: read on `/usr`, everything on `/tmp`
    (the run dir is always granted by the compiler); records each call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str | None]] = []

    def needs(self, command: str, run_dir: str, endpoint: str | None) -> tuple[CliNeed, ...]:
        self.calls.append((command, run_dir, endpoint))
        return (CliNeed("/usr", frozenset({"read"}), "system programs"),
                CliNeed("/tmp", frozenset({"read", "write", "delete"}), "temporary files"))


class FakePermissionProjector:
    """`PermissionProjector` that writes the effective rules it got as one JSON file
    `<run dir>/perms.json` (`{"sandboxed", "rules": [where…]}`) and adds `--perms <file>`;
    its note says whether it was sandboxed."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bool]] = []

    def project_permissions(self, profile: Profile, effective: EffectivePermissions,
                            sandboxed: bool, run_dir: str,
                            projection: Projection) -> tuple[Projection, tuple[str, ...]]:
        import json

        self.calls.append((profile.id, sandboxed))
        path = f"{run_dir}/perms.json"
        text = json.dumps({"sandboxed": sandboxed, "rules": [r.where for r in effective.rules]})
        merged = Projection(files=(*projection.files, PlannedFile(path, text)),
                            args=(*projection.args, "--perms", path), env=dict(projection.env),
                            mcp=projection.mcp)
        return merged, (f"{profile.id}: sandboxed={sandboxed}",)

@dataclass
class ScriptedTurn:
    """One turn a `FakeAgentSession` plays: `events` (a `Final` last), or `error` raised after
    its error `Final`; `engine_session_id` is what the turn reports."""

    events: list[TurnEvent] = field(default_factory=list)
    error: AppError | None = None
    engine_session_id: str | None = None


class FakeAgentSession:
    """`AgentSession` playing scripted turns in order; records prompts and permission answers."""

    def __init__(self, spec: StructuredSpec, turns: list[ScriptedTurn]) -> None:
        self.spec = spec
        self._turns = turns
        self._id = spec.resume_id
        self.prompts: list[str] = []
        self.answers: list[tuple[str, str | None]] = []
        self._asked: set[str] = set()
        self.closed = False

    @property
    def engine_session_id(self) -> str | None:
        return self._id

    def prompt(self, text: str, on_event: Callable[[TurnEvent], None]) -> Final:
        if self.closed:
            raise AppError(SESSION_ERROR, "the session is closed")
        self.prompts.append(text)
        turn = self._turns.pop(0) if self._turns else ScriptedTurn(
            events=[Final(text="", engine_session_id=self._id)])
        self._id = turn.engine_session_id or self._id
        for event in turn.events:
            if isinstance(event, PermissionRequest):
                self._asked.add(event.request_id)
            if not isinstance(event, Final):
                on_event(event)
        self._asked.clear()
        if turn.error is not None:
            on_event(Final(text="", engine_session_id=self._id, is_error=True,
                           error_message=turn.error.message))
            raise turn.error
        final = next(e for e in turn.events if isinstance(e, Final))
        on_event(final)
        return final

    def respond_permission(self, request_id: str, option_id: str | None) -> None:
        if request_id not in self._asked:
            raise AppError(NOT_FOUND, f"no permission request {request_id} is waiting")
        self._asked.discard(request_id)
        self.answers.append((request_id, option_id))

    def close(self) -> None:
        self.closed = True


class FakeAgentSessions:
    """`AgentSessions` whose sessions play `turns` (shared, in order); `start_error` makes
    `start` fail. Records every spec it started."""

    def __init__(self, turns: list[ScriptedTurn] | None = None,
                 start_error: AppError | None = None) -> None:
        self.turns = list(turns or [])
        self.start_error = start_error
        self.started: list[FakeAgentSession] = []

    def start(self, spec: StructuredSpec) -> FakeAgentSession:
        if self.start_error is not None:
            raise self.start_error
        session = FakeAgentSession(spec, self.turns)
        self.started.append(session)
        return session


class FakeProcessInspector:
    """A process inspector answering a fixed foreground process per session."""

    def __init__(self, running: dict[str, str]) -> None:
        self._running = running

    def foreground(self, session_id: str) -> str | None:
        return self._running.get(session_id)

    def cwd(self, session_id: str) -> str | None:
        return None
