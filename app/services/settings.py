"""The user's preferences as the window edits them (terminal font size and scrollback, the
side panel), and the backend scrollback ring that follows the scrollback setting."""

from __future__ import annotations

from typing import Any

from app.core.domain.project import Settings
from app.core.errors import CORRUPT_FILE, AppError
from app.core.usecases.settings import LoadSettings, UpdateSettings
from app.services.terminal_bus import TerminalOutputBus


class SettingsService:
    """`get()` / `update(patch)`; a new scrollback size applies to sessions started after it
    (their ring: `TerminalSettings.ring_chars`)."""

    def __init__(self, load: LoadSettings, update: UpdateSettings,
                 bus: TerminalOutputBus) -> None:
        self._load, self._update, self._bus = load, update, bus

    def get(self) -> Settings:
        """The settings; defaults when `settings.json` is unreadable (it is reported at
        start-up by `app.info`, never overwritten)."""
        try:
            return self._load.execute()
        except AppError as exc:
            if exc.code != CORRUPT_FILE:
                raise
            return Settings()

    def update(self, patch: dict[str, Any]) -> Settings:
        """Errors of `UpdateSettings`."""
        updated = self._update.execute(patch)
        self._bus.set_scrollback_chars(updated.terminal.ring_chars)
        return updated

    def apply(self) -> None:
        """At start: the ring size of the saved scrollback setting."""
        self._bus.set_scrollback_chars(self.get().terminal.ring_chars)
