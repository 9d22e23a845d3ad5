"""The workspace (SPEC C1, §8): which OS windows are open, where, and which project tabs each one
holds — `workspace.json` in the app data dir, restored at the next start.

```json
{"version": 1,
 "windows": [{"id": "w1", "bounds": {"x": 10, "y": 20, "width": 1400, "height": 900},
              "tabs": [{"root": "/home/me/api"}, {"root": "/home/me/web"}],
              "activeRoot": "/home/me/web"}],
 "restoredShells": [{"root", "sessionId", "cwd", "scrollback"}],
 "agentsRunningAtQuit": [{"root", "agentId"}]}
```

Invariants every operation keeps (property-tested): window ids are unique; a project root is
in at most one tab of one window; a window's `activeRoot` is one of its tabs or `None`.
The operations are pure: each returns a new document and raises `AppError(NOT_FOUND)` for a
window or tab that is not there, `AppError(INVALID)` for a bad index.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from pydantic import Field, StrictInt

from app.core.domain.documents import Document, is_empty, is_none
from app.core.errors import INVALID, NOT_FOUND, AppError


class Bounds(Document):
    """A window's frame on screen, in device-independent pixels (top-left `x`, `y`)."""

    x: int
    y: int
    width: StrictInt = 1400
    height: StrictInt = 900


#: How far a new window opens down and right of the last one (px), so it never hides it.
CASCADE_STEP = 32


def cascade(last: Bounds | None, step: int = CASCADE_STEP) -> Bounds | None:
    """Where a new window without a place of its own opens: `step` px down and right of the
    `last` window, same size; `None` (the toolkit's default place) when there is none."""
    if last is None:
        return None
    return last.model_copy(update={"x": last.x + step, "y": last.y + step})


#: Where a window opened by a drop sits relative to the drop point (px): the pointer lands on
#: its first tab, as if the window hung from the tab being dragged.
DROP_GRIP = (80, 16)
#: The size of a window opened by a drop when the source window's is not known.
DROP_SIZE = (1200, 800)


def window_for_drop(point: tuple[int, int], windows: Sequence[Bounds],
                    size: tuple[int, int] | None, screen: Bounds | None = None) -> Bounds | None:
    """A tab dropped at screen `point` that no tab bar took: `None` when the point is in one of
    the `windows` (a drop on a window's page, not its tab bar, changes nothing), else the
    bounds of the new window that opens there, of `size` (the source window's) or `DROP_SIZE`,
    hanging from the pointer by its first tab (`DROP_GRIP`). Given the `screen` the point is
    on (its available area), the window is kept whole on it: shrunk to fit, then moved in
    (a drop near the bottom edge opens a window above the pointer, not one mostly off-screen)."""
    x, y = point
    if any(b.x <= x < b.x + b.width and b.y <= y < b.y + b.height for b in windows):
        return None
    width, height = size or DROP_SIZE
    left, top = x - DROP_GRIP[0], y - DROP_GRIP[1]
    if screen is None:
        return Bounds(x=max(0, left), y=max(0, top), width=width, height=height)
    width, height = min(width, screen.width), min(height, screen.height)
    left = min(max(left, screen.x), screen.x + screen.width - width)
    top = min(max(top, screen.y), screen.y + screen.height - height)
    return Bounds(x=left, y=top, width=width, height=height)


class TabEntry(Document):
    """One project tab: the project's absolute `root`."""

    root: str


class WindowEntry(Document):
    """One OS window: stable `id` (`w1`, `w2`…), its `bounds` when known, its `tabs` in order
    and the tab shown (`active_root`, `None` = the start screen)."""

    id: str
    bounds: Bounds | None = Field(default=None, exclude_if=is_none)
    tabs: tuple[TabEntry, ...] = ()
    active_root: str | None = Field(default=None, exclude_if=is_none)

    def roots(self) -> list[str]:
        return [t.root for t in self.tabs]


class ScrollbackSize(Document):
    """From UTF-16 unit `at` of a saved scrollback on, its PTY was `cols` x `rows` cells."""

    at: int = Field(ge=0)
    cols: int = Field(ge=1)
    rows: int = Field(ge=1)


class RestoredShell(Document):
    """A plain shell alive at quit: its project, session id (the layout leaf names it), working
    directory, the file (relative to the data dir) holding its saved scrollback, the PTY sizes
    that scrollback was produced at (oldest first; its view replays it at them, ADR 012) and
    its title (`bash 2`: it comes back under it; empty in files written before titles were
    kept)."""

    root: str
    session_id: str
    cwd: str
    scrollback: str = Field(default="", exclude_if=is_empty)
    sizes: tuple[ScrollbackSize, ...] = Field(default=(), exclude_if=is_empty)
    title: str = Field(default="", exclude_if=is_empty)


class RunningAgent(Document):
    """An agent that was running when the user quit (it comes back resumable)."""

    root: str
    agent_id: str


