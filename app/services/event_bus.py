"""The domain-event bus: use cases publish, every window's pump (and later detectors, logs)
subscribes. Implements the core's `EventSink` port."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from app.core.events import DomainEvent

log = logging.getLogger(__name__)

EventHandler = Callable[[DomainEvent], None]


class EventBus:
    """Synchronous fan-out of domain events, in publication order per publishing thread.

    Handlers run on the publisher's thread and must be quick and never block (a pump only
    queues). A failing handler is logged and never stops the others.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._handlers: tuple[EventHandler, ...] = ()

    def subscribe(self, handler: EventHandler) -> Callable[[], None]:
        """Add `handler`; returns the function that removes it."""
        with self._lock:
            self._handlers = (*self._handlers, handler)

        def unsubscribe() -> None:
            with self._lock:
                self._handlers = tuple(h for h in self._handlers if h is not handler)

        return unsubscribe

    def publish(self, event: DomainEvent) -> None:
        """Hand `event` to every handler subscribed now."""
        for handler in self._handlers:
            try:
                handler(event)
            except Exception:
                log.exception("event handler failed on %s", type(event).__name__)
