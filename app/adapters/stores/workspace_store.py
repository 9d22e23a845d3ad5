"""`workspace.json` on disk (the `WorkspaceStore` port): parsed with the pydantic model, written
atomically, never overwritten when it could not be read; saved scrollback of shells in
`<data dir>/restore/<session id>.txt`, bounded."""

from __future__ import annotations

import os
import re
import threading

from app.core.domain.documents import dump_document, parse_document
from app.core.domain.workspace import WorkspaceDoc
from app.core.errors import CORRUPT_FILE, INVALID, AppError
from app.core.ports import FileSystem

WORKSPACE_FILE = "workspace.json"
RESTORE_DIR = "restore"
#: Most characters of a shell's output kept for the next start (the tail).
SCROLLBACK_KEPT_CHARS = 200_000

_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


class JsonWorkspaceStore:
    """`WorkspaceStore` over a `FileSystem` in `data_dir` (absolute)."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir
        self._path = os.path.join(data_dir, WORKSPACE_FILE)
        self._corrupt: AppError | None = None
        self._lock = threading.Lock()

    @property
    def path(self) -> str:
        return self._path

    def load(self) -> WorkspaceDoc | None:
        text = self._fs.read_text(self._path)
        if text is None:
            return None
        try:
            return parse_document(text, WorkspaceDoc, self._path)
        except AppError as exc:
            if exc.code == CORRUPT_FILE:
                self._corrupt = exc
            raise

    def save(self, doc: WorkspaceDoc) -> None:
        if self._corrupt is not None:
            raise AppError(CORRUPT_FILE, f"{self._corrupt.message} (kept as is: the workspace "
                           "is not saved until the file is fixed or removed)",
                           dict(self._corrupt.details))
        with self._lock:
            self._fs.make_dirs(self._data_dir)
            self._fs.write_text_atomic(self._path, dump_document(doc))

    def write_scrollback(self, session_id: str, text: str) -> str:
        if not _SAFE_NAME.match(session_id):
            raise AppError(INVALID, f"sessionId: {session_id!r} is not a file name",
                           {"field": "sessionId"})
        name = f"{RESTORE_DIR}/{session_id}.txt"
        self._fs.make_dirs(os.path.join(self._data_dir, RESTORE_DIR))
        self._fs.write_text_atomic(os.path.join(self._data_dir, name),
                                   text[-SCROLLBACK_KEPT_CHARS:])
        return name

    def read_scrollback(self, name: str) -> str:
        parts = name.split("/")
        if len(parts) != 2 or parts[0] != RESTORE_DIR or not _SAFE_NAME.match(parts[1]):
            return ""
        # Exact: the saved output's `\r` are carriage returns (universal newlines draw a staircase).
        return self._fs.read_text(os.path.join(self._data_dir, name), exact=True) or ""
