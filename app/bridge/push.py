"""Python → JS pushes: one `PushPump` thread per window batches domain events and PTY output
into `window.__ideaPush(batch)` scripts and keeps several of them in flight (SPEC §5,
contracts §4, ADR 008).

`batch = {"output": {sessionId: "text"}, "offsets": {sessionId: n}, "events": [{"type"}...]}`.
The pump receives output as `TerminalChunk`s of the sessions its window shows (from the
terminal-output bus) and events already in wire form (from the event bus); offsets come from
the chunks, stamped by the PTY host, so any number of windows repaint one session exactly.

Cadence: a flush happens at once when output arrives for a terminal that was quiet (its echo
must not wait behind a chatty one), otherwise at most every `interval_ms` or as soon as
`flush_chars` characters are pending, whichever comes first. Sessions share a batch fairly
(`fair_shares`: equal shares of the room, at most `session_chars` each, whole chunks, never a
split one, the first served rotating); the remainder goes in a following push. Events are kept
in order, and an event naming a `sessionId` whose output is still partly pending waits for that
output (so `sessionExited` never overtakes the last lines).

Pipelining: `post(script, done)` hands a script to the window and returns at once; the window
calls `done()` (from any thread) once the script ran, in posting order. Each round trip through
Qt's GUI thread costs ~20–45 ms whatever the size, so up to `limits.depth` pushes travel at
once, carrying together at most `limits.chars_in_flight` characters (one large batch); an
urgent push (a quiet terminal's echo, at most `limits.small_chars`) takes one extra slot and so
waits behind at most that much (`PushPipeline`). A push the window never confirms is written
off after `stall_s` seconds so the pump cannot hang on a lost page.
"""

from __future__ import annotations

import collections
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.core.domain.push_pipeline import PipelineLimits, PushPipeline, fair_shares
from app.core.domain.sessions import TerminalChunk

log = logging.getLogger(__name__)

PUSH_FUNCTION = "window.__ideaPush"

#: `post(script, done)`: run `script` in the page without waiting; call `done()` once it ran.
Post = Callable[[str, Callable[[], None]], None]


def blocking_post(evaluate: Callable[[str], object]) -> Post:
    """A `Post` over a blocking `evaluate(script)` (one push in flight at a time)."""

    def post(script: str, done: Callable[[], None]) -> None:
        try:
            evaluate(script)
        finally:
            done()

    return post


def encode_batch(output: Mapping[str, str], events: Sequence[Mapping[str, Any]],
                 offsets: Mapping[str, int] | None = None) -> str:
    """JSON of a batch, safe to embed in a script: non-ASCII kept as is (compact), U+2028 and
    U+2029 escaped (line terminators in older JS), lone surrogates in events replaced."""
    out_json = json.dumps(output, ensure_ascii=False, separators=(",", ":"))
    ev_json = json.dumps(list(events), ensure_ascii=False, separators=(",", ":"))
    ev_json = ev_json.encode("utf-8", "replace").decode("utf-8")
    off_json = json.dumps(dict(offsets or {}), separators=(",", ":"))
    text = '{"output":' + out_json + ',"offsets":' + off_json + ',"events":' + ev_json + "}"
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


