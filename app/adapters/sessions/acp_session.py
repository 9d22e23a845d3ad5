"""One structured session over the Agent Client Protocol (PyPI `agent-client-protocol`, the
SDK's client side): Gemini CLI `--acp`, `@zed-industries/claude-agent-acp`,
`@zed-industries/codex-acp` or any ACP agent a profile names. Loaded by `acp.AcpSessions` on
the first ACP session (the SDK's models take ~0.6 s to import: a third of IdeA's start-up).

One agent process per session, spawned here (own process group, IdeA's environment; the SDK's
own spawn helper trims the environment and cannot start a group) and driven by the SDK's
`ClientSideConnection` on an asyncio loop in a thread of the session's own: `initialize`,
then `session/load` (or `session/resume`) of `spec.resume_id` when the agent advertises it (a
refused resume starts afresh), else `session/new` with the cwd and IdeA's MCP server (a stdio
entry); each turn is a `session/prompt` whose `session/update`s become events (`acp_events`).
`session/request_permission` becomes a `PermissionRequest`, answered by `respond_permission`
or denied after `spec.permission_timeout_s`. JSON-RPC errors are `SESSION_ERROR` with the
agent's message; a turn over time kills the agent's group (`TIMEOUT`): the session is then
over, a new one resumes the conversation.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import queue
import threading
import time
from collections.abc import Coroutine
from typing import Any, TypeVar, cast

import acp
from acp.core import DEFAULT_STDIO_BUFFER_LIMIT_BYTES
from acp.schema import (
    AcpMcpServer,
    AgentCapabilities,
    ClientCapabilities,
    EnvVariable,
    HttpMcpServer,
    Implementation,
    McpServerStdio,
    RequestPermissionResponse,
    SseMcpServer,
    ToolCallUpdate,
)
from acp.schema import PermissionOption as AcpOption

from app import __version__
from app.adapters.sessions.acp_events import (
    error_text,
    options_of,
    permission_answer,
    update_events,
)
from app.adapters.sessions.process import (
    StderrTail,
    check_command,
    child_env,
    kill_group,
    new_group_kwargs,
)
from app.adapters.sessions.turns import OnEvent, end_turn, exclusive_turn, fail_turn
from app.core.domain.agent_session import (
    Final,
    McpServerCommand,
    PermissionOption,
    PermissionRequest,
    StructuredSpec,
    TextDelta,
    TurnEvent,
)
from app.core.errors import (
    COMMAND_NOT_FOUND,
    INVALID,
    NOT_FOUND,
    SESSION_ERROR,
    TIMEOUT,
    AppError,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
_DONE = object()
McpServers = list[HttpMcpServer | SseMcpServer | AcpMcpServer | McpServerStdio]
#: After stdin closes, an agent gets this long to exit before its group is killed (s).
EXIT_GRACE_S = 1.0
#: The longest the agent may take to start and open its session when the turn timeout is
#: shorter (s).
OPEN_TIMEOUT_S = 30.0


def mcp_entry(server: McpServerCommand) -> McpServerStdio:
    """IdeA's MCP server as an ACP stdio server entry."""
    return McpServerStdio(name=server.name, command=server.command, args=list(server.args),
                          env=[EnvVariable(name=k, value=v) for k, v in server.env.items()])


class _Client:
    """The client side the agent calls back (`acp.Client`): updates and permission requests
    go to the session; IdeA offers no file system or terminal (capabilities say so)."""

    def __init__(self, session: AcpSession) -> None:
        self._session = session

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self._session.on_update(session_id, update)

    async def request_permission(self, options: list[AcpOption], session_id: str,
                                 tool_call: ToolCallUpdate,
                                 **kwargs: Any) -> RequestPermissionResponse:
        return await self._session.on_permission(options, tool_call)

    def on_connect(self, conn: Any) -> None:
        pass


