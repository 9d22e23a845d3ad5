"""Timers of the services (per-turn timeouts, settle checks, reply grace): one thread, one heap.

`Scheduler` is the protocol the services use; `ThreadScheduler` the real one; unit tests use a
manual one (`tests/unit/services/manual_scheduler.py`). Callbacks run on the scheduler's thread
and must not block for long.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)


class Timer(Protocol):
    def cancel(self) -> None:
        """Do not run the callback (no effect once it ran)."""
        ...


class Scheduler(Protocol):
    def monotonic(self) -> float:
        """The scheduler's clock (seconds, monotonic): what delays are measured against."""
        ...

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        """Run `callback` once, `delay_s` seconds from now."""
        ...

    def close(self) -> None:
        """Stop; pending callbacks never run."""
        ...


class _Entry:
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ThreadScheduler:
    """`Scheduler` on one daemon thread (started on first use)."""

    def __init__(self, name: str = "idea-timers") -> None:
        self._name = name
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, _Entry]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._closed = False

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        entry = _Entry(callback)
        with self._cond:
            if self._closed:
                entry.cancel()
                return entry
            heapq.heappush(self._heap, (time.monotonic() + max(0.0, delay_s),
                                        next(self._order), entry))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._cond.notify()
        return entry

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._heap.clear()
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closed:
                    if not self._heap:
                        self._cond.wait()
                        continue
                    due = self._heap[0][0] - time.monotonic()
                    if due <= 0:
                        break
                    self._cond.wait(due)
                if self._closed:
                    return
                _, _, entry = heapq.heappop(self._heap)
            if not entry.cancelled:
                try:
                    entry.callback()
                except Exception:
                    log.exception("timer callback failed")
