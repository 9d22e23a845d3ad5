"""An agent launch as data (SPEC C5): which files to write into the run dir and which process
to spawn. `plan_launch` is pure; `LaunchAgent` gathers its inputs, writes the files and spawns.

Later additions (the MCP declaration, vendor hooks, the sandbox wrapper, the handoff) are more
entries in `LaunchPlan.files` or changes of `LaunchPlan.spawn`, not more code in the use case:
the permissions' projection is merged into the `Projection`, the OS sandbox wraps the spawn
(`AgentSandbox.confine`, `sandbox_launch.py`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.core.domain.convention import compose_convention_file
from app.core.domain.profiles import AGENT_RUN_DIR, PROJECT_ROOT, Places, Profile, expand
from app.core.domain.sessions import SessionSandbox, SpawnSpec

DEFAULT_CONTEXT_NAME = "CONTEXT.md"


@dataclass(frozen=True)
class Injection:
    """Where to write the composed context (`file`, absolute) and what to add to the command."""

    file: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PlannedFile:
    """A file the launch writes (atomically): absolute `path`, UTF-8 `text`; `executable`
    for a program (the `idea` wrapper)."""

    path: str
    text: str
    executable: bool = False


@dataclass(frozen=True)
class Delegation:
    """What an agent needs to reach IdeA back (SPEC C8): the project's endpoint address, its
    own id and launch token, IdeA's own command line (argv prefix, `self_command()`) and its
    run dir. Input of the vendor projection."""

    endpoint: str
    agent_id: str
    token: str
    idea_command: tuple[str, ...]
    run_dir: str


@dataclass(frozen=True)
class Projection:
    """What a profile's vendor needs besides the convention file: files in the run dir (MCP
    declaration, settings with hooks, the `idea` wrapper), arguments and environment.
    `project_grant` False leaves the profile's project grant (`project_access_args`) off the
    command line: a vendor whose settings cannot take it (Codex in `read-only`, which quits on
    an `--add-dir`)."""

    files: tuple[PlannedFile, ...] = ()
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    mcp: bool = False  # the CLI gets IdeA's MCP server (its tools are then named to it)
    project_grant: bool = True


@dataclass(frozen=True)
class LaunchInputs:
    """What the launch reads from the project: `CONTEXT.md`, the persona, the assigned skills
    as `(name, markdown)`, the memory index, the handoff of the current conversation (each None
    when absent), and the orchestration section (how to delegate through IdeA)."""

    context_md: str | None = None
    persona_md: str | None = None
    skills: Sequence[tuple[str, str]] = ()
    memory_index: str | None = None
    handoff: str | None = None
    orchestration: str | None = None


@dataclass(frozen=True)
class LaunchPlan:
    """Everything a launch does: create `run_dir`, write `files`, then spawn `spawn`;
    `sandbox`: how the agent's permissions apply (set by `AgentSandbox.confine`)."""

    run_dir: str
    files: tuple[PlannedFile, ...]
    spawn: SpawnSpec
    sandbox: SessionSandbox | None = None


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
    return template.replace(AGENT_RUN_DIR, run_dir).replace(PROJECT_ROOT, project_root)


def project_access_args(profile: Profile, places: Places) -> tuple[str, ...]:
    """The arguments granting the CLI the project (`profile.project_access`, placeholders
    expanded), e.g. `("--add-dir", "/home/me/proj")`; none when it has no grant. A headless
    (structured) turn adds them too: the grant is the profile's, whatever the session."""
    if profile.project_access is None:
        return ()
    return tuple(expand(arg, places) for arg in profile.project_access.args)


def profile_args_env(profile: Profile, places: Places) -> tuple[tuple[str, ...],
                                                                  dict[str, str]]:
    """The profile's own `args` and `env`, placeholders expanded."""
    return (tuple(expand(a, places) for a in profile.args),
            {k: expand(v, places) for k, v in profile.env.items()})


def plan_launch(*, project_root: str, run_dir: str, agent_id: str, profile: Profile,
                command: str, inputs: LaunchInputs, cols: int, rows: int,
                session_id: str, projection: Projection = Projection(),
                resume: Sequence[str] = ()) -> LaunchPlan:
    """The launch of agent `agent_id` under `profile`, its CLI resolved to `command` (absolute).

    Files: the convention file composed from `inputs` (see `compose_convention_file`), where
    `plan_injection` says, then the `projection`'s. Spawn: `command` with, in order, `resume`
    (the profile's `resume_args` for the conversation to resume: first, as Codex's `resume <id>`
    is a subcommand), the profile's args, the injection's, the project grant
    (`project_access_args`, unless the projection leaves it off) and the projection's; cwd
    from the profile's `cwdTemplate`; env: the profile's `env`, then `IDEA_AGENT_ID`,
    `IDEA_PROJECT_ROOT`, the injection's and the projection's; size `cols` x `rows` cells, id
    `session_id`. Placeholders (`{projectRoot}`, `{agentRunDir}`, `{contextFile}`) are
    expanded in the profile's args, env values and grant.
    """
    injection = plan_injection(profile, run_dir)
    places = Places(project_root=project_root, run_dir=run_dir, context_file=injection.file)
    cwd = agent_cwd(profile, run_dir, project_root)
    text = compose_convention_file(
        project_root=project_root, context_md=inputs.context_md, persona_md=inputs.persona_md,
        skills=inputs.skills, memory_index=inputs.memory_index, handoff=inputs.handoff,
        orchestration=inputs.orchestration, cwd=cwd)
    own_args, own_env = profile_args_env(profile, places)
    env = {**own_env, "IDEA_AGENT_ID": agent_id, "IDEA_PROJECT_ROOT": project_root,
           **injection.env, **projection.env}
    grant = project_access_args(profile, places) if projection.project_grant else ()
    spawn = SpawnSpec(command=command,
                      args=[*resume, *own_args, *injection.args, *grant, *projection.args],
                      cwd=cwd, env=env, cols=cols, rows=rows, session_id=session_id)
    files = (PlannedFile(injection.file, text), *projection.files)
    return LaunchPlan(run_dir=run_dir, files=files, spawn=spawn)