class AcpSession:
    """`AgentSession` over one ACP agent process (see the module docstring)."""

    def __init__(self, spec: StructuredSpec) -> None:
        self._spec = spec
        self._env = child_env(spec.env)
        self._path = check_command(spec.command, spec.cwd, self._env)
        self._label = spec.command[0].replace("\\", "/").rsplit("/", 1)[-1]
        self._stderr = StderrTail()
        self._lock = threading.Lock()
        self._turn = threading.Lock()
        self._events: queue.Queue[object] | None = None
        self._permissions: dict[str, tuple[asyncio.Future[str | None],
                                           tuple[PermissionOption, ...]]] = {}
        self._ids = itertools.count(1)
        self._proc: asyncio.subprocess.Process | None = None
        self._conn: acp.ClientSideConnection | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._auth_methods: list[Any] = []
        self._session_id: str | None = None
        self._dead: str | None = None
        self._closed = False
        #: How the conversation was opened: `session/resume`, `session/load` or `session/new`.
        self.opened_by: str | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name=f"acp-{self._label}")
        self._thread.start()

    @property
    def engine_session_id(self) -> str | None:
        return self._session_id or self._spec.resume_id

    # --- lifecycle (caller's thread) ------------------------------------------------------

    def open(self) -> None:
        """Spawn the agent and open its session within the turn timeout, or `OPEN_TIMEOUT_S`
        when that is longer (a Node agent's cold start takes seconds); on failure the session
        is closed. Raises like `AgentSessions.start`."""
        try:
            self._call(self._open(), "initialize and open a session",
                       max(self._spec.turn_timeout_s, OPEN_TIMEOUT_S))
        except BaseException:
            self.close()
            raise

    def prompt(self, text: str, on_event: OnEvent) -> Final:
        with exclusive_turn(self._turn, self._closed, self._label):
            try:
                return self._prompt(text, on_event)
            finally:
                with self._lock:
                    self._events = None

    def respond_permission(self, request_id: str, option_id: str | None) -> None:
        with self._lock:
            entry = self._permissions.get(request_id)
        if entry is None:
            raise AppError(NOT_FOUND, f"no permission request {request_id} is waiting")
        future, options = entry
        if option_id is not None and option_id not in {o.option_id for o in options}:
            raise AppError(INVALID, f"{option_id} is not an option of {request_id}")
        with contextlib.suppress(RuntimeError):  # the loop is gone: the session closed
            self._loop.call_soon_threadsafe(_settle, future, option_id)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self._loop.is_running():
            shutdown = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
            try:
                shutdown.result(timeout=10)
            except Exception:  # noqa: BLE001 - closing must not fail
                log.warning("%s: unclean shutdown", self._label, exc_info=True)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self._loop.close()

    # --- turns ------------------------------------------------------------------------------

    def _prompt(self, text: str, on_event: OnEvent) -> Final:
        if self._dead or self._conn is None or self._session_id is None:
            fail_turn(AppError(SESSION_ERROR, self._dead or "the session is not open"),
                      self.engine_session_id, on_event)
        events: queue.Queue[object] = queue.Queue()
        with self._lock:
            self._events = events
        turn = asyncio.run_coroutine_threadsafe(
            self._conn.prompt(session_id=self._session_id, prompt=[acp.text_block(text)]),
            self._loop)
        turn.add_done_callback(lambda _: events.put(_DONE))
        deadline = time.monotonic() + self._spec.turn_timeout_s
        texts: list[str] = []
        while True:
            try:
                item = events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                turn.cancel()
                fail_turn(self._timed_out("the turn", self._spec.turn_timeout_s), self._session_id, on_event)
            if item is _DONE:
                break
            event = cast(TurnEvent, item)
            if isinstance(event, TextDelta):
                texts.append(event.text)
            try:
                on_event(event)
            except BaseException:
                self._cancel(turn)  # the caller gave up: so does the agent
                raise
        try:
            response = turn.result()
        except acp.RequestError as exc:
            fail_turn(AppError(SESSION_ERROR, error_text(exc, self._auth_methods)),
                      self._session_id, on_event)
        except Exception as exc:  # noqa: BLE001 - the connection closed: the agent died
            self._dead = self._exit_reason(exc)
            fail_turn(AppError(SESSION_ERROR, self._dead), self._session_id, on_event)
        stop = str(response.stop_reason)
        cancelled = stop == "cancelled"
        return end_turn(Final(text="".join(texts), engine_session_id=self._session_id,
                              is_error=cancelled,
                              error_message="the agent cancelled the turn" if cancelled
                              else None), on_event)

    def _cancel(self, turn: concurrent.futures.Future[Any]) -> None:
        """Stop the running turn: `session/cancel` to the agent, the request abandoned."""
        if self._conn is not None and self._session_id is not None and self._loop.is_running():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(
                    self._conn.cancel(session_id=self._session_id), self._loop).result(1.0)
        turn.cancel()

    def _call(self, coro: Coroutine[Any, Any, T], what: str,
              timeout_s: float | None = None) -> T:
        """Run `coro` on the loop within `timeout_s` (default the turn timeout), its failures
        as `AppError`."""
        timeout_s = self._spec.turn_timeout_s if timeout_s is None else timeout_s
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result(timeout=timeout_s)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise self._timed_out(what, timeout_s) from None
        except acp.RequestError as exc:
            raise AppError(SESSION_ERROR, error_text(exc, self._auth_methods)) from exc
        except AppError:
            raise
        except Exception as exc:  # noqa: BLE001 - the connection closed: the agent died
            raise AppError(SESSION_ERROR, self._exit_reason(exc)) from exc

    def _timed_out(self, what: str, timeout_s: float) -> AppError:
        """Kill the agent (the session is over) and say what ran out of time."""
        self._dead = f"{self._label} was stopped after {what} took too long"
        if self._proc is not None:
            kill_group(self._proc.pid)
        why = self._stderr.reason()
        return AppError(TIMEOUT, f"{self._label}: {what} did not finish within "
                        f"{timeout_s:g} s" + (f" (last error: {why})" if why else ""),
                        {"timeoutS": timeout_s})

    def _exit_reason(self, exc: BaseException) -> str:
        """Why the connection closed: the agent's exit code and last error line, once it has
        exited and its stderr is drained (1 s at most)."""
        if self._loop.is_running():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._exited(), self._loop).result(
                    timeout=EXIT_GRACE_S + 0.5)
        code = self._proc.returncode if self._proc is not None else None
        why = self._stderr.reason() or str(exc) or type(exc).__name__
        status = f" (exit code {code})" if code is not None else ""
        return f"{self._label} ended the session{status}: {why}"

    # --- on the loop ------------------------------------------------------------------------

    async def _open(self) -> None:
        spec = self._spec
        try:
            self._proc = await asyncio.create_subprocess_exec(
                self._path, *spec.command[1:], stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=spec.cwd,
                env=self._env, limit=DEFAULT_STDIO_BUFFER_LIMIT_BYTES,
                **new_group_kwargs())  # type: ignore[arg-type]
        except OSError as exc:
            raise AppError(COMMAND_NOT_FOUND, f"cannot run {spec.command[0]}: "
                           f"{exc.strerror or exc}", {"command": spec.command[0]}) from exc
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())
        self._conn = acp.connect_to_agent(cast(acp.Client, _Client(self)),
                                          self._proc.stdin, self._proc.stdout)
        init = await self._conn.initialize(
            protocol_version=acp.PROTOCOL_VERSION, client_capabilities=ClientCapabilities(),
            client_info=Implementation(name="idea", title="IdeA", version=__version__))
        self._auth_methods = list(init.auth_methods or [])
        caps = init.agent_capabilities or AgentCapabilities()
        servers: McpServers = [mcp_entry(spec.mcp)] if spec.mcp is not None else []
        if spec.resume_id and await self._resume(caps, spec.resume_id, servers):
            return
        opened = await self._conn.new_session(cwd=spec.cwd, mcp_servers=servers)
        self._session_id, self.opened_by = opened.session_id, "session/new"

    async def _resume(self, caps: AgentCapabilities, resume_id: str,
                      servers: McpServers) -> bool:
        """Reopen `resume_id`: `session/load` when advertised (stable in ACP v1; the history
        it replays is dropped, see `on_update`), else `session/resume` (the SDK still marks it
        unstable); False when the agent can do neither or refuses."""
        assert self._conn is not None
        session_caps = caps.session_capabilities
        try:
            if caps.load_session:
                await self._conn.load_session(cwd=self._spec.cwd, session_id=resume_id,
                                              mcp_servers=servers)
                self.opened_by = "session/load"
            elif session_caps is not None and session_caps.resume is not None:
                await self._conn.resume_session(session_id=resume_id, cwd=self._spec.cwd,
                                                mcp_servers=servers)
                self.opened_by = "session/resume"
            else:
                return False
        except acp.RequestError as exc:
            log.warning("%s refused to resume %s (%s): starting a new session", self._label,
                        resume_id, error_text(exc))
            return False
        self._session_id = resume_id
        return True

    def on_update(self, session_id: str, update: object) -> None:
        """A `session/update`: its events go to the running turn (replays of `session/load`
        and updates between turns are dropped)."""
        with self._lock:
            events = self._events
        if events is not None and session_id == self._session_id:
            for event in update_events(update):
                events.put(event)

    async def on_permission(self, options: list[AcpOption],
                            tool_call: ToolCallUpdate) -> RequestPermissionResponse:
        """Ask the turn's caller; deny when no turn runs or nobody answers in time."""
        mine = options_of(options)
        request_id = f"permission-{next(self._ids)}"
        answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        with self._lock:
            events = self._events
            if events is not None:
                self._permissions[request_id] = (answer, mine)
        if events is None:
            return permission_answer(mine, None)
        events.put(PermissionRequest(request_id, tool_call.title or tool_call.tool_call_id,
                                     mine))
        try:
            choice = await asyncio.wait_for(answer, self._spec.permission_timeout_s)
        except TimeoutError:
            log.info("%s: %s unanswered, denied", self._label, request_id)
            choice = None
        finally:
            with self._lock:
                self._permissions.pop(request_id, None)
        return permission_answer(mine, choice)

    async def _exited(self) -> None:
        if self._proc is not None and self._stderr_task is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(self._proc.wait(),
                                                      asyncio.shield(self._stderr_task)),
                                       EXIT_GRACE_S)

    async def _drain_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        async for raw in self._proc.stderr:
            self._stderr.add(raw)

    async def _shutdown(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        proc = self._proc
        if proc is not None:
            if proc.stdin is not None:
                proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), EXIT_GRACE_S)
            except TimeoutError:
                pass
            kill_group(proc.pid)  # its children too (an ACP bridge runs the real CLI)
            await proc.wait()
        if self._stderr_task is not None:
            try:
                await asyncio.wait_for(self._stderr_task, EXIT_GRACE_S)
            except (TimeoutError, asyncio.CancelledError, OSError, ValueError):
                self._stderr_task.cancel()


def _settle(future: asyncio.Future[str | None], option_id: str | None) -> None:
    if not future.done():
        future.set_result(option_id)
