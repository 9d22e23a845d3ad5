"""Ports: what the use cases and the services need from the outside world (SPEC §2).

Adapters (`app/adapters`) implement them; unit tests use the hand-written fakes of
`tests/unit/fakes.py`. Paths crossing a port are absolute `str` paths; the core joins them with
`posixpath` only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from app.core.domain.agent_session import Final, StructuredSpec, TurnEvent
from app.core.domain.delegation import AgentCaller
from app.core.domain.detection import Detection
from app.core.domain.launch_plan import Delegation, Projection
from app.core.domain.permission_rules import EffectivePermissions
from app.core.domain.profiles import Profile
from app.core.domain.sandbox import CliNeed, SandboxPlan, SandboxStatus
from app.core.domain.sessions import SpawnSpec, TerminalChunk
from app.core.domain.workspace import WorkspaceDoc
from app.core.errors import AppError
from app.core.events import DomainEvent


class FileSystem(Protocol):
    """Files of a project (`.ideai/`) and of the app data dir."""

    def read_text(self, path: str, *, exact: bool = False) -> str | None:
        """Return the UTF-8 text of `path`, or `None` when it does not exist. Line endings
        are read as `\n` (hand-edited CRLF files parse as any other), unless `exact`: as
        on disk (saved terminal output, where a lone `\r` is a carriage return)."""
        ...

    def write_text_atomic(self, path: str, text: str) -> None:
        """Write via temp file + fsync + rename; raises `AppError(NOT_WRITABLE)`."""
        ...

    def append_line(self, path: str, line: str) -> None:
        """Append `line` and a newline to `path` (created if missing) in one write, flushed to
        disk; a last line left unterminated (torn by a crash) is closed first so it never
        swallows this one. Raises `AppError(NOT_WRITABLE)`."""
        ...

    def list_dir(self, path: str) -> list[str]:
        """Names in the directory `path` (empty when missing)."""
        ...

    def make_executable(self, path: str) -> None:
        """Let the user run the file `path` (POSIX mode u+x g+x o+x; no-op elsewhere)."""
        ...

    def make_dirs(self, path: str) -> None:
        """Create `path` and its parents if missing; raises `AppError(NOT_WRITABLE)`."""
        ...

    def exists(self, path: str) -> bool:
        """Whether `path` exists (file or directory)."""
        ...

    def is_dir(self, path: str) -> bool:
        """Whether `path` is an existing directory."""
        ...

    def is_writable_dir(self, path: str) -> bool:
        """Whether `path` is an existing directory we can create files in."""
        ...

    def remove_tree(self, path: str) -> None:
        """Remove `path` and everything under it; no error when missing."""
        ...

    def move(self, path: str, target: str) -> None:
        """Rename the file `path` to `target` (same folder; `target` must not exist), bytes
        untouched; raises `AppError(NOT_WRITABLE)`."""
        ...


class TerminalListener(Protocol):
    """Where a terminal host delivers what its sessions produce (the terminal-output bus).

    Both calls come from the session's reader thread, in order, and must not block.
    """

    def output(self, chunk: TerminalChunk) -> None:
        """Decoded output of a session, never a split character, stamped with its offset."""
        ...

    def exited(self, session_id: str, exit_code: int | None) -> None:
        """The session's process ended (once, after its last `output`)."""
        ...


