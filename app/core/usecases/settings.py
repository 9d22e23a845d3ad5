"""App settings (`<data_dir>/settings.json`)."""

from __future__ import annotations

import posixpath
from typing import Any

from app.core.domain.documents import dump_document, parse_document
from app.core.domain.project import Settings
from app.core.errors import INVALID, AppError
from app.core.ports import FileSystem

SETTINGS_FILE = "settings.json"


def _read(fs: FileSystem, data_dir: str) -> Settings:
    path = posixpath.join(data_dir, SETTINGS_FILE)
    text = fs.read_text(path)
    if text is None:
        return Settings()
    return parse_document(text, Settings, path)


class LoadSettings:
    """Read the app settings."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir

    def execute(self) -> Settings:
        """Settings from the file (defaults when missing); raises `AppError(CORRUPT_FILE)`."""
        return _read(self._fs, self._data_dir)


class MarkFirstRunDone:
    """Record that the first-run wizard was completed."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir

    def execute(self) -> Settings:
        """Set `firstRunDone` (unknown keys kept) and return the settings written.

        Raises `CORRUPT_FILE` (the unreadable file is not overwritten), `NOT_WRITABLE`.
        """
        data_dir = self._data_dir
        settings = _read(self._fs, data_dir).model_copy(update={"first_run_done": True})
        self._fs.make_dirs(data_dir)
        self._fs.write_text_atomic(posixpath.join(data_dir, SETTINGS_FILE),
                                   dump_document(settings))
        return settings


#: The sections of `settings.json` the window may change, and their keys.
EDITABLE = {"terminal": ("fontSize", "scrollbackLines"),
            "ui": ("sidePanelWidth", "sidePanelCollapsed")}


class UpdateSettings:
    """Change some of the user's preferences (terminal font size and scrollback, side panel)."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir

    def execute(self, patch: dict[str, Any]) -> Settings:
        """Merge `patch` (`{"terminal"?: {...}, "ui"?: {...}}`, camelCase keys of `EDITABLE`)
        into `settings.json` (unknown keys kept) and return what was written.

        Raises `INVALID` naming the field as the Settings dialog does (`Terminal font size:
        …`, details `{field: "settings.terminal.fontSize", label}`) or an unknown key,
        `CORRUPT_FILE` (the unreadable file is not overwritten), `NOT_WRITABLE`.
        """
        if not isinstance(patch, dict):
            raise AppError(INVALID, "settings: expected an object", {"field": ""})
        current = _read(self._fs, self._data_dir)
        merged = current.to_json()
        for section, values in patch.items():
            allowed = EDITABLE.get(section)
            if allowed is None or not isinstance(values, dict):
                raise AppError(INVALID, f"settings.{section}: cannot be changed here",
                               {"field": section})
            for key in values:
                if key not in allowed:
                    raise AppError(INVALID, f"settings.{section}.{key}: unknown setting",
                                   {"field": f"{section}.{key}"})
            merged[section] = {**merged.get(section, {}), **values}
        updated = Settings.from_json(merged, "settings", form="settings")
        self._fs.make_dirs(self._data_dir)
        self._fs.write_text_atomic(posixpath.join(self._data_dir, SETTINGS_FILE),
                                   dump_document(updated))
        return updated
