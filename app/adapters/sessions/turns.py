"""What every structured adapter does at the end of a turn, and the turn loop of the CLIs that
print JSON lines (one process per turn: Claude `stream-json`, Codex `exec --json`).

The end of a turn: `on_event` gets exactly one `Final`, last; a failed turn's `Final` has
`is_error` and the turn raises the `AppError` (`SESSION_ERROR` with the CLI's own message,
`TIMEOUT`, `COMMAND_NOT_FOUND` …), with `details.engineSessionId` when the id is known.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, Protocol

from app.adapters.sessions.process import LineProcess, check_command, child_env
from app.core.domain.agent_session import Final, StructuredSpec, TurnEvent
from app.core.errors import INVALID, NOT_FOUND, SESSION_ERROR, TIMEOUT, AppError

log = logging.getLogger(__name__)

OnEvent = Callable[[TurnEvent], None]


def end_turn(final: Final, on_event: OnEvent) -> Final:
    """Deliver `final`; when it is an error, raise `SESSION_ERROR` with its message."""
    on_event(final)
    if final.is_error:
        raise AppError(SESSION_ERROR, final.error_message or "the turn failed",
                       _details(final.engine_session_id))
    return final


def fail_turn(error: AppError, engine_session_id: str | None, on_event: OnEvent) -> NoReturn:
    """Deliver the error `Final` of a turn that failed with `error`, then raise it (its details
    gain `engineSessionId`)."""
    on_event(Final(text="", engine_session_id=engine_session_id, is_error=True,
                   error_message=error.message))
    error.details.update(_details(engine_session_id))
    raise error


@contextmanager
def exclusive_turn(turn: threading.Lock, closed: bool, label: str) -> Iterator[None]:
    """Hold `turn` for one turn. Raises `AppError`: `SESSION_ERROR` when the session is
    `closed`, `INVALID` when another turn runs."""
    if closed:
        raise AppError(SESSION_ERROR, f"the {label} session is closed")
    if not turn.acquire(blocking=False):
        raise AppError(INVALID, "a turn is already running in this session")
    try:
        yield
    finally:
        turn.release()


def _details(engine_session_id: str | None) -> dict[str, str]:
    return {"engineSessionId": engine_session_id} if engine_session_id else {}


def decode_line(raw: bytes, source: str) -> dict[str, Any] | None:
    """One JSON-lines message as a dict; None for a blank line or one that is not a JSON
    object (logged, skipped: a stray line must not end the turn)."""
    text = raw.decode("utf-8", "replace").strip()
    if not text:
        return None
    try:
        message = json.loads(text)
    except ValueError:
        log.warning("%s: skipped a line that is not JSON: %.200s", source, text)
        return None
    if not isinstance(message, dict):
        log.warning("%s: skipped a JSON line that is not an object: %.200s", source, text)
        return None
    return message


class LineParser(Protocol):
    """The vendor format of one turn's JSON lines (stateful, one per turn)."""

    @property
    def engine_session_id(self) -> str | None:
        """The conversation id seen so far (or the one the turn resumed)."""
        ...

    @property
    def last_error(self) -> str | None:
        """The last error message the CLI printed, if any (a retry, an error item)."""
        ...

    def feed(self, message: dict[str, Any]) -> list[TurnEvent]:
        """The events of one message, a `Final` last when the turn ends with it."""
        ...


def run_line_turn(argv: Sequence[str], cwd: str, env: Mapping[str, str], timeout_s: float,
                  parser: LineParser, on_event: OnEvent, label: str,
                  started: Callable[[LineProcess | None], None] = lambda _: None) -> Final:
    """Run `argv` in `cwd` for one turn and translate its stdout with `parser`.

    Nothing is read after the `Final` (the CLI gets a grace period to exit, then its group is
    killed); a turn that ends without one kills the group at once. Raises `AppError`:
    `TIMEOUT` after `timeout_s` seconds (the message names the CLI's last error),
    `SESSION_ERROR` for an error `Final` or a stream that ended without one (with the last
    error, else the stderr line that says why, else the exit code), `COMMAND_NOT_FOUND` /
    `NOT_FOUND` from the spawn. `started` gets the process once it runs, then None once it is
    reaped (so a `close` can kill it meanwhile).
    """
    try:
        process = LineProcess(argv, cwd, env)
    except AppError as error:
        fail_turn(error, parser.engine_session_id, on_event)
    started(process)
    deadline = time.monotonic() + timeout_s
    final: Final | None = None
    try:
        while final is None:
            try:
                raw = process.next_line(deadline)
            except TimeoutError:
                process.kill()
                why = parser.last_error or process.stderr.reason()
                fail_turn(AppError(TIMEOUT, f"{label}: no result within {timeout_s:g} s"
                                   + (f" (last error: {why})" if why else ""),
                                   {"timeoutS": timeout_s}),
                          parser.engine_session_id, on_event)
            if raw is None:
                break
            message = decode_line(raw, label)
            for event in parser.feed(message) if message is not None else []:
                if isinstance(event, Final):
                    final = event
                    break
                on_event(event)
    finally:
        if final is None:  # ended early (timeout, a failing `on_event`, EOF): nothing to wait for
            process.kill()
        code = process.close()
        started(None)
    if final is None:
        why = parser.last_error or process.stderr.reason() or f"exit code {code}"
        fail_turn(AppError(SESSION_ERROR, f"{label} ended without a result: {why}"),
                  parser.engine_session_id, on_event)
    return end_turn(final, on_event)


class LineSession:
    """`AgentSession` over a CLI run once per turn (no process between turns): `argv(command,
    prompt, resume_id)` builds a turn's command line, `parser(resume_id)` reads its output.
    The engine session id a turn reports is resumed by the next one."""

    def __init__(self, spec: StructuredSpec, label: str,
                 argv: Callable[[tuple[str, ...], str, str | None], list[str]],
                 parser: Callable[[str | None], LineParser]) -> None:
        check_command(spec.command, spec.cwd, child_env(spec.env))
        self._spec = spec
        self._label = label
        self._argv = argv
        self._parser = parser
        self._env = child_env(spec.env)
        self._session_id = spec.resume_id
        self._turn = threading.Lock()
        self._lock = threading.Lock()
        self._process: LineProcess | None = None
        self._closed = False

    @property
    def engine_session_id(self) -> str | None:
        return self._session_id

    def prompt(self, text: str, on_event: OnEvent) -> Final:
        with exclusive_turn(self._turn, self._closed, self._label):
            parser = self._parser(self._session_id)
            try:
                return run_line_turn(self._argv(self._spec.command, text, self._session_id),
                                     self._spec.cwd, self._env, self._spec.turn_timeout_s,
                                     parser, on_event, self._label, self._running)
            finally:
                self._session_id = parser.engine_session_id

    def _running(self, process: LineProcess | None) -> None:
        with self._lock:
            self._process = process
            if process is not None and self._closed:
                process.kill()

    def respond_permission(self, request_id: str, option_id: str | None) -> None:
        """These CLIs ask no permission over their stream: no request is ever waiting."""
        raise AppError(NOT_FOUND, f"no permission request {request_id} is waiting")

    def close(self) -> None:
        """A turn still running is ended: its process group is killed."""
        with self._lock:
            self._closed = True
            if self._process is not None:
                self._process.kill()