class TerminalHost(Protocol):
    """Processes running in pseudo-terminals (SPEC C2, §5): the process side (spawn, write,
    resize, kill) and the views' side (flow control, acks, forget).

    Errors: unknown session ids raise `AppError(NOT_FOUND)` unless said otherwise.
    """

    def set_listener(self, listener: TerminalListener) -> None:
        """Deliver every session's output and exit to `listener` (wired once at bootstrap)."""
        ...

    def spawn(self, spec: SpawnSpec) -> str:
        """Start `spec`, return its session id; raises `AppError(COMMAND_NOT_FOUND)`."""
        ...

    def write(self, session_id: str, seq: int, data: str) -> None:
        """Send `data` to the session; writes are applied in `seq` order (0, 1, 2 …)."""
        ...

    def inject(self, session_id: str, data: str) -> None:
        """Type `data` from IdeA itself (no view's sequence): queued after what is pending."""
        ...

    def resize(self, session_id: str, cols: int, rows: int) -> None:
        """Resize the terminal to `cols` x `rows` character cells (no-op once ended)."""
        ...

    def kill(self, session_id: str) -> None:
        """Terminate the session's process; `TerminalListener.exited` reports the end."""
        ...

    def is_alive(self, session_id: str) -> bool:
        """Whether the session's process is still running (False for an unknown id)."""
        ...

    def ack(self, session_id: str, chars: int) -> None:
        """Flow control: views consumed `chars` more characters (unknown ids ignored)."""
        ...

    def set_flow_control(self, session_id: str, enabled: bool) -> None:
        """Pause reading on unacknowledged output (a view shows it) or never (no view does)."""
        ...

    def set_flow_window(self, session_id: str, high: int, low: int) -> None:
        """Pause reading above `high` unacknowledged characters, resume below `low`
        (0 <= low < high; ADR 008). Unknown or ended ids are ignored."""
        ...

    def forget(self, session_id: str) -> None:
        """Drop an ended session's record; raises `AppError(INVALID)` while it runs."""
        ...

    def session_ids(self) -> list[str]:
        """Ids of every session not forgotten, running or ended."""
        ...

    def close_all(self, timeout_ms: int = 3_000) -> None:
        """App shutdown: end every session (force-kill after `timeout_ms`)."""
        ...


class LaunchProjector(Protocol):
    """Turns what an agent needs to reach IdeA into its vendor's own formats (SPEC C4: vendor
    specifics live in adapters): the MCP declaration, settings and hooks, the `idea` wrapper."""

    def project(self, profile: Profile, delegation: Delegation) -> Projection:
        """Files, arguments and environment for launching `profile` with `delegation`."""
        ...


class CommandResolver(Protocol):
    """Finds executables on the user's PATH."""

    def which(self, command: str) -> str | None:
        """Absolute path of `command`, or `None` when not found."""
        ...


class ProfileDetector(Protocol):
    """Runs a CLI's detection command (e.g. `claude --version`)."""

    def detect(self, command: str, args: list[str] | None, timeout_ms: int) -> Detection:
        """Find `command` (a name on the PATH or an absolute path) and, unless `args` is
        `None`, run it with `args` (no stdin), killed after `timeout_ms` milliseconds."""
        ...


class Clock(Protocol):
    """Wall clock."""

    def now_ms(self) -> int:
        """Milliseconds since the Unix epoch."""
        ...


class IdSource(Protocol):
    """Source of fresh identifiers."""

    def new_id(self) -> str:
        """A new hyphenated uuid4 string."""
        ...


class ProjectDoor(Protocol):
    """A door opened per project (the endpoint agents reach IdeA at, the file protocol)."""

    def open(self, root: str) -> str | None:
        """Start serving project `root`; returns the address agents use, or None when this
        door has none. Raises `AppError(ALREADY_EXISTS)` when another IdeA serves it."""
        ...

    def close(self, root: str) -> None:
        """Stop serving project `root` (no error when not served)."""
        ...

    def close_all(self) -> None:
        """App exit."""
        ...


class TokenSource(Protocol):
    """Source of secrets (each agent launch gets its own token)."""

    def new_token(self) -> str:
        """A fresh URL-safe secret of at least 128 bits."""
        ...


class EventSink(Protocol):
    """Where use cases publish domain events (the services' event bus)."""

    def publish(self, event: DomainEvent) -> None:
        """Hand `event` to every subscriber, in publication order."""
        ...


# --- The project endpoint (docs/contracts.md §7.5): doors 2 and 3 ------------------------------


@dataclass(frozen=True)
class EndpointHello:
    """The first line of an endpoint connection, validated by the endpoint adapter.

    `kind`: `mcp` (MCP JSON-RPC follows) or `command` (one command line follows); `requester`
    the agent id the client speaks for and `token` its launch token (both unverified here).
    """

    kind: Literal["mcp", "command"]
    requester: str
    token: str


class EndpointStream(Protocol):
    """One accepted endpoint connection after its first line (bytes, newline-framed)."""

    async def receive_line(self, max_bytes: int) -> bytes | None:
        """The next line without its `\\n` (a last unterminated line counts), or `None` at the
        end of the stream. Raises `AppError(INVALID)` when a line exceeds `max_bytes`."""
        ...

    async def answer_hello(self, error: AppError | None) -> None:
        """Answer the first line: accepted (`None`, the conversation goes on) or refused with
        `error`'s code and message. Raises `ConnectionError` once the peer is gone."""
        ...

    async def send(self, data: bytes) -> None:
        """Write `data` (whole lines); raises `ConnectionError` once the peer is gone."""
        ...


