"""Python → JS pushes: one `PushPump` thread per window batches domain events and PTY output
into a single `window.__ideaPush(batch)` call per tick (SPEC §5, contracts §4).

`batch = {"output": {sessionId: "text"}, "offsets": {sessionId: n}, "events": [{"type"}...]}`.
The pump receives output as `TerminalChunk`s of the sessions its window shows (from the
terminal-output bus) and events already in wire form (from the event bus); offsets come from
the chunks, stamped by the PTY host, so any number of windows repaint one session exactly.

Cadence: a flush happens at once when output arrives for a terminal that was quiet (its echo
must not wait behind a chatty one), otherwise at most every `interval_ms` or as soon as
`flush_chars` characters are pending, whichever comes first. Each session contributes whole
chunks up to about `session_chars` characters to one batch (at least one chunk, never a split
one); the remainder goes in a following tick. Events are
kept in order, and an event naming a `sessionId` whose output is still partly pending waits for
that output (so `sessionExited` never overtakes the last lines).

Each `evaluate` is one round trip through Qt's GUI thread (Chromium's UI thread, busy compositing
during a flood): ~25–45 ms whatever the size, so a flood moves in few large batches (256k
characters, half the PTY flow-control window) rather than many small ones.

`evaluate` (e.g. `window.evaluate_js`) blocks until the script ran and deadlocks on the GUI
thread: the pump only ever calls it from its own thread.
"""

from __future__ import annotations

import collections
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.core.domain.sessions import TerminalChunk

log = logging.getLogger(__name__)

PUSH_FUNCTION = "window.__ideaPush"


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
    """Batches pushes to one window.

    Parameters:
      - `evaluate(script)`: runs JS in the window and blocks until it ran (`evaluate_js`).
      - `interval_ms`: minimum spacing of flushes while output keeps coming (ms, ~8–16).
      - `flush_chars`: pending characters that trigger a flush before the interval ends.
      - `session_chars`: the most characters one session contributes to one batch.
      - `function`: the JS function called with the batch (`window.__ideaPush`).

    `add_chunk` / `add_event` are thread-safe and never block on the window. Until `start()`
    (the UI signalled readiness) everything is queued. `stop()` ends the thread; later adds are
    dropped.
    """

    def __init__(
        self,
        evaluate: Callable[[str], object],
        *,
        interval_ms: int = 10,
        flush_chars: int = 256_000,
        session_chars: int = 256_000,
        function: str = PUSH_FUNCTION,
        name: str = "idea-push",
    ) -> None:
        if interval_ms < 0 or flush_chars <= 0 or session_chars <= 0:
            raise ValueError("interval_ms >= 0, flush_chars > 0 and session_chars > 0")
        self._evaluate = evaluate
        self._interval_s = interval_ms / 1000.0
        self._flush_chars = flush_chars
        self._session_chars = session_chars
        self._function = function
        self._name = name
        self._cond = threading.Condition()
        self._output: dict[str, collections.deque[TerminalChunk]] = {}
        self._output_len: dict[str, int] = {}
        self._pending_chars = 0
        self._events: collections.deque[tuple[str | None, dict[str, Any]]] = collections.deque()
        self._last_add: dict[str, float] = {}
        self._last_flush = 0.0
        self._urgent = False
        self._started = False
        self._stopping = False
        self._drain_on_stop = False
        self._thread: threading.Thread | None = None
        self.flushes = 0  # number of `evaluate` calls made (diagnostics, benchmarks)

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
                self._urgent = True
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
        """Stop the pump thread; with `flush`, first push everything still pending.

        Waits up to `timeout_s` seconds for the thread (not when called from the pump itself).
        """
        with self._cond:
            self._stopping = True
            self._drain_on_stop = flush
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout_s)

    @property
    def running(self) -> bool:
        t = self._thread
        return t is not None and t.is_alive()

    # ------------------------------------------------------------------ thread

    def _has_pending(self) -> bool:
        return self._pending_chars > 0 or bool(self._events)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopping and not self._has_pending():
                    self._cond.wait()
                while not self._stopping:
                    now = time.monotonic()
                    due = self._last_flush + self._interval_s
                    if self._urgent or self._pending_chars >= self._flush_chars or now >= due:
                        break
                    self._cond.wait(due - now)
                if self._stopping:
                    break
                self._urgent = False
                self._last_flush = time.monotonic()
                script = self._take_batch_script()
            self._push(script)
        if self._drain_on_stop:
            while True:
                with self._cond:
                    if not self._has_pending():
                        break
                    script = self._take_batch_script()
                self._push(script)

    def _push(self, script: str | None) -> None:
        if script is None:
            return
        try:
            self._evaluate(script)
        except Exception:
            log.exception("push to the window failed")
        self.flushes += 1

    def _take_batch_script(self) -> str | None:
        """Cut one batch from the pending state (lock held) and return its script."""
        output: dict[str, str] = {}
        offsets: dict[str, int] = {}
        for sid in list(self._output):
            chunks = self._output[sid]
            first = chunks.popleft()
            taken, budget, end = [first.text], self._session_chars - len(first.text), first.end
            while chunks and budget > 0 and chunks[0].offset == end:  # contiguous chunks only
                chunk = chunks.popleft()
                taken.append(chunk.text)
                budget -= len(chunk.text)
                end = chunk.end
            text = "".join(taken)
            output[sid] = text
            offsets[sid] = first.offset
            self._output_len[sid] -= len(text)
            self._pending_chars -= len(text)
            if not chunks:
                del self._output[sid]
                del self._output_len[sid]
        events: list[dict[str, Any]] = []
        while self._events:
            owner = self._events[0][0]
            if owner is not None and owner in self._output:
                break  # that session's output is not all out yet; keep the order
            events.append(self._events.popleft()[1])
        if not output and not events:
            return None
        return f"{self._function}({encode_batch(output, events, offsets)})"
