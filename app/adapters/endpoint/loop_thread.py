"""One asyncio event loop in one daemon thread, for every endpoint of the app."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """Starts its loop on first use; `run` executes a coroutine there from any other thread.
    `loop_factory` makes the loop (default `asyncio.new_event_loop`)."""

    def __init__(self, name: str = "idea-endpoint", *,
                 loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None) -> None:
        self._name = name
        self._loop_factory = loop_factory or asyncio.new_event_loop
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def run(self, coro: Coroutine[Any, Any, T], timeout_s: float | None = 10.0) -> T:
        """Run `coro` on the loop and return its result (re-raising its exception). Must not be
        called from the loop's own thread. Raises `TimeoutError` after `timeout_s`."""
        loop = self._ensure()
        if threading.current_thread() is self._thread:
            coro.close()
            raise RuntimeError("LoopThread.run called from its own loop")
        return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout_s)

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop the loop (after the caller cancelled what runs there) and join the thread; the
        next `run` starts a new one."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout_s)
        if not thread.is_alive():
            loop.close()

    def _ensure(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = self._loop_factory()
                ready = threading.Event()
                thread = threading.Thread(target=self._main, args=(loop, ready), name=self._name,
                                          daemon=True)
                thread.start()
                ready.wait()
                self._loop, self._thread = loop, thread
            return self._loop

    @staticmethod
    def _main(loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        loop.run_forever()