class ConnectionHandler(Protocol):
    """What serves an endpoint connection once its first line parsed (the endpoint door)."""

    async def handle(self, root: str, hello: EndpointHello, stream: EndpointStream) -> None:
        """Serve one connection of project `root`; the host closes `stream` when this returns.
        Runs on the host's event loop: blocking work goes to a worker thread."""
        ...


class EndpointHost(Protocol):
    """Per-project endpoints that agents reach IdeA through (Unix socket, named pipe).

    Thread-safe; `serve`/`stop` are called from any thread, connections are served on the
    host's own event loop by the handler given to `set_handler`.
    """

    def set_handler(self, handler: ConnectionHandler) -> None:
        """Serve every connection with `handler` (wired once at bootstrap)."""
        ...

    def serve(self, root: str) -> str:
        """Start serving project `root`'s endpoint and return its address (the socket path; the
        pipe name on Windows); the same address again when it is already served here. Raises
        `AppError(ALREADY_EXISTS)` when another live IdeA serves it, `AppError(NOT_WRITABLE)`
        when the endpoint directory is unusable."""
        ...

    def stop(self, root: str) -> None:
        """Stop serving `root` (its connections end, the address is removed); no-op if not
        served."""
        ...

    def close_all(self) -> None:
        """App shutdown: stop every endpoint."""
        ...


class Verifier(Protocol):
    """Who an endpoint client is (`app/services/credentials.py:Credentials`)."""

    def verify(self, root: str, requester: str, token: str) -> AgentCaller:
        """The agent `requester` of `root` presenting launch `token`; raises
        `AppError(FORBIDDEN)`."""
        ...


class Hangup(Protocol):
    """A door's word that the caller of a blocking command went away (its connection closed,
    its MCP call was cancelled): what it waited for is no longer wanted."""

    def on_hangup(self, callback: Callable[[], None]) -> None:
        """Call `callback` once when the caller hangs up (at once if it already has)."""
        ...


class Dispatcher(Protocol):
    """The orchestrator's one entry (`OrchestratorService.dispatch`, contracts §7.1)."""

    def dispatch(self, root: str, caller: AgentCaller, command: dict[str, Any],
                 hangup: Hangup | None = None) -> dict[str, Any]:
        """Run `command` (`{"type": ..., ...}`) for `caller` in project `root` and return its
        result object.
        Blocking (an `agent.ask` returns when the target replied): call it from a worker
        thread; `hangup` withdraws the ask when its caller leaves first (`CANCELLED`). Raises
        `AppError` with the codes of contracts §7.1."""
        ...


# --- The OS sandbox (SPEC C10, docs/adr/006-landlock.md) --------------------------------------


class SandboxEnforcer(Protocol):
    """Confines a process to a `SandboxPlan` (Landlock on Linux; a no-op elsewhere)."""

    def status(self, plan: SandboxPlan | None) -> SandboxStatus:
        """What `enforce(plan)` would give on this machine (for the editor and the launch:
        wrap a spawn only when `confined`); restricts nothing."""
        ...

    def enforce(self, plan: SandboxPlan) -> SandboxStatus:
        """Confine the CALLING process to `plan`, irreversibly (its children inherit it): call
        it only in a process about to exec the CLI (`idea sandbox-exec`). Raises
        `SandboxRefused` when `plan.fail_closed` and this kernel cannot confine."""
        ...

    def refuses(self, plan: SandboxPlan) -> bool:
        """Whether `enforce(plan)` would raise `SandboxRefused` on this machine (a
        fail-closed plan and a kernel that cannot confine). A platform without an OS sandbox
        never refuses: there the rules bind only through the CLI's own settings."""
        ...


class CliNeedsSource(Protocol):
    """What an agent's CLI must reach whatever its permissions say (its install, its home,
    temp dirs, the run dir, the endpoint's folder, IdeA itself): `SandboxContext.cli_needs`."""

    def needs(self, command: str, run_dir: str, endpoint: str | None) -> tuple[CliNeed, ...]:
        """The needs of `command` (absolute path or name) run from `run_dir` (absolute), the
        project endpoint at `endpoint` (socket path or pipe name, None when there is none)."""
        ...


