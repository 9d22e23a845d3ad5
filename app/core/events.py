"""Domain events pushed to the UI by the bridge (contract §2 and §4).

`to_json()` returns the exact object the UI receives in `batch["events"]`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.core.domain.layout import LayoutDoc


@dataclass(frozen=True)
class ProblemReported:
    """A file could not be read (`file` is an absolute path); `root` is the project, if any."""

    file: str
    message: str
    root: str | None = None
    type: str = "problem"

    def to_json(self) -> dict[str, Any]:
        """Return `{"type": "problem", "root"?, "file", "message"}`."""
        out: dict[str, Any] = {"type": self.type}
        if self.root is not None:
            out["root"] = self.root
        out["file"] = self.file
        out["message"] = self.message
        return out


@dataclass(frozen=True)
class SessionExited:
    """A PTY session ended; `exit_code` is `None` when killed by a signal or unknown."""

    session_id: str
    exit_code: int | None
    type: str = "sessionExited"

    def to_json(self) -> dict[str, Any]:
        """Return `{"type": "sessionExited", "sessionId", "exitCode"}`."""
        return {"type": self.type, "sessionId": self.session_id, "exitCode": self.exit_code}


@dataclass(frozen=True)
class LayoutChanged:
    """The layouts document of project `root` changed (e.g. an agent was launched)."""

    root: str
    layouts: LayoutDoc
    type: str = "layoutChanged"

    def to_json(self) -> dict[str, Any]:
        """Return `{"type": "layoutChanged", "root", "layouts": <layouts.json document>}`."""
        return {"type": self.type, "root": self.root, "layouts": self.layouts.to_json()}


DomainEvent = ProblemReported | SessionExited | LayoutChanged
