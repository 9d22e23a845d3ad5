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
from dataclasses import replace

from app.core.domain.launch_plan import PlannedFile
from app.core.domain.sandbox import PLAN_FILE, SandboxPlan
from app.core.domain.sessions import SpawnSpec

SUBCOMMAND = "sandbox-exec"


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
