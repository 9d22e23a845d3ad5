"""Wrapping a spawn with IdeA's sandbox launcher (SPEC C10): data only, so the launch wiring
just adds files and argv. Pure.

`ptyprocess` closes every inherited descriptor before its `preexec_fn`, so a Landlock ruleset
cannot be built by the parent: the child is `<idea> sandbox-exec --plan <run dir>/
sandbox-plan.json -- <argv>`, which confines itself and then execs the CLI (docs/adr/
006-landlock.md). The same wrapping serves PTY and headless launches.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.core.domain.launch_plan import LaunchPlan, PlannedFile
from app.core.domain.permission_rules import EffectivePermissions
from app.core.domain.sandbox import PLAN_FILE, SandboxPlan, SandboxStatus
from app.core.domain.sessions import SessionSandbox, SpawnSpec
from app.core.errors import INTERNAL, AppError

SUBCOMMAND = "sandbox-exec"
#: The status of a launch whose project poses no permissions.
NOTHING_POSED = SandboxStatus("off", "no permissions are posed")


def sandbox_files_and_argv(plan: SandboxPlan | None, run_dir: str,
                           idea_command: Sequence[str],
                           argv: Sequence[str]) -> tuple[tuple[PlannedFile, ...], list[str]]:
    """`(files to write, argv to spawn)` running `argv` under `plan`.

    `run_dir`: the agent's run dir (absolute); `idea_command`: IdeA's own argv prefix
    (`self_command()`); `argv`: the CLI and its arguments. With no plan, or one that restricts
    nothing, nothing is written and `argv` is returned unchanged. Otherwise the plan goes to
    `<run_dir>/sandbox-plan.json` and the argv becomes
    `[*idea_command, "sandbox-exec", "--plan", <that file>, "--", *argv]`.
    Call it only when the enforcer's `status(plan)` is `confined` or the plan is
    `fail_closed` (so that the launcher refuses, exit 126, with its message in the terminal).
    """
    if plan is None or not plan.enforces:
        return (), list(argv)
    path = posixpath.join(run_dir, PLAN_FILE)
    text = json.dumps(plan.to_json(), indent=2, ensure_ascii=False) + "\n"
    return ((PlannedFile(path, text),),
            [*idea_command, SUBCOMMAND, "--plan", path, "--", *argv])


def sandboxed_spawn(spawn: SpawnSpec, plan: SandboxPlan | None, run_dir: str,
                    idea_command: Sequence[str]) -> tuple[tuple[PlannedFile, ...], SpawnSpec]:
    """`sandbox_files_and_argv` applied to a `SpawnSpec` (same cwd, env and size)."""
    files, argv = sandbox_files_and_argv(plan, run_dir, idea_command,
                                         [spawn.command, *spawn.args])
    if not files:
        return (), spawn
    return files, replace(spawn, command=argv[0], args=argv[1:])


@dataclass(frozen=True)
class AgentSandbox:
    """An agent's permissions made ready for one launch (PTY or headless): its `effective`
    permissions (None: nothing posed), the compiled `plan` (None likewise), the `status` this
    machine gives the plan, and `refused` (the plan is fail-closed and this machine cannot
    confine: the launcher will refuse to run the CLI, exit 126, its message in the terminal).

    `wraps` says whether the CLI goes through `idea sandbox-exec`: only when there is something
    to confine and the process will be confined, or refused (contracts §9.3). Nothing posed, a
    plan confining nothing, or a platform without an OS sandbox: no wrapping at all.
    """

    run_dir: str
    effective: EffectivePermissions | None = None
    plan: SandboxPlan | None = None
    status: SandboxStatus = NOTHING_POSED
    refused: bool = False

    @property
    def wraps(self) -> bool:
        return self.plan is not None and self.plan.enforces and (self.status.confined
                                                                 or self.refused)

    @property
    def advisory(self) -> tuple[str, ...]:
        """What the policy asks that the OS cannot enforce (the plan's advisory lines)."""
        return self.plan.advisory if self.plan is not None else ()

    def wrap_argv(self, idea_command: Sequence[str],
                  argv: Sequence[str]) -> tuple[tuple[PlannedFile, ...], list[str]]:
        """`(files to write, argv)`: `argv` (the CLI and its arguments, or a headless
        launcher's argv prefix) run under the plan when `wraps`, else unchanged with no file
        (see `sandbox_files_and_argv`; `idea_command` is `self_command()`). Raises
        `AppError(INTERNAL)` when it must wrap and `idea_command` is empty (a wiring error:
        the CLI must not run unconfined)."""
        if self.wraps and not idea_command:
            raise AppError(INTERNAL, "the OS sandbox needs IdeA's own command line to launch "
                                     "the agent (self_command) and none was configured")
        return sandbox_files_and_argv(self.plan if self.wraps else None, self.run_dir,
                                      idea_command, argv)

    def wrap_spawn(self, spawn: SpawnSpec,
                   idea_command: Sequence[str]) -> tuple[tuple[PlannedFile, ...], SpawnSpec]:
        """`wrap_argv` applied to a PTY `SpawnSpec` (same cwd, env and size)."""
        files, argv = self.wrap_argv(idea_command, [spawn.command, *spawn.args])
        if not files:
            return (), spawn
        return files, replace(spawn, command=argv[0], args=argv[1:])

    def session(self, notes: Sequence[str] = ()) -> SessionSandbox:
        """What the agent's session record keeps: the status, `notes` (the vendor projection's)
        then the advisory lines, whether the launch is refused, and the plan's `exposed`."""
        return SessionSandbox(self.status, tuple(dict.fromkeys([*notes, *self.advisory])),
                              self.refused, self.plan.exposed if self.plan is not None else ())

    def confine(self, launch: LaunchPlan, idea_command: Sequence[str],
                notes: Sequence[str] = ()) -> LaunchPlan:
        """`launch` with its spawn wrapped (`wrap_spawn`), the plan file added to its files
        and its `sandbox` set (`session(notes)`)."""
        files, spawn = self.wrap_spawn(launch.spawn, idea_command)
        return replace(launch, files=(*launch.files, *files), spawn=spawn,
                       sandbox=self.session(notes))
