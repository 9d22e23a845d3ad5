"""What running a CLI's detection command found (SPEC C4): the value the `ProfileDetector` port
answers with and the editor's Test button shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: `installed`: found (and, when a detection command ran, it exited 0); `missing`: no such
#: command on the PATH / no such file; `failed`: it could not run or exited non-zero;
#: `timeout`: it did not answer in time (it was killed).
DetectionState = Literal["installed", "missing", "failed", "timeout"]
MAX_OUTPUT_CHARS = 4_000
MAX_VERSION_CHARS = 200


@dataclass(frozen=True)
class Detection:
    """`state`; `path`: the executable found (absolute) or `None`; `version`: the first
    non-empty output line when installed (≤ 200 characters); `output`: what it printed,
    stdout then stderr (≤ 4,000 characters) or why it could not run; `exit_code`: its exit
    status when it ran to the end."""

    state: DetectionState
    path: str | None = None
    version: str | None = None
    output: str = ""
    exit_code: int | None = None

    @property
    def installed(self) -> bool:
        return self.state == "installed"


def version_line(output: str) -> str | None:
    """The first non-empty line of `output`, stripped and cut to 200 characters."""
    for line in output.splitlines():
        if line.strip():
            return line.strip()[:MAX_VERSION_CHARS]
    return None
