"""The launch wiring of permissions (contracts §9.3): resolve, compile, status, vendor
projection, `idea sandbox-exec` wrapping — and the no-op default, over fakes."""

from __future__ import annotations

import json

import pytest

from app.core.domain.launch_plan import Projection
from app.core.domain.profiles import builtin_profiles
from app.core.domain.sandbox import SandboxPlan, SandboxStatus, sandbox_status
from app.core.errors import AppError
from app.core.usecases.agents import UpdateAgent
from app.core.usecases.launch_agent import LaunchAgent, LaunchConfig
from app.core.usecases.permissions import AgentSandboxes
from app.core.usecases.project_state import ProjectState
from tests.unit import samples
from tests.unit.fakes import (
    FakeCliNeeds,
    FakeEventSink,
    FakeFileSystem,
    FakePermissionProjector,
    FakeProjector,
    FakeResolver,
    FakeSandboxEnforcer,
    FakeTerminalHost,
    SequentialTokens,
)
from tests.unit.usecases.builders import ROOT, original_project

PROFILES = builtin_profiles()
IDEA = ("/opt/idea/idea",)
RUN = f"{ROOT}/.ideai/run/{samples.MAIN_ID}"
PERMS = f"{ROOT}/.ideai/permissions.json"
PLAN = f"{RUN}/sandbox-plan.json"
WRITE_PROJECT_ONLY = {"version": 1, "projectDefaults": {"rules": [
    {"capability": "write", "effect": "allow", "paths": ["**"]},
    {"capability": "executeBash", "effect": "deny", "commands": ["git push *"]}],
    "fallback": "deny"}}


class NoSandboxHere:
    """The enforcer of a platform without an OS sandbox (as `NoopEnforcer`): never refuses."""

    def status(self, plan: SandboxPlan | None) -> SandboxStatus:
        return sandbox_status(plan, None, "no OS sandbox on darwin")

    def enforce(self, plan: SandboxPlan) -> SandboxStatus:
        return self.status(plan)

    def refuses(self, plan: SandboxPlan) -> bool:
        return False


def world(permissions: object | None = None, enforcer: object | None = None,
          ) -> tuple[FakeFileSystem, ProjectState, FakeTerminalHost, LaunchAgent,
                     FakePermissionProjector, FakeCliNeeds]:
    fs, ids, state = original_project()
    if permissions is not None:
        fs.files[PERMS] = permissions if isinstance(permissions, str) else json.dumps(permissions)
    pty, needs, projector = FakeTerminalHost(), FakeCliNeeds(), FakePermissionProjector()
    sandboxes = AgentSandboxes(fs, enforcer or FakeSandboxEnforcer(abi=7), needs,  # type: ignore[arg-type]
                               projector)
    launch = LaunchAgent(fs, pty, FakeResolver({"claude": "/usr/bin/claude", "/bin/sh": "/bin/sh"}),
                         ids, FakeEventSink(), FakeProjector(), SequentialTokens(),
                         LaunchConfig("/bin/sh", IDEA), sandboxes=sandboxes)
    return fs, state, pty, launch, projector, needs


def test_nothing_posed_means_no_projection_no_plan_no_wrapping() -> None:
    fs, state, pty, launch, projector, needs = world()
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    [spec] = pty.specs
    assert spec.command == "/usr/bin/claude" and spec.args == ["--add-dir", state.root]
    assert PLAN not in fs.files and projector.calls == [] and needs.calls == []
    record = state.sessions[result.session_id]
    assert record.sandbox is not None
    assert record.sandbox.status == SandboxStatus("off", "no permissions are posed")
    assert not record.sandbox.refused and record.sandbox.notes == ()


def test_a_write_rule_projects_the_settings_and_wraps_the_cli_in_the_launcher() -> None:
    fs, state, pty, launch, projector, needs = world(WRITE_PROJECT_ONLY)
    state.endpoint = "/run/idea/p.sock"
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    [spec] = pty.specs
    assert spec.command == "/opt/idea/idea"
    assert spec.args == ["sandbox-exec", "--plan", PLAN, "--", "/usr/bin/claude",
                         "--add-dir", state.root, "--perms", f"{RUN}/perms.json"]
    assert spec.cwd == RUN and spec.env["IDEA_TOKEN"] == "token-1"
    plan = json.loads(fs.files[PLAN])
    assert plan["restrict"] == ["write"] and plan["failClosed"] is True
    writable = {g["path"] for g in plan["grants"] if "write" in g["access"]}
    assert {ROOT, RUN, "/tmp"} <= writable
    assert needs.calls == [("/usr/bin/claude", RUN, "/run/idea/p.sock")]
    # the vendor projection knows IdeA's sandbox confines the launch (its own goes off)
    assert projector.calls == [("claude-code", True)]
    assert json.loads(fs.files[f"{RUN}/perms.json"])["sandboxed"] is True
    sandbox = state.sessions[result.session_id].sandbox
    assert sandbox is not None and sandbox.status == SandboxStatus("enforced", "Landlock ABI 7")
    assert sandbox.notes[0] == "claude-code: sandboxed=True"
    assert any(note.startswith("executeBash: command rules are advisory") for note in sandbox.notes)


def test_a_corrupt_permissions_file_refuses_the_launch_naming_the_field() -> None:
    doc = {"version": 1, "projectDefaults": {"rules": [
        {"capability": "write", "effect": "allow", "paths": ["../outside/**"]}], "fallback": "deny"}}
    fs, state, pty, launch, _, _ = world(doc)
    with pytest.raises(AppError) as err:
        launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert err.value.code == "CORRUPT_FILE"
    assert err.value.details == {"file": PERMS, "field": "projectDefaults.rules[0].paths[0]"}
    assert "'..' is not allowed" in err.value.message
    assert "never runs an agent unconfined" in err.value.message
    assert pty.specs == [] and not fs.exists(RUN) and state.sessions == {}
    assert json.loads(fs.files[PERMS]) == doc  # reported, never rewritten


