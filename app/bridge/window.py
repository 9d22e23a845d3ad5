"""One window's door: its push pump (subscribed to the event bus, fed by the terminal views
it attaches) and its js_api. The window technology hides behind `WindowPort`."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from app.bridge.api import BridgeApi, WindowContext
from app.bridge.dto import event_dto
from app.bridge.push import Post, PushPump
from app.core.events import DomainEvent, session_of
from app.services import AppServices

_views = itertools.count(1)


class WindowPort(Protocol):
    """What the door needs of a window (the pywebview adapter implements it)."""

    def post_script(self, script: str, done: Callable[[], None]) -> None:
        """Hand `script` to the page without waiting; call `done()` (any thread) once it ran.
        Scripts run in posting order. Never called on the GUI thread."""
        ...

    def pick_folder(self) -> str | None:
        """A native folder dialog; None when cancelled."""
        ...


class WindowDoor:
    """Wires one window to the services. `close()` when the window closes."""

    def __init__(self, services: AppServices, window: WindowPort, *, data_dir: str,
                 first_run_disabled: bool = False, startup_projects: Sequence[str] = (),
                 pump_factory: Callable[[Post], PushPump] = PushPump,
                 features: Mapping[str, object] | None = None) -> None:
        self.view = f"window-{next(_views)}"
        self.pump = pump_factory(window.post_script)
        self._services = services
        self._unsubscribe = services.events.subscribe(self._on_event)
        ctx = WindowContext(view=self.view, consumer=self.pump.add_chunk,
                            on_ready=self.pump.start, pick_folder=window.pick_folder,
                            data_dir=data_dir, first_run_disabled=first_run_disabled,
                            startup_projects=tuple(startup_projects))
        self.api = BridgeApi(services, ctx)
        for name, feature in (features or {}).items():  # e.g. `windows` (the window manager)
            setattr(self.api, name, feature)

    def _on_event(self, event: DomainEvent) -> None:
        self.pump.add_event(event_dto(event).wire(), session_of(event))

    def close(self) -> None:
        """The window closed: no more events, its terminal views detach, the pump stops."""
        self._unsubscribe()
        self._services.terminals.detach_view(self.view)
        self.pump.stop()
