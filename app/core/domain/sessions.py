"""What a PTY adapter needs to start a process."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SpawnSpec:
    """A process to start in a PTY.

    `command` is an executable (absolute path or name), `args` its arguments, `cwd` an absolute
    directory, `env` variables *added* to the user's environment by the adapter, `cols`/`rows`
    the initial terminal size in character cells, `session_id` the id the session will carry.
    """

    command: str
    args: list[str]
    cwd: str
    env: dict[str, str] = field(default_factory=dict)
    cols: int = 80
    rows: int = 24
    session_id: str = ""
