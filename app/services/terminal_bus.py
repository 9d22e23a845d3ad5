"""The terminal-output bus: PTY output fanned out to everything that consumes it (SPEC §5).

It is the PTY host's `TerminalListener`. For each session it keeps the scrollback ring (the
first consumer: what a view repaints on attach) and the views attached to it (each window's
pump); consumers of every session's output (later: the prompt-ready detector, the
conversation log, the rate-limit detector) and of every exit subscribe globally.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.core.domain.scrollback import SCROLLBACK_CHARS, ScrollbackRing
from app.core.domain.sessions import TerminalChunk

log = logging.getLogger(__name__)

ChunkConsumer = Callable[[TerminalChunk], None]
ExitConsumer = Callable[[str, int | None], None]


@dataclass(frozen=True)
class SizeMark:
    """From UTF-16 unit `at` of a scrollback on, the PTY was `cols` x `rows` cells."""

    at: int
    cols: int
    rows: int


@dataclass(frozen=True)
class Snapshot:
    """What a view repaints when it attaches: the recent output, the offset just after it
    (UTF-16 units; later chunks start at or after it), the characters produced so far and the
    PTY sizes the scrollback was produced at (`sizes[0].at == 0` when known; empty when the
    session's size was never recorded), oldest first."""

    scrollback: str
    end: int
    produced: int
    sizes: tuple[SizeMark, ...] = ()


@dataclass
class _Stream:
    ring: ScrollbackRing
    end: int = 0
    produced: int = 0
    views: dict[str, ChunkConsumer] = field(default_factory=dict)
    #: `(stream offset in UTF-16 units, cols, rows)`, oldest first.
    sizes: list[tuple[int, int, int]] = field(default_factory=list)


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _marks(stream: _Stream, text: str) -> tuple[SizeMark, ...]:
    """The size marks of `stream` relative to its retained `text` (which ends at `end`)."""
    start = stream.end - _utf16_len(text)
    out: list[SizeMark] = []
    for offset, cols, rows in stream.sizes:
        at = max(0, offset - start)
        if out and out[-1].at == at:
            out[-1] = SizeMark(at, cols, rows)
        else:
            out.append(SizeMark(at, cols, rows))
    return tuple(out)


class TerminalOutputBus:
    """Fan-out of every session's output and exit. Thread-safe.

    `output`/`exited` are called by the PTY host's reader threads; consumers run there, in
    order, and must be quick and never block (a pump only queues).
    """

    def __init__(self, scrollback_chars: int = SCROLLBACK_CHARS) -> None:
        self._scrollback_chars = scrollback_chars
        self._lock = threading.Lock()
        self._streams: dict[str, _Stream] = {}
        self._taps: tuple[ChunkConsumer, ...] = ()
        self._exit_taps: tuple[ExitConsumer, ...] = ()

    # -- TerminalListener -----------------------------------------------------------------
    def output(self, chunk: TerminalChunk) -> None:
        """Append to the session's ring, then hand the chunk to its views and the taps."""
        with self._lock:
            stream = self._stream(chunk.session_id)
            stream.ring.append(chunk.text)
            stream.end = chunk.end
            stream.produced += len(chunk.text)
            views = tuple(stream.views.values())
        for consumer in (*views, *self._taps):
            try:
                consumer(chunk)
            except Exception:
                log.exception("output consumer failed for session %s", chunk.session_id)

    def exited(self, session_id: str, exit_code: int | None) -> None:
        """Hand the exit to every exit tap (after the session's last chunk)."""
        for consumer in self._exit_taps:
            try:
                consumer(session_id, exit_code)
            except Exception:
                log.exception("exit consumer failed for session %s", session_id)

    # -- consumers ------------------------------------------------------------------------
    def attach(self, session_id: str, view: str, consumer: ChunkConsumer) -> Snapshot:
        """`consumer` receives the session's chunks from now on, for view `view` (replacing an
        earlier consumer of that view); returns the snapshot to repaint first, atomically."""
        with self._lock:
            stream = self._stream(session_id)
            stream.views[view] = consumer
            text = stream.ring.text()
            return Snapshot(text, stream.end, stream.produced, _marks(stream, text))

    def sized(self, session_id: str, cols: int, rows: int, *, from_start: bool = False) -> None:
        """The session's PTY is now `cols` x `rows` (`from_start`: it was spawned so, its
        output counts from offset 0). Marks older than the retained scrollback are dropped but
        the last one, so the bookkeeping stays as bounded as the ring."""
        with self._lock:
            stream = self._stream(session_id)
            offset = 0 if from_start else stream.end
            stream.sizes = [m for m in stream.sizes if m[0] < offset]
            stream.sizes.append((offset, cols, rows))
            start = stream.end - _utf16_len(stream.ring.text())
            older = [m for m in stream.sizes if m[0] <= start]
            if len(older) > 1:
                stream.sizes = stream.sizes[len(older) - 1:]

    def set_scrollback_chars(self, chars: int) -> None:
        """Rings of sessions started from now on keep `chars` characters (> 0)."""
        if chars <= 0:
            raise ValueError("scrollback must be > 0 characters")
        with self._lock:
            self._scrollback_chars = chars

    def detach(self, session_id: str, view: str) -> None:
        """View `view` stops receiving the session's chunks (no error when it did not)."""
        with self._lock:
            stream = self._streams.get(session_id)
            if stream is not None:
                stream.views.pop(view, None)

    def tap(self, consumer: ChunkConsumer) -> None:
        """`consumer` receives every session's chunks (a detector, a log)."""
        with self._lock:
            self._taps = (*self._taps, consumer)

    def tap_exits(self, consumer: ExitConsumer) -> None:
        """`consumer(session_id, exit_code)` learns of every session's end."""
        with self._lock:
            self._exit_taps = (*self._exit_taps, consumer)

    def forget(self, session_id: str) -> None:
        """Drop the session's ring and views (an ended session nobody shows)."""
        with self._lock:
            self._streams.pop(session_id, None)

    def seed(self, session_id: str, text: str, sizes: Sequence[SizeMark] = ()) -> None:
        """Start a session's ring with `text` (a restored shell's previous output), before
        the session produces anything; offsets are unchanged (views repaint it as
        scrollback), `sizes` (relative to `text`, as `scrollback_sized` gave them) are the
        PTY sizes it was produced at, so a view replays it at them."""
        with self._lock:
            stream = self._stream(session_id)
            stream.ring.append(text)
            start, length = stream.end - _utf16_len(stream.ring.text()), _utf16_len(text)
            stream.sizes = [(start + m.at, m.cols, m.rows) for m in sizes
                            if m.at <= length] + stream.sizes

    def scrollback_sized(self, session_id: str) -> tuple[str, tuple[SizeMark, ...]]:
        """The session's kept recent output and the PTY sizes it was produced at (relative
        to that text, oldest first; empty when unknown), read at once."""
        with self._lock:
            stream = self._streams.get(session_id)
            if stream is None:
                return "", ()
            text = stream.ring.text()
            return text, _marks(stream, text)

    def session_ids(self) -> list[str]:
        """Sessions with a ring (diagnostics and tests)."""
        with self._lock:
            return list(self._streams)

    def _stream(self, session_id: str) -> _Stream:
        stream = self._streams.get(session_id)
        if stream is None:
            stream = self._streams[session_id] = _Stream(ScrollbackRing(self._scrollback_chars))
        return stream
