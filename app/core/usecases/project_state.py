"""In-memory state of one open project, held by the services layer between calls (contract §3)."""

from __future__ import annotations

import ntpath
import posixpath
from dataclasses import dataclass, field
from typing import Any

from app.core.domain.agents import AgentManifest
from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_history import LayoutHistory
from app.core.domain.layout_nodes import leaves
from app.core.domain.pending_kills import PendingKills
from app.core.domain.project import ProjectMeta
from app.core.domain.sessions import SessionRecord, live_session_of

IDEAI = ".ideai"
PROJECT_FILE = "project.json"
AGENTS_FILE = "agents.json"
LAYOUTS_FILE = "layouts.json"
PERMISSIONS_FILE = "permissions.json"
CONTEXT_FILE = "CONTEXT.md"
#: Where IdeA writes personas (`agents/<slug>.md`, `unique_md_path`), as a pattern of paths in
#: `.ideai/` (gitignore's wildcards): what the file watcher reports edits of.
PERSONA_FILES = "agents/*.md"


def ideai_path(root: str, *parts: str) -> str:
    """Absolute path of `<root>/.ideai/<parts...>`."""
    return posixpath.join(root, IDEAI, *parts)


def clean_root(root: str) -> str:
    """`root` as one spelling per folder, the key every layer compares: `.` and `..` parts and
    doubled separators folded (lexically, no file system), no trailing separator (a bare `/`
    stays). `C:\\work\\..\\x` style roots fold with Windows' rules. `""` stays `""`."""
    if not root.strip():
        return root
    windows = "\\" in root or (len(root) > 1 and root[1] == ":")
    folded = ntpath.normpath(root) if windows else posixpath.normpath(root)
    stripped = folded.rstrip("/\\")
    return stripped or folded


def expand_home(path: str, home: str) -> str:
    """`path` with a leading `~` (alone, or before `/` or `\\`) replaced by `home` (absolute);
    unchanged when `home` is empty or the path does not start so (`~user` is left alone)."""
    stripped = path.strip()
    if not home or not stripped.startswith("~"):
        return path
    if stripped == "~" or stripped[1] in "/\\":
        return clean_root(home) + stripped[1:]
    return path


def root_basename(root: str) -> str:
    """Last component of `root` (`/` or `\\` separated), used as default project name."""
    return clean_root(root).replace("\\", "/").rsplit("/", 1)[-1] or root


#: `Problem.recovery` of an unreadable `layouts.json`: keep it as `.bak` and start fresh.
START_FRESH = "startFresh"


@dataclass(frozen=True)
class Problem:
    """A project file that could not be read: absolute `file` and a human `message`;
    `recovery` names what the user can do about it in one click (`START_FRESH`), if anything."""

    file: str
    message: str
    recovery: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"file", "message", "recovery"?}`."""
        out: dict[str, Any] = {"file": self.file, "message": self.message}
        if self.recovery is not None:
            out["recovery"] = self.recovery
        return out


@dataclass
class ProjectState:
    """Mutable state of an open project.

    `manifest` is `None` when `agents.json` is corrupt (then `problems` names it and the file is
    never written). A corrupt `layouts.json` gives a fresh single-cell `layouts` in memory with
    `layouts_broken` set: edits apply but nothing is written until the user keeps the broken
    file as `.bak` and starts fresh (`StartFreshLayouts`). `history` is the layout undo/redo
    stack; `sessions` holds every session the project owns (running, or ended and still
    shown in a cell), by session id; `endpoint` is the address agents reach IdeA at (None
    while delegation is unavailable).
    """

    root: str
    name: str
    meta: ProjectMeta | None
    manifest: AgentManifest | None
    layouts: LayoutDoc | None
    problems: list[Problem] = field(default_factory=list)
    history: LayoutHistory = field(default_factory=LayoutHistory)
    sessions: dict[str, SessionRecord] = field(default_factory=dict)
    endpoint: str | None = None
    #: Agents working on a headless (structured) turn: agent id -> that turn's session id.
    headless: dict[str, str] = field(default_factory=dict)
    #: `layouts.json` could not be read: `layouts` is a fresh one kept in memory only.
    layouts_broken: bool = False
    #: Shells of closed cells waiting out the close grace before their kill (ADR 021).
    pending_kills: PendingKills = field(default_factory=PendingKills)

    def path(self, *parts: str) -> str:
        """Absolute path under this project's `.ideai/`."""
        return ideai_path(self.root, *parts)

    def live_agent(self, agent_id: str) -> SessionRecord | None:
        """The live session of agent `agent_id`, if any."""
        return live_session_of(self.sessions, agent_id)

    def shown_sessions(self) -> set[str]:
        """Session ids shown in a cell of any of the project's layouts."""
        if self.layouts is None:
            return set()
        return {leaf.session for layout in self.layouts.layouts for leaf in leaves(layout.root)
                if leaf.session}


def mark_exited(state: ProjectState, session_id: str, exit_code: int | None) -> SessionRecord | None:
    """Record that `session_id` ended; return its updated record, or None when not owned.

    The leaf keeps showing the (dead) session so its last output stays visible.
    """
    record = state.sessions.get(session_id)
    if record is None:
        return None
    state.sessions[session_id] = ended = record.ended(exit_code)
    return ended
