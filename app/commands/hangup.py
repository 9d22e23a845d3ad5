"""A blocking command's caller going away (SPEC C8: nobody works for an asker that left).

The doors run `Dispatcher.dispatch` in a worker thread; when their caller hangs up (the `idea`
process was interrupted, the MCP client cancelled the call or disconnected) the event loop
cancels the waiting task, and `dispatch_in_thread` tells the orchestrator through a
`HangupSignal` so the ask is withdrawn (`CANCELLED`) instead of being done for nobody.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import anyio
import anyio.to_thread

from app.core.domain.delegation import AgentCaller
from app.core.ports import Dispatcher


class HangupSignal:
    """`Hangup` for one call: `hang_up()` (any thread) runs the callbacks once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._hung_up = False

    def on_hangup(self, callback: Callable[[], None]) -> None:
        """Call `callback` when the caller hangs up (at once when it already has)."""
        with self._lock:
            if not self._hung_up:
                self._callbacks.append(callback)
                return
        callback()

    def hang_up(self) -> None:
        """The caller left (idempotent)."""
        with self._lock:
            if self._hung_up:
                return
            self._hung_up = True
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    @property
    def hung_up(self) -> bool:
        """Whether the caller left."""
        return self._hung_up


async def dispatch_in_thread(dispatcher: Dispatcher, caller: AgentCaller,
                             command: dict[str, Any], limiter: anyio.CapacityLimiter,
                             hangup: HangupSignal | None = None) -> dict[str, Any]:
    """`dispatcher.dispatch(caller.root, caller, command)` in a worker thread; when the task is
    cancelled (its caller went away) the call's `hangup` fires and the thread is abandoned (it
    ends once the orchestrator withdrew the ask)."""
    signal = hangup or HangupSignal()
    call = partial(dispatcher.dispatch, caller.root, caller, command, signal)
    try:
        return await anyio.to_thread.run_sync(call, abandon_on_cancel=True, limiter=limiter)
    except anyio.get_cancelled_exc_class():
        signal.hang_up()
        raise
