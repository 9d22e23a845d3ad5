"""Platform-independent building blocks shared by the PTY adapters.

Used by `base.PtyHostBase` and its two technologies (`posix.py`: ptyprocess, `windows.py`:
pywinpty): the child environment, the flow-control gate and the ordered input queue. Nothing
here touches a file descriptor or a process.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass

log = logging.getLogger(__name__)

#: Flow control (SPEC §5), in characters: stop reading above HIGH_WATER unacknowledged
#: characters, resume below LOW_WATER. VS Code's 100k/5k drained the pipeline at every pause
#: (an ack takes ~30 ms through the bridge); a wider window with a half-way resume keeps xterm.js
#: fed, measured in bench/pty_throughput.py (1.6 → 3.0 MB/s in the real window). Every push and
#: every ack waits its turn on Qt's GUI thread (also Chromium's UI thread, busy compositing in
#: software), so the cost is per round trip, not per byte: the window holds two full pushes
#: (PushPump's 256k) so one is parsed while the next travels (bench/profile_flood.py).
HIGH_WATER_CHARS = 512_000
LOW_WATER_CHARS = 256_000
#: An input sequence gap older than this is skipped so input is never stuck forever (ms).
SEQ_GAP_TIMEOUT_MS = 5_000
#: Bytes per `read` of the PTY master.
READ_CHUNK_BYTES = 65_536


@dataclass(frozen=True)
class ReadCoalescing:
    """How a burst of a PTY's output is gathered before it is handed on (ADR 023).

    Linux's line discipline gives the reader of a PTY master at most 4 095 bytes per `read`
    (`n_tty`'s buffer, `drivers/tty/n_tty.c`), and a reader that keeps up with a `cat` gets far
    less: ~24 000 reads for 20 MB, each paying the per-chunk work of the reader's thread (decode,
    offsets, the output bus, the push pump) under the GIL that Qt's GUI thread also needs. So a
    read of at least `from_bytes` bytes (a burst, not a keystroke's echo nor a prompt) is
    followed by more reads, each waited for at most `gap_s` seconds, until `max_bytes` bytes,
    `max_s` seconds since the first or the session's flow window (`FlowGate.room`): one chunk of
    up to 64 KiB instead of dozens. A burst's last piece waits at most `gap_s`. Nothing is
    gathered within `after_input_s` seconds of input written to the PTY: an echo, a prompt or
    a TUI's redraw after a key is what someone waits for (an ask's typed task too). A smaller
    read is handed on at once. Raises ValueError unless every field is positive and
    `from_bytes <= max_bytes`.
    """

    from_bytes: int = 512
    gap_s: float = 0.001
    max_s: float = 0.005
    max_bytes: int = READ_CHUNK_BYTES
    after_input_s: float = 0.05

    def __post_init__(self) -> None:
        if min(self.from_bytes, self.gap_s, self.max_s, self.max_bytes, self.after_input_s) <= 0 \
                or self.from_bytes > self.max_bytes:
            raise ValueError("ReadCoalescing: positive fields, from_bytes <= max_bytes")


TERM = "xterm-256color"
COLORTERM = "truecolor"


def build_child_env(
    base: Mapping[str, str],
    extra: Mapping[str, str],
    *,
    frozen: bool | None = None,
) -> dict[str, str]:
    """Return the environment of a PTY child: `base` (the user's), then `extra`, then TERM.

    In a PyInstaller/AppImage bundle the bootloader prepends its own library dir to
    `LD_LIBRARY_PATH` and keeps the user's value in `LD_LIBRARY_PATH_ORIG`; the child gets the
    user's value back (or no `LD_LIBRARY_PATH` at all when the bundle set it from nothing,
    i.e. `frozen` and no `_ORIG`). `frozen` defaults to `sys.frozen`. `TERM=xterm-256color` and
    `COLORTERM=truecolor` are always set (xterm.js renders the output).
    """
    if frozen is None:
        frozen = bool(getattr(sys, "frozen", False))
    env = dict(base)
    orig = env.pop("LD_LIBRARY_PATH_ORIG", None)
    if orig is not None:
        if orig:
            env["LD_LIBRARY_PATH"] = orig
        else:
            env.pop("LD_LIBRARY_PATH", None)
    elif frozen:
        env.pop("LD_LIBRARY_PATH", None)
    env.update(extra)
    env["TERM"] = TERM
    env["COLORTERM"] = COLORTERM
    return env


def user_environ() -> dict[str, str]:
    """A copy of this process's environment (the user's, modulo the bundle's changes)."""
    return dict(os.environ)


