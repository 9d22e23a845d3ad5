"""Test helpers shared by the PTY adapter tests (base, POSIX, Windows): a callback recorder and
polling waits. Waits poll; they never assert on timings."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from app.core.domain.sessions import TerminalChunk

DEADLINE_S = 20.0


class Acker(Protocol):
    def ack(self, session_id: str, chars: int) -> None: ...


class Recorder:
    """A PTY host's `TerminalListener` that records per session; ``auto_ack`` acknowledges
    output at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.texts: dict[str, list[str]] = {}
        self.chunks: dict[str, list[TerminalChunk]] = {}
        self.chars: dict[str, int] = {}
        self.exits: dict[str, int | None] = {}
        self.exit_calls = 0
        self.after_exit_output = False
        self.auto_ack: Acker | None = None

    def output(self, chunk: TerminalChunk) -> None:
        sid, text = chunk.session_id, chunk.text
        with self.lock:
            if sid in self.exits:
                self.after_exit_output = True
            self.texts.setdefault(sid, []).append(text)
            self.chunks.setdefault(sid, []).append(chunk)
            self.chars[sid] = self.chars.get(sid, 0) + len(text)
        if self.auto_ack is not None:
            self.auto_ack.ack(sid, len(text))

    def exited(self, sid: str, code: int | None) -> None:
        with self.lock:
            self.exits[sid] = code
            self.exit_calls += 1

    def text(self, sid: str) -> str:
        with self.lock:
            return "".join(self.texts.get(sid, []))

    def count(self, sid: str) -> int:
        with self.lock:
            return self.chars.get(sid, 0)


def wait_until(pred: Callable[[], bool], deadline_s: float = DEADLINE_S) -> bool:
    """Poll ``pred`` every 20 ms until true or ``deadline_s`` passed; returns its last value."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return pred()


def wait_stable(get: Callable[[], int], quiet_s: float = 0.5, deadline_s: float = DEADLINE_S) -> int:
    """Wait until ``get()`` stops changing for ``quiet_s`` seconds; return the value."""
    end = time.monotonic() + deadline_s
    last = get()
    while time.monotonic() < end:
        time.sleep(quiet_s)
        now = get()
        if now == last:
            return now
        last = now
    raise AssertionError("value never settled")
