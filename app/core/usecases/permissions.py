"""Project permissions (`.ideai/permissions.json`, digest §2.1): loading, saving, testing one
path or command, and preparing an agent's launch (contracts §9.3). Deciding is
`app/core/domain/permission_rules.py`, the OS sandbox plan `sandbox_compile.py`.

`AgentSandboxes` is the one place a launch gets its permissions from: the PTY launch
(`LaunchAgent`) and a headless (structured) turn launcher call the same `prepare`, `project`
and `AgentSandbox.wrap_*` (or `headless`, which does all three), so both paths are confined the
same way.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.domain.documents import dump_document
from app.core.domain.launch_plan import PlannedFile, Projection
from app.core.domain.permission_rules import (
    Decision,
    decide,
    resolve_permissions,
)
from app.core.domain.permissions import (
    CAPABILITIES,
    FILE_CAPABILITIES,
    PermissionsDoc,
)
from app.core.domain.profiles import Profile
from app.core.domain.sandbox import (
    SandboxContext,
    SandboxPlan,
    SandboxStatus,
)
from app.core.domain.sandbox_compile import compile_sandbox_plan
from app.core.domain.sandbox_launch import AgentSandbox
from app.core.domain.sessions import SessionSandbox
from app.core.errors import CORRUPT_FILE, INVALID, AppError
from app.core.ports import CliNeedsSource, FileSystem, PermissionProjector, SandboxEnforcer
from app.core.usecases.project_files import read_json
from app.core.usecases.project_state import PERMISSIONS_FILE, ideai_path


def load_permissions(fs: FileSystem, root: str) -> PermissionsDoc | None:
    """`<root>/.ideai/permissions.json`, or `None` when the file is missing (nothing posed).

    Raises `AppError(CORRUPT_FILE)` (details `{file, field}`) when it does not parse; the file
    is never written here.
    """
    return read_json(fs, ideai_path(root, PERMISSIONS_FILE), PermissionsDoc)


def save_permissions(fs: FileSystem, root: str, value: Any) -> PermissionsDoc:
    """Validate `value` (the whole document as JSON, unknown keys included) and write it to
    `<root>/.ideai/permissions.json` atomically; returns what was written.

    Raises `AppError(INVALID)` naming the field as the permissions editor shows it (`Rule 2,
    path globs: '../x': '..' is not allowed …`, `Otherwise: …`; details `{field:
    "projectDefaults.rules[1].paths[0]", label}`), and `AppError(CORRUPT_FILE)`
    when the file on disk does not parse: it is never overwritten (fix or remove it by hand).
    """
    try:
        load_permissions(fs, root)
    except AppError as exc:
        if exc.code != CORRUPT_FILE:
            raise
        raise AppError(CORRUPT_FILE, f"{exc.message} — IdeA does not overwrite a file it cannot "
                                     "read: fix or remove it by hand", exc.details) from exc
    doc = PermissionsDoc.from_json(value, form="permissions")
    fs.make_dirs(ideai_path(root))
    fs.write_text_atomic(ideai_path(root, PERMISSIONS_FILE), dump_document(doc))
    return doc


@dataclass(frozen=True)
class HeadlessLaunch:
    """What a headless turn launcher runs: `files` to write (the vendor settings, the sandbox
    plan), `argv` (the command prefix, wrapped by `idea sandbox-exec` when confined), `env` to
    add, and the `sandbox` to show."""

    files: tuple[PlannedFile, ...]
    argv: list[str]
    env: dict[str, str]
    sandbox: SessionSandbox


class AgentSandboxes:
    """An agent's permissions for one launch (contracts §9.3): effective permissions, the OS
    sandbox plan and its status, the vendor projection, the wrapped command."""

    def __init__(self, fs: FileSystem, enforcer: SandboxEnforcer, needs: CliNeedsSource,
                 projector: PermissionProjector) -> None:
        self._fs, self._enforcer, self._needs, self._projector = fs, enforcer, needs, projector

    def prepare(self, root: str, agent_id: str, command: str, run_dir: str,
                endpoint: str | None) -> AgentSandbox:
        """Resolve agent `agent_id`'s permissions in project `root` and compile its plan for
        `command` (absolute) run from `run_dir`, with the project endpoint at `endpoint`.

        Nothing posed → an `AgentSandbox` that wraps nothing (status `off`). Raises
        `AppError(CORRUPT_FILE)` (details `{file, field}`) when `permissions.json` does not
        parse: the launch is refused rather than run unconfined.
        """
        try:
            effective = resolve_permissions(load_permissions(self._fs, root), agent_id, root)
        except AppError as exc:
            if exc.code != CORRUPT_FILE:
                raise
            raise AppError(CORRUPT_FILE, f"{exc.message} — not launched: IdeA never runs an "
                                         "agent unconfined when its permissions cannot be read",
                           exc.details) from exc
        if effective is None:
            return AgentSandbox(run_dir)
        context = SandboxContext(root, run_dir, self._needs.needs(command, run_dir, endpoint))
        plan = compile_sandbox_plan(effective, context)
        status = self._enforcer.status(plan)
        refused = plan is not None and plan.enforces and self._enforcer.refuses(plan)
        return AgentSandbox(run_dir, effective, plan, status, refused)

    def project(self, profile: Profile, sandbox: AgentSandbox,
                projection: Projection) -> tuple[Projection, tuple[str, ...]]:
        """`projection` with the permissions written into the vendor's settings (the vendor's
        own sandbox off when IdeA's confines the launch), and the notes; unchanged, no note,
        when nothing is posed."""
        if sandbox.effective is None:
            return projection, ()
        return self._projector.project_permissions(profile, sandbox.effective,
                                                   sandbox.status.confined, sandbox.run_dir,
                                                   projection)

    def headless(self, *, root: str, agent_id: str, profile: Profile, argv: Sequence[str],
                 run_dir: str, endpoint: str | None, idea_command: Sequence[str],
                 projection: Projection | None = None) -> HeadlessLaunch:
        """Everything a headless turn launcher needs: `argv` is the CLI's command prefix (its
        resolved executable first, e.g. `[/usr/bin/claude]`; the session adapter appends its
        own flags, which reach the CLI after `--`), `projection` the vendor projection so far
        (IdeA's MCP server…). The permissions' arguments are appended to `argv` before it is
        wrapped. Errors of `prepare`.
        """
        sandbox = self.prepare(root, agent_id, argv[0], run_dir, endpoint)
        projected, notes = self.project(profile, sandbox, projection or Projection())
        plan_files, wrapped = sandbox.wrap_argv(idea_command, [*argv, *projected.args])
        return HeadlessLaunch(files=(*projected.files, *plan_files), argv=wrapped,
                              env=dict(projected.env), sandbox=sandbox.session(notes))


# -- the editor's "test a path / a command" box ---------------------------------------------


@dataclass(frozen=True)
class OsVerdict:
    """What the OS sandbox does with one test: `enforced` (the kernel decides this access
    here), `allowed` (None when not enforced) and a `message` saying why, in words."""

    enforced: bool
    allowed: bool | None
    message: str


@dataclass(frozen=True)
class PermissionTest:
    """The answer of the test box: the rules' `decision` (effect, deciding rule, origin), the
    OS verdict and the sandbox status of the plan it was judged against."""

    decision: Decision
    os: OsVerdict
    status: SandboxStatus
    exposed: tuple[str, ...] = ()


def explain_permission(doc: PermissionsDoc | None, root: str, agent_id: str | None,
                    capability: str, target: str, *, status_of: SandboxEnforcer,
                    needs: CliNeedsSource | None = None, command: str | None = None,
                    run_dir: str | None = None, endpoint: str | None = None) -> PermissionTest:
    """Decide `capability` on `target` for agent `agent_id` (None: the project defaults, as an
    agent without overrides gets them) under `doc` (the saved file or the editor's draft).

    The OS verdict is judged against the plan this agent's launch would get: with `command`
    (its CLI, absolute; for the project defaults the service passes the shell, whose needs —
    temp dirs, devices, caches — every CLI gets) and `needs`, the CLI's own folders are granted
    as at launch, so a project under `/tmp` is "allowed by the kernel" (`exposed` says why);
    without them only the rules' grants count. Raises `AppError(INVALID)` for
    an unknown capability or an empty target, and when nothing is posed (`doc` is None) with
    the field `document`.
    """
    if capability not in CAPABILITIES:
        raise AppError(INVALID, f"capability: unknown capability {capability!r} (expected one "
                                f"of {', '.join(CAPABILITIES)})", {"field": "capability"})
    if not target.strip():
        raise AppError(INVALID, "target: give a path or a command to test", {"field": "target"})
    if doc is None:
        raise AppError(INVALID, "no permissions are posed in this project: every agent keeps "
                                "its CLI's own prompting", {"field": "document"})
    scoped = doc if agent_id is not None else doc.model_copy(update={"agents": None})
    effective = resolve_permissions(scoped, agent_id or "", root)
    assert effective is not None  # doc is not None
    decision = decide(effective, capability, target)
    runs_in = run_dir or ideai_path(root, "run", agent_id or "_project")
    cli = needs.needs(command, runs_in, endpoint) if needs is not None and command else ()
    plan = compile_sandbox_plan(effective, SandboxContext(root, runs_in, cli))
    status = status_of.status(plan)
    refused = plan is not None and plan.enforces and status_of.refuses(plan)
    return PermissionTest(decision, os_verdict(plan, status, capability, root, target,
                                               refused=refused, with_cli=bool(cli)), status,
                          plan.exposed if plan is not None else ())


def os_verdict(plan: SandboxPlan | None, status: SandboxStatus, capability: str, root: str,
               target: str, *, refused: bool = False, with_cli: bool = True) -> OsVerdict:
    """What the kernel does with `capability` on `target` (absolute or project-relative) under
    `plan`, whose status on this machine is `status` (`refused`: the launch is refused,
    fail-closed; `with_cli`: the plan includes the CLI's own needs). Pure."""
    if capability not in FILE_CAPABILITIES:
        return OsVerdict(False, None, "advisory: commands are never enforced by the OS — only "
                                      "the CLI's own settings can refuse them")
    if plan is None or capability not in plan.restrict:
        return OsVerdict(False, None, f"not enforced by the OS: no rule confines {capability} "
                                      "(its default is not deny), so the CLI's settings decide")
    if not status.confined:
        refusal = " — a launch is refused (fail-closed)" if refused else ""
        return OsVerdict(False, None, f"not enforced on this machine: {status.message}"
                                      f"{refusal}")
    path = posixpath.normpath(target if target.startswith("/") else posixpath.join(root, target))
    grant = plan.grant_for(capability, path)
    if grant is not None:
        base = posixpath.normpath(root)
        holds = base != grant.path and (grant.path == "/" or base.startswith(grant.path + "/"))
        why = (" — the project lies in it, so the OS cannot enforce this project's "
               f"{capability} rules (move the project, or accept they are advisory)"
               if holds else "")
        return OsVerdict(True, True, f"the kernel allows it — granted: {grant.why} "
                                     f"({grant.path}){why}")
    also = "" if with_cli else " (an agent's CLI also gets its own folders, temp dirs and run dir)"
    return OsVerdict(True, False, f"the kernel refuses it (EACCES): outside every {capability} "
                                  f"grant{also}")


def document_json(doc: PermissionsDoc | None) -> Mapping[str, Any] | None:
    """The document as the editor edits it (unknown keys included), or None."""
    return doc.to_json() if doc is not None else None
