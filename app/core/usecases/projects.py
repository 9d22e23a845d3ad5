"""Create and open projects (SPEC C1)."""

from __future__ import annotations

import posixpath

from app.core.domain.agents import AgentManifest
from app.core.domain.documents import dump_document
from app.core.domain.layout import default_layout_doc
from app.core.domain.project import ProjectMeta
from app.core.errors import ALREADY_EXISTS, INVALID, NOT_FOUND, NOT_WRITABLE, AppError
from app.core.events import ProblemRaised
from app.core.ports import Clock, EventSink, FileSystem, IdSource
from app.core.usecases.project_files import load_project
from app.core.usecases.project_state import (
    AGENTS_FILE,
    CONTEXT_FILE,
    LAYOUTS_FILE,
    PROJECT_FILE,
    ProjectState,
    clean_root,
    ideai_path,
    root_basename,
)
from app.core.usecases.recent_projects import record_recent


class CreateProject:
    """Initialise `<root>/.ideai/` (or open it when it already exists) and record it as recent."""

    def __init__(self, fs: FileSystem, ids: IdSource, clock: Clock, events: EventSink,
                 data_dir: str) -> None:
        self._fs, self._ids, self._clock, self._events = fs, ids, clock, events
        self._data_dir = data_dir

    def execute(self, root: str, name: str | None = None) -> ProjectState:
        """Create the project at absolute `root`; `name` defaults to the folder name.

        A missing `root` is created when its nearest existing parent folder is writable. Writes
        `project.json`, `agents.json` (`{"version":1,"agents":[]}`), `layouts.json` (default
        doc) and an empty `CONTEXT.md`. Raises `INVALID` (relative path, or a file is in the
        way), `NOT_WRITABLE` (folder or parent not writable: nothing created),
        `ALREADY_EXISTS` when `.ideai` is a file.
        """
        root = clean_root(root)
        fs = self._fs
        ensure_project_folder(fs, root)
        ideai = ideai_path(root)
        if fs.exists(ideai) and not fs.is_dir(ideai):
            raise AppError(ALREADY_EXISTS, f"{ideai} exists and is not a folder", {"root": root})
        if not fs.is_dir(ideai):
            fs.make_dirs(ideai)
            meta = ProjectMeta(name=(name or "").strip() or root_basename(root))
            files = {
                PROJECT_FILE: dump_document(meta),
                AGENTS_FILE: dump_document(AgentManifest()),
                LAYOUTS_FILE: dump_document(default_layout_doc(self._ids.new_id)),
                CONTEXT_FILE: "",
            }
            for file, text in files.items():
                fs.write_text_atomic(ideai_path(root, file), text)
        return _loaded(fs, self._events, self._data_dir, root, self._ids, self._clock)


class OpenProject:
    """Open an existing project (also one created by the original IdeA)."""

    def __init__(self, fs: FileSystem, ids: IdSource, clock: Clock, events: EventSink,
                 data_dir: str) -> None:
        self._fs, self._ids, self._clock, self._events = fs, ids, clock, events
        self._data_dir = data_dir

    def execute(self, root: str, create_if_missing: bool = False) -> ProjectState:
        """Load `<root>/.ideai/`; corrupt files become `state.problems` (never rewritten).

        With `create_if_missing` (command line `--project DIR`) a missing folder or `.ideai/`
        is created as by `CreateProject`. Raises `NOT_FOUND` when `root` (details `reason:
        "folderMissing"`) or `.ideai/` (`"notAProject"`: the UI offers to initialise it) is
        missing, `NOT_WRITABLE` when creation fails. Publishes `ProblemRaised` per corrupt file.
        """
        root = clean_root(root)
        if not self._fs.is_dir(ideai_path(root)):
            if not create_if_missing:
                if not self._fs.is_dir(root):
                    raise AppError(NOT_FOUND, f"no such folder: {root}",
                                   {"root": root, "reason": "folderMissing"})
                raise AppError(NOT_FOUND, f"not an IdeA project yet: {ideai_path(root)} is "
                               "missing", {"root": root, "reason": "notAProject"})
            return CreateProject(self._fs, self._ids, self._clock, self._events,
                                 self._data_dir).execute(root)
        return _loaded(self._fs, self._events, self._data_dir, root, self._ids, self._clock)


def _loaded(fs: FileSystem, events: EventSink, data_dir: str, root: str, ids: IdSource,
            clock: Clock) -> ProjectState:
    """Load the project, record it as recent, publish a `ProblemRaised` per unreadable file."""
    state = load_project(fs, root, ids.new_id)
    record_recent(fs, data_dir, root, state.name, clock.now_ms())
    for problem in state.problems:
        events.publish(ProblemRaised(problem.file, problem.message, state.root,
                                    problem.recovery))
    return state


def is_absolute(path: str) -> bool:
    r"""POSIX `/...`, Windows drive (`C:\...`, `C:/...`) or UNC (`\\server\...`) paths."""
    drive = len(path) > 2 and path[0].isalpha() and path[1] == ":" and path[2] in "/\\"
    return path.startswith(("/", "\\\\")) or drive


def ensure_project_folder(fs: FileSystem, root: str) -> None:
    """Make sure `root` is a writable folder, creating it (and missing parents) if needed.

    Nothing is created unless the whole creation can succeed: the nearest existing ancestor
    must be a writable folder. Raises `INVALID` or `NOT_WRITABLE` as `CreateProject` says.
    """
    if not is_absolute(root):
        raise AppError(INVALID, f"choose an absolute folder path, not '{root}'", {"root": root})
    if fs.exists(root) and not fs.is_dir(root):
        raise AppError(INVALID, f"{root} is a file, not a folder", {"root": root})
    if fs.is_dir(root):
        if not fs.is_writable_dir(root):
            raise AppError(NOT_WRITABLE, f"folder is not writable: {root}", {"root": root})
        return
    parent = posixpath.dirname(root.replace("\\", "/"))
    while parent and not fs.exists(parent) and parent != posixpath.dirname(parent):
        parent = posixpath.dirname(parent)
    if fs.exists(parent) and not fs.is_dir(parent):
        raise AppError(INVALID, f"cannot create {root}: {parent} is a file", {"root": root})
    if not fs.is_writable_dir(parent):
        raise AppError(NOT_WRITABLE, f"cannot create {root}: {parent} is not writable",
                       {"root": root})
    fs.make_dirs(root)

