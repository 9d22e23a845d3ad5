"""App settings (`<data_dir>/settings.json`)."""

from __future__ import annotations

import posixpath

from app.core.domain.documents import dump_document, parse_document
from app.core.domain.project import Settings
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