class PushPump:
    """Batches pushes to one window and keeps several in flight, in order.

    Parameters:
      - `post(script, done)`: hands the script to the window without waiting; `done()` once it
        ran (see `Post`; `blocking_post(evaluate_js)` adapts a blocking call).
      - `interval_ms`: minimum spacing of flushes while output keeps coming (ms, ~8–16).
      - `flush_chars`: pending characters that trigger a flush before the interval ends.
      - `session_chars`: the most characters one session contributes to one batch.
      - `limits`: pushes and characters in flight (`PipelineLimits`).
      - `stall_s`: a push not confirmed after this many seconds is written off (s).
      - `function`: the JS function called with the batch (`window.__ideaPush`).

    `add_chunk` / `add_event` are thread-safe and never block on the window. Until `start()`
    (the UI signalled readiness) everything is queued. `stop()` ends the thread; later adds are
    dropped.
    """

    def __init__(
        self,
        post: Post,
        *,
        interval_ms: int = 10,
        flush_chars: int = 256_000,
        session_chars: int = 256_000,
        limits: PipelineLimits | None = None,
        stall_s: float = 10.0,
        function: str = PUSH_FUNCTION,
        name: str = "idea-push",
    ) -> None:
        if interval_ms < 0 or flush_chars <= 0 or session_chars <= 0 or stall_s <= 0:
            raise ValueError("interval_ms >= 0; flush_chars, session_chars and stall_s > 0")
        self._post = post
        self._interval_s = interval_ms / 1000.0
        self._flush_chars = flush_chars
        self._session_chars = session_chars
        self._stall_s = stall_s
        self._function = function
        self._name = name
        self._cond = threading.Condition()
        self._pipeline = PushPipeline(limits)
        self._posted_at: dict[int, float] = {}
        self._output: dict[str, collections.deque[TerminalChunk]] = {}
        self._output_len: dict[str, int] = {}
        self._pending_chars = 0
        self._events: collections.deque[tuple[str | None, dict[str, Any]]] = collections.deque()
        self._last_add: dict[str, float] = {}
        self._urgent: set[str] = set()  # sessions whose output arrived after a quiet spell
        self._rotation = 0
        self._last_flush = 0.0
        self._started = False
        self._stopping = False
        self._drain_on_stop = False
        self._thread: threading.Thread | None = None
        self.flushes = 0  # pushes posted (diagnostics, benchmarks)
        self.urgent_flushes = 0  # of which through the urgent slot
        self.max_in_flight = 0
        self.written_off = 0  # pushes never confirmed by the window

    @property
    def limits(self) -> PipelineLimits:
        return self._pipeline.limits

    # ------------------------------------------------------------------ inputs

    def add_chunk(self, chunk: TerminalChunk) -> None:
        """Queue a chunk of a session this window shows (any thread; never blocks on it)."""
        if not chunk.text:
            return
        now = time.monotonic()
        session_id = chunk.session_id
        with self._cond:
            if self._stopping:
                return
            chunks = self._output.get(session_id)
            if chunks is None:
                chunks = self._output[session_id] = collections.deque()
                self._output_len[session_id] = 0
            was_quiet = not chunks and now - self._last_add.get(session_id, -1e9) > self._interval_s
            chunks.append(chunk)
            self._output_len[session_id] += len(chunk.text)
            self._pending_chars += len(chunk.text)
            self._last_add[session_id] = now
            if was_quiet:
                self._urgent.add(session_id)
            self._cond.notify()

    def add_event(self, event: Mapping[str, Any], session_id: str | None = None) -> None:
        """Queue one wire event (a JSON-able dict with a `type`); an event about `session_id`
        is pushed only after that session's output queued before it (any thread)."""
        with self._cond:
            if self._stopping:
                return
            self._events.append((session_id, dict(event)))
            self._cond.notify()

    def forget_session(self, session_id: str) -> None:
        """Drop a session's pending output and cadence state (its view went away)."""
        with self._cond:
            self._pending_chars -= self._output_len.pop(session_id, 0)
            self._output.pop(session_id, None)
            self._last_add.pop(session_id, None)
            self._urgent.discard(session_id)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """The window is ready (`window.__ideaPush` installed): start pushing. Idempotent."""
        with self._cond:
            if self._started or self._stopping:
                return
            self._started = True
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()

    def stop(self, *, flush: bool = False, timeout_s: float = 2.0) -> None:
        """Stop the pump thread; with `flush`, first push everything still pending and wait
        for the window to run it.

        Waits up to `timeout_s` seconds for the thread (not when called from the pump itself).
        """
        with self._cond:
            self._stopping = True
            self._drain_on_stop = flush
            self._drain_deadline = time.monotonic() + timeout_s
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout_s)

    @property
    def running(self) -> bool:
        t = self._thread
        return t is not None and t.is_alive()

    @property
    def in_flight(self) -> int:
        """Pushes posted and not yet confirmed."""
        with self._cond:
            return self._pipeline.in_flight

    # ------------------------------------------------------------------ thread

    def _has_pending(self) -> bool:
        return self._pending_chars > 0 or bool(self._events)

    def _run(self) -> None:
        while True:
            with self._cond:
                cut = self._next_cut()
                if cut is None:
                    break
                script, ticket = cut
            self._send(script, ticket)
        if self._drain_on_stop:
            self._drain()

    def _next_cut(self) -> tuple[str, int] | None:
        """Wait (lock held) until a push may go; cut it. None when stopping."""
        while not self._stopping:
            now = time.monotonic()
            self._write_off_stalled(now)
            wait: float | None = self._stall_wait(now)
            if self._has_pending():
                room = self._pipeline.room()
                if room > 0:
                    due = self._last_flush + self._interval_s
                    if self._urgent or self._pending_chars >= self._flush_chars or now >= due:
                        script = self._take_batch_script(room)
                        if script is not None:
                            self._last_flush = now
                            return script, self._record(script)
                    else:
                        wait = due - now if wait is None else min(wait, due - now)
                elif self._urgent or self._events:
                    script = self._take_urgent_script()
                    if script is not None:
                        self.urgent_flushes += 1
                        return script, self._record(script)
            self._cond.wait(wait)
        return None

    def _record(self, script: str) -> int:
        ticket = self._pipeline.posted(len(script))
        self._posted_at[ticket] = time.monotonic()
        self.flushes += 1
        self.max_in_flight = max(self.max_in_flight, self._pipeline.in_flight)
        return ticket

    def _stall_wait(self, now: float) -> float | None:
        oldest = self._pipeline.oldest()
        if oldest is None:
            return None
        return max(0.0, self._posted_at[oldest] + self._stall_s - now)

    def _write_off_stalled(self, now: float) -> None:
        oldest = self._pipeline.oldest()
        while oldest is not None and now - self._posted_at[oldest] >= self._stall_s:
            log.warning("push %d not confirmed by the window after %.0f s; written off",
                        oldest, self._stall_s)
            self.written_off += 1
            self._done(oldest)
            oldest = self._pipeline.oldest()

    def _done(self, ticket: int) -> None:
        """Lock held: push `ticket` (and every earlier one) ran."""
        self._pipeline.ran(ticket)
        for t in [t for t in self._posted_at if t <= ticket]:
            del self._posted_at[t]
        self._cond.notify_all()

    def _ran(self, ticket: int) -> None:
        with self._cond:
            self._done(ticket)

    def _send(self, script: str, ticket: int) -> None:
        confirmed = threading.Event()

        def done() -> None:
            if not confirmed.is_set():
                confirmed.set()
                self._ran(ticket)

        try:
            self._post(script, done)
        except Exception:
            log.exception("push to the window failed")
            done()

    def _drain(self) -> None:
        """After stop(flush=True): push what is left, then wait for the window to run it."""
        deadline = getattr(self, "_drain_deadline", time.monotonic() + 2.0)
        while True:
            with self._cond:
                if not self._has_pending():
                    break
                script = self._take_batch_script(self._session_chars * max(1, len(self._output)))
                if script is None:
                    break
                ticket = self._record(script)
            self._send(script, ticket)
        with self._cond:
            while not self._pipeline.idle() and time.monotonic() < deadline:
                self._cond.wait(max(0.0, deadline - time.monotonic()))

    def _cut_session(self, sid: str, share: int) -> tuple[str, int]:
        """Whole contiguous chunks of `sid` up to `share` characters (at least one chunk)."""
        chunks = self._output[sid]
        first = chunks.popleft()
        taken, size, end = [first.text], len(first.text), first.end
        while chunks and chunks[0].offset == end and size + len(chunks[0].text) <= share:
            chunk = chunks.popleft()
            taken.append(chunk.text)
            size += len(chunk.text)
            end = chunk.end
        text = "".join(taken)
        self._output_len[sid] -= len(text)
        self._pending_chars -= len(text)
        if not chunks:
            del self._output[sid]
            del self._output_len[sid]
            self._urgent.discard(sid)
        return text, first.offset

    def _take_events(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        while self._events:
            owner = self._events[0][0]
            if owner is not None and owner in self._output:
                break  # that session's output is not all out yet; keep the order
            events.append(self._events.popleft()[1])
        return events

    def _script(self, output: dict[str, str], offsets: dict[str, int],
                events: list[dict[str, Any]]) -> str | None:
        if not output and not events:
            return None
        return f"{self._function}({encode_batch(output, events, offsets)})"

    def _take_batch_script(self, room: int) -> str | None:
        """Cut one batch of at most about `room` characters (lock held): fair shares."""
        output: dict[str, str] = {}
        offsets: dict[str, int] = {}
        shares = fair_shares(dict(self._output_len), room, self._session_chars, self._rotation)
        self._rotation += 1
        for sid, share in shares.items():
            output[sid], offsets[sid] = self._cut_session(sid, share)
        self._urgent.difference_update(output)
        return self._script(output, offsets, self._take_events())

    def _take_urgent_script(self) -> str | None:
        """The urgent slot (lock held): quiet sessions' small output and pending events, at
        most `limits.small_chars` characters; None when nothing fits or no slot is free."""
        small = self._pipeline.limits.small_chars
        if not self._pipeline.may_post_urgent(0):
            return None
        output: dict[str, str] = {}
        offsets: dict[str, int] = {}
        size = 0
        for sid in sorted(self._urgent):
            pending = self._output_len.get(sid, 0)
            if pending and size + pending <= small:
                output[sid], offsets[sid] = self._cut_session(sid, pending)
                size += len(output[sid])
        self._urgent.difference_update(output)
        self._urgent.intersection_update(self._output)  # larger ones wait for the normal room
        events: list[dict[str, Any]] = []
        while self._events:
            owner, event = self._events[0]
            if owner is not None and owner in self._output:
                break
            cost = len(json.dumps(event, ensure_ascii=False))
            if size + cost > small:
                break
            events.append(self._events.popleft()[1])
            size += cost
        return self._script(output, offsets, events)
