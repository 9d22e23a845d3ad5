"""Recent projects list (`<data_dir>/projects.json`)."""

from __future__ import annotations

import posixpath

from app.core.domain.documents import dump_document
from app.core.domain.project import RecentProject, RecentProjects
from app.core.errors import CORRUPT_FILE, AppError
from app.core.ports import FileSystem
from app.core.usecases.project_files import read_json

PROJECTS_FILE = "projects.json"


def _load(fs: FileSystem, data_dir: str) -> RecentProjects | None:
    """The list (empty when missing), or `None` when the file is corrupt."""
    try:
        return read_json(fs, posixpath.join(data_dir, PROJECTS_FILE), RecentProjects) \
            or RecentProjects()
    except AppError as exc:
        if exc.code != CORRUPT_FILE:
            raise
        return None


def record_recent(fs: FileSystem, data_dir: str, root: str, name: str, now_ms: int) -> None:
    """Put `root` first in `projects.json` (opened at `now_ms`, epoch ms).

    A corrupt `projects.json` is left untouched (nothing recorded). Raises NOT_WRITABLE.
    """
    recent = _load(fs, data_dir)
    if recent is None:
        return
    fs.make_dirs(data_dir)
    updated = recent.touched(root, name, now_ms)
    fs.write_text_atomic(posixpath.join(data_dir, PROJECTS_FILE), dump_document(updated))


class ListRecentProjects:
    """Recent projects, most recent first."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir

    def execute(self) -> list[RecentProject]:
        """Entries of `<data_dir>/projects.json`; `[]` when missing or corrupt."""
        recent = _load(self._fs, self._data_dir)
        return list(recent.recent) if recent is not None else []
