"""Project metadata (`.ideai/project.json`) and app-side files (`projects.json`,
`settings.json`), contract §1. Unknown keys survive a rewrite."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.domain import jsonshape as js

RECENT_LIMIT = 20


def _empty() -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class ProjectMeta:
    """`project.json`: `{"name", "defaultProfileId"?, "remote"?, ...unknown}`."""

    name: str
    default_profile_id: str | None = None
    remote: Any = None
    extra: Mapping[str, Any] = field(default_factory=_empty)

    @staticmethod
    def from_json(value: Any) -> ProjectMeta:
        """Decode; raises `AppError(INVALID)` on a wrong shape."""
        obj = js.as_object(value, "project.json")
        return ProjectMeta(js.opt_str(obj, "name", "project.json") or "",
                           js.opt_str(obj, "defaultProfileId", "project.json"), obj.get("remote"),
                           js.extra_keys(obj, ("name", "defaultProfileId", "remote")))

    def to_json(self) -> dict[str, Any]:
        """Encode; `defaultProfileId` and `remote` omitted when `None`."""
        out: dict[str, Any] = {"name": self.name}
        if self.default_profile_id is not None:
            out["defaultProfileId"] = self.default_profile_id
        if self.remote is not None:
            out["remote"] = self.remote
        return {**out, **self.extra}


@dataclass(frozen=True)
class RecentProject:
    """One recent project: absolute `root`, display `name`, `last_opened_ms` (epoch ms)."""

    root: str
    name: str
    last_opened_ms: int
    extra: Mapping[str, Any] = field(default_factory=_empty)

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"root", "name", "lastOpenedMs", ...unknown}`."""
        return {"root": self.root, "name": self.name, "lastOpenedMs": self.last_opened_ms,
                **self.extra}


@dataclass(frozen=True)
class RecentProjects:
    """`projects.json`: most recent first, one entry per root, at most `RECENT_LIMIT`."""

    recent: tuple[RecentProject, ...] = ()
    version: int = 1
    extra: Mapping[str, Any] = field(default_factory=_empty)

    @staticmethod
    def from_json(value: Any) -> RecentProjects:
        """Decode; raises `AppError(INVALID)` on a wrong shape."""
        obj = js.as_object(value, "projects.json")
        entries = []
        for i, raw in enumerate(js.as_list(obj.get("recent", []), "recent")):
            item = js.as_object(raw, f"recent[{i}]")
            entries.append(RecentProject(
                js.req_str(item, "root", f"recent[{i}]"),
                js.opt_str(item, "name", f"recent[{i}]") or "",
                js.opt_int(item, "lastOpenedMs", f"recent[{i}]") or 0,
                js.extra_keys(item, ("root", "name", "lastOpenedMs"))))
        return RecentProjects(tuple(entries), js.opt_int(obj, "version", "projects.json") or 1,
                              js.extra_keys(obj, ("version", "recent")))

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"version", "recent": [...], ...unknown}`."""
        return {"version": self.version, "recent": [r.to_json() for r in self.recent],
                **self.extra}

    def touched(self, root: str, name: str, now_ms: int) -> RecentProjects:
        """A copy with `root` first (opened at `now_ms`), deduplicated, capped."""
        old = next((r for r in self.recent if r.root == root), None)
        entry = RecentProject(root, name, now_ms, old.extra if old else {})
        rest = tuple(r for r in self.recent if r.root != root)
        return replace(self, recent=(entry, *rest)[:RECENT_LIMIT])


@dataclass(frozen=True)
class Settings:
    """`settings.json`: `{"version", "firstRunDone", ...unknown}`."""

    first_run_done: bool = False
    version: int = 1
    extra: Mapping[str, Any] = field(default_factory=_empty)

    @staticmethod
    def from_json(value: Any) -> Settings:
        """Decode; raises `AppError(INVALID)` on a wrong shape."""
        obj = js.as_object(value, "settings.json")
        return Settings(js.opt_bool(obj, "firstRunDone", "settings.json"),
                        js.opt_int(obj, "version", "settings.json") or 1,
                        js.extra_keys(obj, ("version", "firstRunDone")))

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"version", "firstRunDone", ...unknown}`."""
        return {"version": self.version, "firstRunDone": self.first_run_done, **self.extra}
