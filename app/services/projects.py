"""Opening, creating and closing projects (SPEC C1), shared by every door."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.core.domain.project import RecentProject
from app.core.errors import AppError
from app.core.events import ProblemRaised
from app.core.ports import EventSink, ProjectDoor
from app.core.usecases.project_state import Problem, ProjectState, clean_root, expand_home
from app.core.usecases.projects import CreateProject, OpenProject
from app.core.usecases.recent_projects import ListRecentProjects
from app.services.open_projects import OpenProjects
from app.services.session_keeper import SessionKeeper
from app.services.views import ProjectView, project_view


class ProjectService:
    """Open projects of this process. `startup_roots` (from `--project`) are created when
    missing, like the original app's command line. Each registered project gets its `doors`
    opened (the endpoint agents reach IdeA at, the file protocol), closed once it is
    forgotten."""

    def __init__(self, projects: OpenProjects, keeper: SessionKeeper, open_project: OpenProject,
                 create_project: CreateProject, list_recent: ListRecentProjects,
                 events: EventSink, doors: Sequence[ProjectDoor] = (),
                 startup_roots: Iterable[str] = (), home: str = "") -> None:
        self._projects, self._keeper, self._events = projects, keeper, events
        self._home = home
        self._open, self._create, self._recent = open_project, create_project, list_recent
        self._doors = tuple(doors)
        self._startup = frozenset(clean_root(r) for r in startup_roots)
        projects.when_removed(self._close_doors)

    def open(self, root: str) -> ProjectView:
        """The project at `root`, loaded unless already registered (a tab shows it again,
        with the agents that kept running after its tab closed). A leading `~` is the user's
        home. Errors of `OpenProject`."""
        root = expand_home(root, self._home)
        handle = self._projects.find(root)
        if handle is not None:
            with handle.lock:
                handle.in_tab = True
                return project_view(handle.state)
        state = self._open.execute(root, create_if_missing=clean_root(root) in self._startup)
        return self._register(state)

    def create(self, root: str, name: str | None = None) -> ProjectView:
        """Initialise (or open) the project at `root` (`~` = home). Errors of `CreateProject`."""
        root = expand_home(root, self._home)
        if self._projects.find(root) is not None:
            return self.open(root)
        return self._register(self._create.execute(root, name))

    def close(self, root: str, keep: frozenset[str] = frozenset()) -> None:
        """Close the project's tab: shells end (but those in `keep`), agents keep running (no
        error when not open)."""
        handle = self._projects.find(root)
        if handle is None:
            return
        with handle.lock:
            self._keeper.close_tab(handle, keep)

    def view(self, root: str) -> ProjectView:
        """The open project at `root`; raises `AppError(NOT_FOUND)`."""
        with self._projects.locked(root) as state:
            return project_view(state)

    def recent(self) -> list[RecentProject]:
        """Recent projects, most recent first."""
        return self._recent.execute()

    def _register(self, state: ProjectState) -> ProjectView:
        self._open_doors(state)
        handle = self._projects.add(state)
        with handle.lock:
            return project_view(handle.state)

    def _open_doors(self, state: ProjectState) -> None:
        for door in self._doors:
            try:
                address = door.open(state.root)
            except AppError as exc:
                problem = Problem(state.path(), f"delegation is off: {exc.message}")
                state.problems.append(problem)
                self._events.publish(ProblemRaised(problem.file, problem.message, state.root))
                continue
            if address is not None:
                state.endpoint = address

    def _close_doors(self, root: str) -> None:
        for door in self._doors:
            door.close(root)