class WorkspaceDoc(Document):
    """`workspace.json` (see the module docstring)."""

    version: StrictInt = 1
    windows: tuple[WindowEntry, ...] = ()
    restored_shells: tuple[RestoredShell, ...] = Field(default=(), exclude_if=is_empty)
    agents_running_at_quit: tuple[RunningAgent, ...] = Field(default=(), exclude_if=is_empty)

    # ------------------------------------------------------------------ queries

    def window(self, window_id: str) -> WindowEntry:
        """The window `window_id`; raises NOT_FOUND."""
        for w in self.windows:
            if w.id == window_id:
                return w
        raise AppError(NOT_FOUND, f"no window {window_id}", {"windowId": window_id})

    def holder_of(self, root: str) -> str | None:
        """Id of the window whose tab shows `root`, or `None`."""
        key = root_key(root)
        for w in self.windows:
            if any(root_key(t.root) == key for t in w.tabs):
                return w.id
        return None

    def next_window_id(self) -> str:
        """A window id not used yet (`w<n>`)."""
        used = {w.id for w in self.windows}
        n = 1
        while f"w{n}" in used:
            n += 1
        return f"w{n}"

    # ------------------------------------------------------------------ operations

    def with_window(self, window_id: str, bounds: Bounds | None = None) -> WorkspaceDoc:
        """Add an empty window (INVALID when the id is taken)."""
        if any(w.id == window_id for w in self.windows):
            raise AppError(INVALID, f"window {window_id} already exists", {"windowId": window_id})
        return self._windows((*self.windows, WindowEntry(id=window_id, bounds=bounds)))

    def without_window(self, window_id: str) -> WorkspaceDoc:
        """Remove a window and its tabs (NOT_FOUND when absent)."""
        self.window(window_id)
        return self._windows(tuple(w for w in self.windows if w.id != window_id))

    def with_bounds(self, window_id: str, bounds: Bounds) -> WorkspaceDoc:
        return self._replace(self.window(window_id).model_copy(update={"bounds": bounds}))

    def open_tab(self, window_id: str, root: str, index: int | None = None) -> WorkspaceDoc:
        """Put `root` in a tab of `window_id` at `index` (default: last) and show it. A project
        already in a tab elsewhere moves here (one tab per project)."""
        doc = self._drop_everywhere(root)
        target = doc.window(window_id)
        tabs = list(target.tabs)
        at = len(tabs) if index is None else index
        if not 0 <= at <= len(tabs):
            raise AppError(INVALID, f"tab index {at} is out of 0..{len(tabs)}", {"index": at})
        tabs.insert(at, TabEntry(root=root))
        return doc._replace(target.model_copy(update={"tabs": tuple(tabs), "active_root": root}))

    def close_tab(self, root: str) -> WorkspaceDoc:
        """Remove `root`'s tab; its window shows its neighbour (NOT_FOUND when in no tab)."""
        if self.holder_of(root) is None:
            raise AppError(NOT_FOUND, f"{root} is in no tab", {"root": root})
        return self._drop_everywhere(root)

    def move_tab(self, root: str, window_id: str, index: int | None = None) -> WorkspaceDoc:
        """Move `root`'s tab to `window_id` at `index` (default: last): reorders within one
        window, moves between two. Raises NOT_FOUND (tab or window), INVALID (index)."""
        source = self.holder_of(root)
        if source is None:
            raise AppError(NOT_FOUND, f"{root} is in no tab", {"root": root})
        self.window(window_id)
        kept = next(t for t in self.window(source).tabs if root_key(t.root) == root_key(root))
        return self.open_tab(window_id, kept.root, index)

    def drop_tab(self, root: str, window_id: str, slot: int | None = None) -> WorkspaceDoc:
        """`root`'s tab dropped on `window_id`'s tab bar at gap `slot` of its tabs as the bar
        shows them (0: before the first; `None` or past the end: after the last), the dragged
        tab counted where it is: within its own window, a gap right of it is one place less
        once it leaves its place, and either gap next to it leaves the order as it is.
        NOT_FOUND (tab or window)."""
        source = self.holder_of(root)
        if source is None:
            raise AppError(NOT_FOUND, f"{root} is in no tab", {"root": root})
        shown = self.window(window_id).tabs
        at = len(shown) if slot is None else min(max(slot, 0), len(shown))
        if source == window_id:
            here = next(i for i, t in enumerate(shown) if root_key(t.root) == root_key(root))
            if at > here:
                at -= 1
        return self.move_tab(root, window_id, at)

    def activate(self, window_id: str, root: str | None) -> WorkspaceDoc:
        """Show `root` in `window_id` (`None`: its start screen). NOT_FOUND when not its tab."""
        target = self.window(window_id)
        if root is not None:
            found = next((t.root for t in target.tabs if root_key(t.root) == root_key(root)),
                         None)
            if found is None:
                raise AppError(NOT_FOUND, f"{root} is not a tab of window {window_id}",
                               {"root": root, "windowId": window_id})
            root = found
        return self._replace(target.model_copy(update={"active_root": root}))

    def relocate(self, old_root: str, new_root: str) -> WorkspaceDoc:
        """The tab of `old_root` (a folder that went missing) now shows `new_root`, in place."""
        window_id = self.holder_of(old_root)
        if window_id is None:
            raise AppError(NOT_FOUND, f"{old_root} is in no tab", {"root": old_root})
        doc = self
        if root_key(new_root) != root_key(old_root) and self.holder_of(new_root) is not None:
            doc = self._drop_everywhere(new_root)
        target = doc.window(window_id)
        tabs = tuple(TabEntry(root=new_root) if root_key(t.root) == root_key(old_root) else t
                     for t in target.tabs)
        active = target.active_root
        if active is not None and root_key(active) == root_key(old_root):
            active = new_root
        return doc._replace(target.model_copy(update={"tabs": tabs, "active_root": active}))

    # ------------------------------------------------------------------ helpers

    def _drop_everywhere(self, root: str) -> WorkspaceDoc:
        key = root_key(root)
        windows = []
        for w in self.windows:
            roots = [t.root for t in w.tabs]
            index = next((i for i, r in enumerate(roots) if root_key(r) == key), None)
            if index is None:
                windows.append(w)
                continue
            tabs = w.tabs[:index] + w.tabs[index + 1:]
            active = w.active_root
            if active is not None and root_key(active) == key:
                active = tabs[min(index, len(tabs) - 1)].root if tabs else None
            windows.append(w.model_copy(update={"tabs": tabs, "active_root": active}))
        return self._windows(tuple(windows))

    def _replace(self, window: WindowEntry) -> WorkspaceDoc:
        return self._windows(tuple(window if w.id == window.id else w for w in self.windows))

    def _windows(self, windows: tuple[WindowEntry, ...]) -> WorkspaceDoc:
        return self.model_copy(update={"windows": windows})


