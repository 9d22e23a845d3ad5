"""Pure parts of an agent launch: where the context goes and how the CLI is started (SPEC C5)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from app.core.domain.profiles import AGENT_RUN_DIR, Profile

DEFAULT_CONTEXT_NAME = "CONTEXT.md"


@dataclass(frozen=True)
class Injection:
    """Where to write the composed context (`file`, absolute) and what to add to the command."""

    file: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)


def plan_injection(profile: Profile, run_dir: str) -> Injection:
    """Decide how `profile` receives its context when started in `run_dir` (absolute).

    `conventionFile` → `<run_dir>/<target>` read by the CLI from its cwd; `flag` → the file path
    appended after the flag (e.g. `--read <run_dir>/CONVENTIONS.md`); `env` → the path in the
    variable; `stdin` → the file only (not typed into the terminal in this version). Without a
    `target`, the file is `<run_dir>/CONTEXT.md`.
    """
    ci = profile.context_injection
    name = posixpath.basename(ci.target or "") or DEFAULT_CONTEXT_NAME
    path = posixpath.join(run_dir, name)
    if ci.strategy == "flag" and ci.flag:
        return Injection(path, args=(ci.flag, path))
    if ci.strategy == "env" and ci.var:
        return Injection(path, env={ci.var: path})
    return Injection(path)


def agent_cwd(profile: Profile, run_dir: str, project_root: str) -> str:
    """The working directory from `profile.cwd_template` (`{agentRunDir}`, `{projectRoot}`)."""
    template = profile.cwd_template or AGENT_RUN_DIR
    return template.replace(AGENT_RUN_DIR, run_dir).replace("{projectRoot}", project_root)