def test_a_kernel_without_landlock_still_wraps_a_fail_closed_plan_so_the_launcher_refuses() -> None:
    fs, state, pty, launch, projector, _ = world(WRITE_PROJECT_ONLY,
                                                  FakeSandboxEnforcer(abi=None, reason="no LSM"))
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert pty.specs[0].args[:3] == ["sandbox-exec", "--plan", PLAN] and PLAN in fs.files
    sandbox = state.sessions[result.session_id].sandbox
    assert sandbox is not None and sandbox.refused
    assert sandbox.status == SandboxStatus("unsupported", "no LSM")
    assert projector.calls == [("claude-code", False)]  # not confined: the vendor's stays


def test_without_an_os_sandbox_nothing_is_wrapped_and_the_settings_still_bind() -> None:
    fs, state, pty, launch, projector, _ = world(WRITE_PROJECT_ONLY, NoSandboxHere())
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert pty.specs[0].command == "/usr/bin/claude" and PLAN not in fs.files
    assert projector.calls == [("claude-code", False)] and f"{RUN}/perms.json" in fs.files
    sandbox = state.sessions[result.session_id].sandbox
    assert sandbox is not None and sandbox.status.state == "unsupported" and not sandbox.refused


def test_a_policy_confining_no_file_class_projects_but_does_not_wrap() -> None:
    doc = {"version": 1, "projectDefaults": {"rules": [
        {"capability": "executeBash", "effect": "deny", "commands": ["rm *"]}], "fallback": "allow"}}
    fs, state, pty, launch, projector, _ = world(doc)
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert pty.specs[0].command == "/usr/bin/claude" and PLAN not in fs.files
    assert projector.calls == [("claude-code", False)]
    sandbox = state.sessions[result.session_id].sandbox
    assert sandbox is not None and sandbox.status.state == "off"


def test_a_per_agent_override_confines_only_that_agent() -> None:
    doc = {"version": 1, "projectDefaults": {"rules": [], "fallback": "allow"},
           "agents": {samples.GIT_ID: {"rules": [
               {"capability": "write", "effect": "allow", "paths": ["src/**"]}], "fallback": "deny"}}}
    fs, state, pty, launch, _, _ = world(doc)
    UpdateAgent(fs).execute(state, samples.GIT_ID, PROFILES, profile_id="shell")
    launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    launch.execute(state, samples.GIT_ID, None, 80, 24, PROFILES)
    main, git = pty.specs
    assert main.command == "/usr/bin/claude"
    git_run = f"{ROOT}/.ideai/run/{samples.GIT_ID}"
    assert git.command == "/opt/idea/idea" and git.args[4] == "/bin/sh"
    plan = json.loads(fs.files[f"{git_run}/sandbox-plan.json"])
    assert f"{ROOT}/src" in {g["path"] for g in plan["grants"] if "write" in g["access"]}
    assert ROOT not in {g["path"] for g in plan["grants"] if "write" in g["access"]}


def test_a_headless_turn_gets_the_same_projection_and_wrapping() -> None:
    fs, ids, state = original_project()
    fs.files[PERMS] = json.dumps(WRITE_PROJECT_ONLY)
    sandboxes = AgentSandboxes(fs, FakeSandboxEnforcer(abi=7), FakeCliNeeds(),
                               FakePermissionProjector())
    claude = next(p for p in PROFILES if p.id == "claude-code")
    mcp = Projection(args=("--mcp-config", f"{RUN}/.mcp.json"), env={"IDEA_TOKEN": "t"})
    launch = sandboxes.headless(root=ROOT, agent_id=samples.MAIN_ID, profile=claude,
                                argv=["/usr/bin/claude"], run_dir=RUN, endpoint=None,
                                idea_command=IDEA, projection=mcp)
    assert launch.argv == [*IDEA, "sandbox-exec", "--plan", PLAN, "--", "/usr/bin/claude",
                           "--mcp-config", f"{RUN}/.mcp.json", "--perms", f"{RUN}/perms.json"]
    assert [f.path for f in launch.files] == [f"{RUN}/perms.json", PLAN]
    assert launch.env == {"IDEA_TOKEN": "t"} and launch.sandbox.status.state == "enforced"

    unposed = AgentSandboxes(FakeFileSystem(), FakeSandboxEnforcer(abi=7), FakeCliNeeds(),
                             FakePermissionProjector())
    plain = unposed.headless(root=ROOT, agent_id=samples.MAIN_ID, profile=claude,
                             argv=["/usr/bin/claude"], run_dir=RUN, endpoint=None,
                             idea_command=IDEA)
    assert plain.argv == ["/usr/bin/claude"] and plain.files == ()
    assert plain.sandbox.status.state == "off"


def test_the_wrapping_needs_idea_s_own_command() -> None:
    fs, ids, state = original_project()
    fs.files[PERMS] = json.dumps(WRITE_PROJECT_ONLY)
    sandbox = AgentSandboxes(fs, FakeSandboxEnforcer(abi=7), FakeCliNeeds(),
                             FakePermissionProjector()).prepare(ROOT, samples.MAIN_ID,
                                                                "/usr/bin/claude", RUN, None)
    assert sandbox.wraps
    with pytest.raises(AppError) as err:
        sandbox.wrap_argv((), ["/usr/bin/claude"])
    assert err.value.code == "INTERNAL"