class PermissionProjector(Protocol):
    """Writes an agent's effective permissions in its CLI's own settings (SPEC C10; vendor
    formats live in adapters: Claude Code's `permissions`, Codex's `-c` overrides, Gemini's
    `tools`)."""

    def project_permissions(self, profile: Profile, effective: EffectivePermissions,
                            sandboxed: bool, run_dir: str,
                            projection: Projection) -> tuple[Projection, tuple[str, ...]]:
        """`projection` (the launch's vendor projection so far, files under `run_dir`) with
        the permissions merged in, and the notes for the user (what the vendor cannot
        express; that IdeA's sandbox replaces the vendor's own when `sandboxed`)."""
        ...


# --- Structured (headless) turns (SPEC C8; app/adapters/sessions/) ------------------------------


class AgentSession(Protocol):
    """A structured session with one agent's CLI: turns in order, one at a time.

    Thread-safe: `respond_permission` and `close` may come from any thread, also from inside
    `on_event`.
    """

    @property
    def engine_session_id(self) -> str | None:
        """The vendor's conversation id (Claude `session_id`, Codex `thread_id`, the ACP
        session id): the resume id of the spec until a turn reports one, None before."""
        ...

    def prompt(self, text: str, on_event: Callable[[TurnEvent], None]) -> Final:
        """Run one turn with `text` and return its `Final`; blocks at most the spec's
        `turn_timeout_s`. `on_event` gets every event on the calling thread, `Final` last and
        exactly once, also when the turn fails.

        Raises `AppError`: `SESSION_ERROR` (the CLI's own message: "Not logged in · Please run
        /login"; a stream that ended without a result; a session already closed or whose agent
        died), `TIMEOUT` (the CLI is killed, with its process group; the message carries the
        last error it printed), `COMMAND_NOT_FOUND`, `INVALID` (a turn already running).
        `details.engineSessionId` carries the conversation id when one is known.
        """
        ...

    def respond_permission(self, request_id: str, option_id: str | None) -> None:
        """Answer a `PermissionRequest` with one of its options (None denies). Raises
        `AppError(NOT_FOUND)` for a request not waiting, `INVALID` for an unknown option."""
        ...

    def close(self) -> None:
        """End the session and its processes (idempotent)."""
        ...


class AgentSessions(Protocol):
    """Starts structured sessions over one protocol (ACP, Claude stream-json, Codex exec)."""

    def start(self, spec: StructuredSpec) -> AgentSession:
        """A session for `spec`, resuming `spec.resume_id` when the protocol can. Raises
        `AppError`: `COMMAND_NOT_FOUND` (no such executable), `NOT_FOUND` (no such cwd), and
        for a protocol that opens its session here (ACP) `SESSION_ERROR` and `TIMEOUT`."""
        ...


# ---------------------------------------------------------------- workspace (issue 9, windows)

class WorkspaceStore(Protocol):
    """`workspace.json` and the restored shells' scrollback files, in the app data dir
    (`app/adapters/stores/workspace_store.py`)."""

    def load(self) -> WorkspaceDoc | None:
        """The saved workspace; `None` when there is none. Raises `AppError(CORRUPT_FILE)`
        (naming the file and field); after that `save` refuses to overwrite the file."""
        ...

    def save(self, doc: WorkspaceDoc) -> None:
        """Write atomically. Raises NOT_WRITABLE, CORRUPT_FILE (the file on disk could not be
        read at load: it is kept as is)."""
        ...

    def write_scrollback(self, session_id: str, text: str) -> str:
        """Keep a shell's last output; returns the file's name relative to the data dir."""
        ...

    def read_scrollback(self, name: str) -> str:
        """The text kept by `write_scrollback` (`""` when missing)."""
        ...


@runtime_checkable
class ProcessInspector(Protocol):
    """What runs inside a terminal session (the POSIX PTY host implements it)."""

    def foreground(self, session_id: str) -> str | None:
        """Name of the foreground process when it is not the session's own process (e.g.
        `sleep` run from the shell), else `None` (also for unknown or ended sessions)."""
        ...

    def cwd(self, session_id: str) -> str | None:
        """The session process's working directory, when the OS tells it."""
        ...
