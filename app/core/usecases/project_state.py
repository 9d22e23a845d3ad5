"""In-memory state of one open project, held by the bridge between calls (contract §3)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from app.core.domain.agents import AgentManifest
from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_history import LayoutHistory
from app.core.domain.project import ProjectMeta

IDEAI = ".ideai"
PROJECT_FILE = "project.json"
AGENTS_FILE = "agents.json"
LAYOUTS_FILE = "layouts.json"
CONTEXT_FILE = "CONTEXT.md"


def ideai_path(root: str, *parts: str) -> str:
    """Absolute path of `<root>/.ideai/<parts...>`."""
    return posixpath.join(root, IDEAI, *parts)


def clean_root(root: str) -> str:
    """`root` without trailing separators (keeps a bare `/`)."""
    stripped = root.rstrip("/\\")
    return stripped or root


def root_basename(root: str) -> str:
    """Last component of `root` (`/` or `\\` separated), used as default project name."""
    return clean_root(root).replace("\\", "/").rsplit("/", 1)[-1] or root


@dataclass(frozen=True)
class Problem:
    """A project file that could not be read: absolute `file` and a human `message`."""

    file: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"file", "message"}`."""
        return {"file": self.file, "message": self.message}


@dataclass
class ProjectState:
    """Mutable state of an open project.

    `manifest`/`layouts` are `None` when their file is corrupt (then `problems` names it and the
    file is never written). `history` is the layout undo/redo stack; `live_agents` maps an agent
    id to its live `(session_id, node_id)`.
    """

    root: str
    name: str
    meta: ProjectMeta | None
    manifest: AgentManifest | None
    layouts: LayoutDoc | None
    problems: list[Problem] = field(default_factory=list)
    history: LayoutHistory = field(default_factory=LayoutHistory)
    live_agents: dict[str, tuple[str, str]] = field(default_factory=dict)

    def path(self, *parts: str) -> str:
        """Absolute path under this project's `.ideai/`."""
        return ideai_path(self.root, *parts)

    def agent_of_session(self, session_id: str) -> str | None:
        """The agent id whose live session is `session_id`, if any."""
        return next((a for a, (s, _) in self.live_agents.items() if s == session_id), None)


def mark_exited(state: ProjectState, session_id: str) -> str | None:
    """Forget the live agent session `session_id`; return the freed agent id, or `None`.

    The leaf keeps showing the (dead) session so its last output stays visible.
    """
    agent_id = state.agent_of_session(session_id)
    if agent_id is not None:
        del state.live_agents[agent_id]
    return agent_id
