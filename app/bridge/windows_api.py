"""``windows.*`` of one window's js_api: the workspace's windows and tabs (contracts §13).

Thin: camelCase in, the window manager or a service, plain JSON out, in the envelope."""

from __future__ import annotations

import builtins

from app.bridge import dto
from app.bridge.errors import exposed
from app.bridge.window_manager import WindowManager
from app.core.errors import INVALID, AppError
from app.core.ports import ProcessInspector
from app.services import AppServices
from app.services.views import ProjectView
from app.services.workspace import WorkspaceService


class WindowsApi:
    """The calls of the page in window `window_id`."""

    def __init__(self, window_id: str, manager: WindowManager, services: AppServices,
                 workspace: WorkspaceService, inspector: ProcessInspector | None) -> None:
        self._id, self._m, self._services = window_id, manager, services
        self._workspace, self._inspector = workspace, inspector

    @exposed
    def state(self) -> dict[str, object]:
        """`{windowId, windows: [{id, tabs, activeRoot}], labels: {root: label}}`."""
        return self._m.state(self._id)

    @exposed
    def open(self) -> str:
        """A new empty window (menu, Ctrl+Shift+N); returns its id."""
        return self._m.new_window()

    @exposed
    def placeTab(self, root: str) -> str:
        """This page opened `root`: returns the id of the window whose tab shows it (another
        window when it already had it: that one is focused)."""
        return self._m.place_tab(self._id, _root(root))

    @exposed
    def closeTab(self, root: str, keep: builtins.list[str] | None = None) -> None:
        """Close the project's tab: its shells end but those in `keep`; agents run on."""
        self._services.projects.close(_root(root), frozenset(str(s) for s in keep or ()))
        self._m.close_tab(_root(root))

    @exposed
    def activate(self, root: str | None) -> None:
        self._m.activate(self._id, _root(root) if root is not None else None)

    @exposed
    def moveTab(self, root: str, windowId: str, index: int | None = None) -> None:  # noqa: N803
        """Reorder (same window) or move a tab to window `windowId` at `index`."""
        self._m.move_tab(_root(root), str(windowId), _index(index))

    @exposed
    def relocate(self, oldRoot: str, newRoot: str) -> dto.Json:  # noqa: N803
        """A tab whose folder is missing now shows the project at `newRoot` (as `openSaved`),
        in place; the shells the last quit saved in `oldRoot` reopen there. Raises as
        `projects.open` (the tab stays as it was)."""
        view = self._services.projects.open(_root(newRoot))
        self._m.relocate(_root(oldRoot), view.root)
        return self._with_restored_shells(view)

    @exposed
    def dragStart(self, root: str) -> None:
        self._m.drag_start(self._id, _root(root))

    @exposed
    def dropTab(self, index: int | None = None) -> bool:
        """The dragged tab (of any window) was dropped on this window's tab bar, at gap
        `index` of its tabs as the bar shows them (the dragged one included)."""
        return self._m.drop_tab(self._id, _index(index))

    @exposed
    def dragEnd(self, screenX: int, screenY: int) -> str | None:  # noqa: N803
        """This window's tab drag ended, no tab bar took it, at the screen point as the page
        saw it (the pointer's position wins when the toolkit knows it); a new window's id when
        it was dropped outside every window."""
        return self._m.drag_end(self._id, int(screenX), int(screenY))

    @exposed
    def busy(self, sessionIds: builtins.list[str]) -> builtins.list[dict[str, str]]:  # noqa: N803
        """`[{sessionId, process}]`: the given plain shells running a foreground process other
        than the shell (e.g. `sleep`)."""
        if self._inspector is None:
            return []
        found = []
        for session_id in sessionIds:
            process = self._inspector.foreground(str(session_id))
            if process:
                found.append({"sessionId": str(session_id), "process": process})
        return found

    @exposed
    def liveAgents(self) -> builtins.list[dict[str, str]]:
        """`[{root, agentId}]`: agents running now in any window (asked about at quit)."""
        return [{"root": a.root, "agentId": a.agent_id} for a in self._workspace.live_agents()]

    @exposed
    def busyAtQuit(self) -> builtins.list[dict[str, object]]:
        """`[{root, sessionId, title, process, background}]`: every plain shell of the app
        (any window, shown in a cell or detached: `background` true) running a foreground
        process other than the shell: quitting would kill it, so the page asks first."""
        if self._inspector is None:
            return []
        found: builtins.list[dict[str, object]] = []
        for shell in self._workspace.live_shells():
            process = self._inspector.foreground(shell.session_id)
            if process:
                found.append({"root": shell.root, "sessionId": shell.session_id,
                              "title": shell.title, "process": process,
                              "background": not shell.shown})
        return found

    @exposed
    def close(self, keep: builtins.list[str] | None = None) -> None:
        """Close this window for real (the page asked what it had to); `keep`: shell session
        ids left running in the background."""
        self._m.request_close(self._id, frozenset(str(s) for s in keep or ()))

    @exposed
    def quit(self) -> None:
        """Quit IdeA: what to restore is recorded, every window closes, agents stop."""
        self._m.quit()

    @exposed
    def openSaved(self, root: str) -> dto.Json:
        """Open a tab of the saved workspace: the project (as `projects.open`), with the shells
        its cells showed at the last quit reopened first (their old output shown, marked)."""
        return self._with_restored_shells(self._services.projects.open(_root(root)))

    def _with_restored_shells(self, view: ProjectView) -> dto.Json:
        if self._workspace.restore_shells(view.root, self._services.terminals):
            view = self._services.projects.view(view.root)
        return dto.project_dto(view, self._services.orchestrator.queue_depth).wire()

    @exposed
    def wasRunning(self, root: str, agentId: str) -> bool:  # noqa: N803
        return self._workspace.was_running(_root(root), str(agentId))


def _root(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise AppError(INVALID, "root: a project folder is required", {"field": "root"})
    return value


def _index(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AppError(INVALID, "index: a number is required", {"field": "index"})
    return int(value)