class FlowGate:
    """Flow control of one session's reader (SPEC §5).

    The reader calls `produced(chars)` after handing output to the sink and `wait_open()` before
    each read; the UI calls `ack(chars)` as xterm.js consumes text. Above `high` unacknowledged
    characters the gate closes; it reopens once they fall below `low`. While closed the reader
    does not read, the kernel buffer fills and the producer blocks: real backpressure.
    `bypass()` opens it for good (kill, exit, shutdown); `set_enabled(False)` stops counting
    (a session nobody is watching, e.g. an agent detached to the background).
    """

    def __init__(self, high: int = HIGH_WATER_CHARS, low: int = LOW_WATER_CHARS) -> None:
        if not 0 <= low < high:
            raise ValueError("need 0 <= low < high")
        self._high = high
        self._low = low
        self._cond = threading.Condition()
        self._unacked = 0
        self._paused = False
        self._enabled = True
        self._bypassed = False

    @property
    def unacked(self) -> int:
        """Characters handed to the sink and not yet acknowledged."""
        with self._cond:
            return self._unacked

    @property
    def room(self) -> int:
        """Characters that may still be produced before the gate closes (0 when closed; a
        large number while counting is off or bypassed)."""
        with self._cond:
            if self._bypassed or not self._enabled:
                return 1 << 62
            return max(0, self._high - self._unacked)

    @property
    def paused(self) -> bool:
        with self._cond:
            return self._paused

    def produced(self, chars: int) -> None:
        with self._cond:
            if not self._enabled:
                return
            self._unacked += chars
            if self._unacked > self._high:
                self._paused = True

    def ack(self, chars: int) -> None:
        """Acknowledge `chars` characters consumed by the view (negative values are ignored)."""
        if chars <= 0:
            return
        with self._cond:
            self._unacked = max(0, self._unacked - chars)
            if self._paused and self._unacked < self._low:
                self._paused = False
                self._cond.notify_all()

    def set_window(self, high: int, low: int) -> None:
        """New thresholds (ADR 008); reopens at once when the count is already below `low`.
        Raises ValueError unless 0 <= low < high."""
        if not 0 <= low < high:
            raise ValueError("need 0 <= low < high")
        with self._cond:
            self._high, self._low = high, low
            if self._paused and self._unacked < low:
                self._paused = False
                self._cond.notify_all()
            elif self._enabled and self._unacked > high:
                self._paused = True

    @property
    def window(self) -> tuple[int, int]:
        """`(high, low)` now."""
        with self._cond:
            return self._high, self._low

    def set_enabled(self, enabled: bool) -> None:
        """Turn counting on or off; turning it off (or on) forgets the unacknowledged count."""
        with self._cond:
            self._enabled = enabled
            self._unacked = 0
            self._paused = False
            self._cond.notify_all()

    def bypass(self) -> None:
        """Open the gate permanently (the reader must drain to EOF)."""
        with self._cond:
            self._bypassed = True
            self._paused = False
            self._cond.notify_all()

    def wait_open(self, timeout_s: float) -> bool:
        """Block up to `timeout_s` seconds while closed; return True when reading may go on."""
        with self._cond:
            if self._paused and not self._bypassed:
                self._cond.wait(timeout_s)
            return self._bypassed or not self._paused


class OrderedInput:
    """Reorders keystroke batches by their per-session `seq` (0, 1, 2, …).

    `put(seq, data)` may be called from any thread in any order; `take()` (one writer thread)
    blocks until the next chunk in sequence is available and returns all contiguous chunks
    joined. A gap not filled within `gap_timeout_ms` is skipped. A `seq` older than the next
    expected one (late after a skip) is delivered at once rather than dropped; seq 0 after
    others means a new view restarted its counter (page reload, another window).
    `close()` makes `take()` return None.
    """

    def __init__(self, gap_timeout_ms: int = SEQ_GAP_TIMEOUT_MS) -> None:
        self._cond = threading.Condition()
        self._pending: dict[int, str] = {}
        self._late: list[str] = []
        self._next = 0
        self._gap_since: float | None = None
        self._gap_timeout_s = gap_timeout_ms / 1000.0
        self._closed = False

    def put(self, seq: int, data: str) -> None:
        with self._cond:
            if self._closed:
                return
            if seq == 0 and self._next > 0:
                self._restart()  # a new view (page reload, other window) restarted its counter
            if seq < self._next:
                self._late.append(data)
            elif seq in self._pending:
                self._pending[seq] += data
            else:
                self._pending[seq] = data
            self._cond.notify_all()

    def put_unordered(self, data: str) -> None:
        """Input outside every view's sequence (IdeA typing for itself): delivered next, in
        the order such calls came, without disturbing the views' counters."""
        with self._cond:
            if self._closed:
                return
            self._late.append(data)
            self._cond.notify_all()

    def _restart(self) -> None:
        """Expect seq 0 next; input still queued from the old counter is delivered first."""
        self._late.extend(self._pending[k] for k in sorted(self._pending))
        self._pending.clear()
        self._next = 0
        self._gap_since = None

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._pending.clear()
            self._late.clear()
            self._cond.notify_all()

    def take(self) -> str | None:
        """Next in-order data (str, possibly several chunks joined); None once closed."""
        with self._cond:
            while True:
                if self._closed:
                    return None
                out: list[str] = []
                if self._late:
                    out.extend(self._late)
                    self._late.clear()
                if self._next in self._pending:
                    self._gap_since = None
                while self._next in self._pending:
                    out.append(self._pending.pop(self._next))
                    self._next += 1
                if out:
                    return "".join(out)
                if not self._pending:
                    self._gap_since = None
                    self._cond.wait()
                    continue
                now = time.monotonic()
                if self._gap_since is None:
                    self._gap_since = now
                left = self._gap_since + self._gap_timeout_s - now
                if left <= 0:
                    skipped_to = min(self._pending)
                    log.warning("input seq gap %d..%d skipped", self._next, skipped_to - 1)
                    self._next = skipped_to
                    self._gap_since = None
                    continue
                self._cond.wait(left)


def utf16_units(text: str) -> int:
    """Length of ``text`` in UTF-16 code units: the unit of JavaScript string offsets."""
    if text.isascii():  # the common case, O(1)-ish in C
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2

