"""`layouts.json` on disk: recovering from an unreadable one (SPEC §3: a file IdeA cannot parse
is reported and never overwritten silently: the user keeps the broken file as `.bak` and starts
fresh), and reading it again after an edit outside IdeA (ADR 022)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.domain.documents import dump_document
from app.core.domain.layout import LayoutDoc
from app.core.errors import INVALID, AppError
from app.core.events import LayoutChanged, ProblemResolved
from app.core.ports import EventSink, FileSystem
from app.core.usecases.project_files import LayoutsReload, reload_layouts, require_layouts
from app.core.usecases.project_state import LAYOUTS_FILE, ProjectState


@dataclass(frozen=True)
class FreshStart:
    """The layouts now written to `layouts.json` and where the broken file went (absolute)."""

    layouts: LayoutDoc
    backup: str


class StartFreshLayouts:
    """Move the broken `layouts.json` aside (`layouts.json.bak`, else `.bak-2`, `.bak-3`…) and
    write the layouts the project used in memory meanwhile."""

    def __init__(self, fs: FileSystem, events: EventSink) -> None:
        self._fs, self._events = fs, events

    def execute(self, project: ProjectState) -> FreshStart:
        """Publishes `ProblemResolved` then `LayoutChanged`. Raises `INVALID` when the file is
        not broken (nothing to recover), `NOT_WRITABLE` (then nothing changed)."""
        if not project.layouts_broken:
            raise AppError(INVALID, f"{project.path(LAYOUTS_FILE)} is readable: nothing to "
                           "recover")
        path = project.path(LAYOUTS_FILE)
        backup = self._free_name(f"{path}.bak")
        doc = require_layouts(project)
        if self._fs.exists(path):
            self._fs.move(path, backup)
        self._fs.write_text_atomic(path, dump_document(doc))
        project.layouts_broken = False
        project.problems[:] = [p for p in project.problems if p.file != path]
        self._events.publish(ProblemResolved(path, project.root))
        self._events.publish(LayoutChanged(project.root, doc))
        return FreshStart(doc, backup)

    def _free_name(self, wanted: str) -> str:
        n, name = 1, wanted
        while self._fs.exists(name):
            n += 1
            name = f"{wanted}-{n}"
        return name


class ReloadLayouts:
    """Read `layouts.json` again after an edit outside IdeA (`reload_layouts`)."""

    def __init__(self, fs: FileSystem) -> None:
        self._fs = fs

    def execute(self, project: ProjectState) -> LayoutsReload:
        """What changed in `project` (updated in place); writes nothing, raises nothing: an
        unreadable file becomes its problem."""
        return reload_layouts(self._fs, project)
