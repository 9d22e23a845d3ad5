"""`idea sandbox-exec --plan FILE -- COMMAND [ARG...]`: confine this process to the plan, then
exec the command (SPEC C10, docs/adr/006-landlock.md).

Standard library and the sandbox adapter only (no pydantic): it runs before every sandboxed
agent. Exit codes, shell style, when the command never starts: 126 when the sandbox refuses
(the plan demands enforcement the kernel cannot give, or the plan is unreadable) or the command
cannot be executed, 127 when it is not found, 2 for a usage error. Messages go to stderr
prefixed `idea sandbox-exec:` so they show in the agent's terminal.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from app.core.domain.sandbox import SandboxPlan, SandboxRefused, SandboxStatus

if TYPE_CHECKING:  # app.core.ports imports pydantic models: too slow for this launcher
    from app.core.ports import SandboxEnforcer

REFUSED = 126
NOT_FOUND = 127
USAGE = 2
PREFIX = "idea sandbox-exec:"


def run_sandbox_exec(plan_file: str, argv: Sequence[str], *,
                     enforcer: SandboxEnforcer | None = None,
                     stderr: TextIO | None = None,
                     execvp: Callable[[str, list[str]], object] = os.execvp) -> int:
    """Read `plan_file`, enforce it with `enforcer` (default: this platform's), exec `argv`
    (looked up on `PATH`). Returns only when the command did not start (see the module doc
    for the codes); `execvp` and `stderr` are for tests."""
    err = stderr or sys.stderr
    args = list(argv[1:] if argv[:1] == ["--"] else argv)
    if not args:
        print(f"{PREFIX} no command given (usage: idea sandbox-exec --plan FILE -- COMMAND "
              "[ARG...])", file=err)
        return USAGE
    try:
        with open(plan_file, encoding="utf-8") as fh:
            plan = SandboxPlan.from_json(json.load(fh))
    except (OSError, ValueError) as exc:
        print(f"{PREFIX} refused to run {args[0]}: cannot read the sandbox plan "
              f"{plan_file}: {exc}", file=err)
        return REFUSED
    _create_folders(plan, err)
    if enforcer is None:
        from app.adapters.sandbox import default_enforcer

        enforcer = default_enforcer()
    try:
        status = enforcer.enforce(plan)
    except SandboxRefused as exc:
        print(f"{PREFIX} refused to run {args[0]}: the permissions demand an OS sandbox and "
              f"none can be applied ({exc.status.message})", file=err)
        return REFUSED
    _warn(status, err)
    err.flush()
    try:
        execvp(args[0], args)
    except FileNotFoundError:
        print(f"{PREFIX} command not found: {args[0]}", file=err)
        return NOT_FOUND
    except OSError as exc:
        where = " (outside the sandbox's grants?)" if status.confined else ""
        print(f"{PREFIX} cannot run {args[0]}: {exc.strerror or exc}{where}", file=err)
        return REFUSED
    return 0  # only a test's execvp returns


def _create_folders(plan: SandboxPlan, err: TextIO) -> None:
    """Make the missing folders the plan marks `create` (a CLI's home), before confining;
    a failure only warns (the grant is then skipped, as for any missing path)."""
    if not plan.enforces:
        return
    for grant in plan.grants:
        if grant.create and not os.path.exists(grant.path):
            try:
                os.makedirs(grant.path, mode=0o700, exist_ok=True)
            except OSError as exc:
                print(f"{PREFIX} warning: cannot create {grant.path}: {exc.strerror}",
                      file=err)


def _warn(status: SandboxStatus, err: TextIO) -> None:
    if status.state == "degraded":
        print(f"{PREFIX} warning: the OS sandbox is partial: {status.message}", file=err)
    elif status.state == "unsupported":
        print(f"{PREFIX} warning: running without an OS sandbox: {status.message}", file=err)
