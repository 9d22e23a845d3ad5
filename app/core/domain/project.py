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


class Settings(Document):
    """`settings.json`: `{"version", "firstRunDone", ...unknown}`."""

    version: StrictInt = 1
    first_run_done: StrictBool = False