def shells_kept_at_quit(live: Sequence[RestoredShell], pending: Sequence[RestoredShell],
                        shown_roots: Sequence[str], tab_roots: Sequence[str]
                        ) -> tuple[RestoredShell, ...]:
    """What a quit records to reopen: the `live` shells, then the `pending` ones (recorded at
    the last quit, not reopened in this run) of projects still in a tab (`tab_roots`) whose
    layouts this run could not show — not opened, or their layouts file unreadable: nothing
    of the user's is lost to a broken file. A pending shell of a project in `shown_roots` (its
    layouts were read) is dropped: its cell is gone, the user changed the layout; so is one
    of a project whose tab the user closed. One entry per session id."""
    shown = {root_key(r) for r in shown_roots}
    tabs = {root_key(r) for r in tab_roots}
    live_ids = {s.session_id for s in live}
    carried = [s for s in pending if root_key(s.root) in tabs - shown
               and s.session_id not in live_ids]
    return (*live, *carried)


def root_key(path: str) -> str:
    """Comparison key of a project root: normalised, no trailing separator."""
    return posixpath.normpath(path.replace("\\", "/")) if path else path


def moved_path(path: str, old_root: str, new_root: str) -> str:
    """`path` as it reads once the project at `old_root` moved to `new_root`: rebased when it
    is `old_root` or lies under it, unchanged otherwise.

    `moved_path("/a/api/src", "/a/api", "/b/api")` → `"/b/api/src"`.
    """
    key, old = root_key(path), root_key(old_root)
    if key == old:
        return new_root
    if old and key.startswith(old.rstrip("/") + "/"):
        return posixpath.join(root_key(new_root), key[len(old.rstrip("/")) + 1:])
    return path


def relocated_at_quit(shells: Sequence[RestoredShell], agents: Sequence[RunningAgent],
                      old_root: str, new_root: str,
                      ) -> tuple[list[RestoredShell], list[RunningAgent]]:
    """What the last quit recorded for project `old_root`, moved to `new_root` (the user
    relocated a project whose folder went missing): its shells' root and working directory,
    and its running agents' root. Entries of other projects are returned unchanged."""
    key = root_key(old_root)
    moved_shells = [s.model_copy(update={"root": new_root,
                                         "cwd": moved_path(s.cwd, old_root, new_root)})
                    if root_key(s.root) == key else s for s in shells]
    moved_agents = [a.model_copy(update={"root": new_root}) if root_key(a.root) == key else a
                    for a in agents]
    return moved_shells, moved_agents


def tab_labels(roots: list[str]) -> dict[str, str]:
    """Distinct tab labels: a folder's name, or, when several open projects share that name,
    `name — parent` with as many parent folders as needed to tell them apart.

    `tab_labels(["/a/api", "/b/api", "/c/web"])` → `{"/a/api": "api — a", "/b/api": "api — b",
    "/c/web": "web"}`.
    """
    parts = {r: [p for p in root_key(r).split("/") if p] or ["/"] for r in roots}
    labels: dict[str, str] = {}
    for root in roots:
        mine = parts[root]
        same = [o for o in roots if o != root and parts[o][-1] == mine[-1]]
        if not same:
            labels[root] = mine[-1]
            continue
        depth = 1
        while depth < len(mine) and any(parts[o][-1 - depth:-1] == mine[-1 - depth:-1]
                                        for o in same):
            depth += 1
        parent = "/".join(mine[-1 - depth:-1]) or "/"
        labels[root] = f"{mine[-1]} — {parent}"
    return labels
