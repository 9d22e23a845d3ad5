"""Project metadata (`.ideai/project.json`) and app-side files (`projects.json`,
`settings.json`), contract §1. Unknown keys survive a rewrite."""

from __future__ import annotations

from typing import Any

from pydantic import Field, StrictBool, StrictInt

from app.core.domain.documents import Document, is_none

RECENT_LIMIT = 20


class ProjectMeta(Document):
    """`project.json`: `{"name", "defaultProfileId"?, "remote"?, ...unknown}`.

    `defaultProfileId` and `remote` (kept as read) are left out when `None`.
    """

    name: str = ""
    default_profile_id: str | None = Field(default=None, exclude_if=is_none)
    remote: Any = Field(default=None, exclude_if=is_none)


class RecentProject(Document):
    """One recent project: absolute `root`, display `name`, `last_opened_ms` (epoch ms):
    `{"root", "name", "lastOpenedMs", ...unknown}`."""

    root: str
    name: str = ""
    last_opened_ms: StrictInt = 0


class RecentProjects(Document):
    """`projects.json`: `{"version", "recent": [RecentProject], ...unknown}`, most recent first,
    one entry per root, at most `RECENT_LIMIT`."""

    version: StrictInt = 1
    recent: tuple[RecentProject, ...] = ()

    def touched(self, root: str, name: str, now_ms: int) -> RecentProjects:
        """A copy with `root` first (opened at `now_ms`), deduplicated, capped."""
        old = next((r for r in self.recent if r.root == root), None)
        entry = (RecentProject(root=root, name=name, last_opened_ms=now_ms) if old is None
                 else old.model_copy(update={"name": name, "last_opened_ms": now_ms}))
        rest = tuple(r for r in self.recent if r.root != root)
        return self.model_copy(update={"recent": (entry, *rest)[:RECENT_LIMIT]})


#: Characters of backend scrollback ring kept per line of terminal scrollback (a line with
#: colours and cursor moves is longer than its text).
RING_CHARS_PER_LINE = 128


class TerminalSettings(Document):
    """`settings.json` `terminal`: `{"fontSize": px 6..40, "scrollbackLines": 100..200000}`.
    Both apply to terminals created after a change (the zoom to every terminal at once)."""

    font_size: StrictInt = Field(default=13, ge=6, le=40)
    scrollback_lines: StrictInt = Field(default=10_000, ge=100, le=200_000)

    @property
    def ring_chars(self) -> int:
        """The backend scrollback ring a session gets (characters; at least the 1 MiB the
        ring keeps by default)."""
        return max(1024 * 1024, self.scrollback_lines * RING_CHARS_PER_LINE)


class UiSettings(Document):
    """`settings.json` `ui`: the side panel's `sidePanelWidth` (px 160..1200) and whether it
    is collapsed."""

    side_panel_width: StrictInt = Field(default=260, ge=160, le=1200)
    side_panel_collapsed: StrictBool = False


def _is_default(value: Any) -> bool:
    return bool(value == type(value)())


class Settings(Document):
    """`settings.json`: `{"version", "firstRunDone", "terminal"?, "ui"?, ...unknown}`
    (`terminal` and `ui` left out while all their values are the defaults)."""

    version: StrictInt = 1
    first_run_done: StrictBool = False
    terminal: TerminalSettings = Field(default_factory=TerminalSettings, exclude_if=_is_default)
    ui: UiSettings = Field(default_factory=UiSettings, exclude_if=_is_default)
