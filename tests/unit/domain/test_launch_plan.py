import pytest

from app.core.domain.launch_plan import (
    LaunchInputs,
    LaunchPlan,
    Projection,
    agent_cwd,
    plan_injection,
    plan_launch,
    project_access_args,
)
from app.core.domain.profiles import (
    ContextInjection,
    Places,
    Profile,
    ProjectAccess,
    builtin_profiles,
)

PROFILES = {p.id: p for p in builtin_profiles()}


def test_convention_file_goes_in_run_dir() -> None:
    inj = plan_injection(PROFILES["claude-code"], "/p/.ideai/run/a")
    assert inj.file == "/p/.ideai/run/a/CLAUDE.md" and inj.args == () and inj.env == {}


def test_flag_strategy_passes_path() -> None:
    inj = plan_injection(PROFILES["aider"], "/r")
    assert inj.file == "/r/CONVENTIONS.md" and inj.args == ("--read", "/r/CONVENTIONS.md")


def test_env_strategy_sets_variable() -> None:
    inj = plan_injection(PROFILES["shell"], "/r")
    assert inj.env == {"IDEA_CONTEXT_FILE": "/r/CONTEXT.md"}


def test_target_cannot_escape_run_dir() -> None:
    escaping = ContextInjection(strategy="conventionFile", target="../../x.md")
    profile = PROFILES["claude-code"].model_copy(update={"context_injection": escaping})
    assert plan_injection(profile, "/r").file == "/r/x.md"


def test_cwd_template() -> None:
    assert agent_cwd(PROFILES["codex-cli"], "/r", "/p") == "/r"
    custom = PROFILES["codex-cli"].model_copy(update={"cwd_template": "{projectRoot}"})
    assert agent_cwd(custom, "/r", "/p") == "/p"


def _plan(profile: Profile, projection: Projection | None = None) -> LaunchPlan:
    projection = projection or Projection()
    return plan_launch(project_root="/p", run_dir="/p/.ideai/run/a", agent_id="a",
                       profile=profile, command="/usr/bin/x", inputs=LaunchInputs(), cols=80,
                       rows=24, session_id="s", projection=projection)


@pytest.mark.parametrize(("profile_id", "grant"), [
    ("claude-code", ["--add-dir", "/p"]), ("codex-cli", ["--add-dir", "/p"]),
    ("gemini-cli", ["--include-directories", "/p"]), ("aider", [])])
def test_the_cli_starts_in_its_run_dir_granted_the_project(profile_id: str,
                                                           grant: list[str]) -> None:
    plan = _plan(PROFILES[profile_id], Projection(args=("--settings", "s.json")))
    assert plan.spawn.cwd == "/p/.ideai/run/a"
    injection = list(plan_injection(PROFILES[profile_id], "/p/.ideai/run/a").args)
    assert plan.spawn.args == [*injection, *grant, "--settings", "s.json"]


def test_a_projection_may_leave_the_grant_off() -> None:
    plan = _plan(PROFILES["codex-cli"], Projection(args=("-c", "x=1"), project_grant=False))
    assert "--add-dir" not in plan.spawn.args and plan.spawn.args[-2:] == ["-c", "x=1"]


def test_the_shell_starts_in_the_project_with_its_context_file_in_the_environment() -> None:
    plan = _plan(PROFILES["shell"])
    assert plan.spawn.cwd == "/p" and plan.spawn.args == []
    assert plan.spawn.env["IDEA_CONTEXT_FILE"] == "/p/.ideai/run/a/CONTEXT.md"
    assert plan.files[0].path == "/p/.ideai/run/a/CONTEXT.md"
    assert "Your working directory is the project root." in plan.files[0].text


def test_the_convention_file_opens_with_where_the_project_is() -> None:
    text = _plan(PROFILES["claude-code"]).files[0].text
    body = text.split("## Project root\n\n", 1)[1]
    assert body.startswith("The project you work on is at `/p`. Read and edit its files there")
    assert "`/p/.ideai/run/a`, is IdeA's private folder for you" in body
    assert text.splitlines()[2] == "## Project root"  # right after IdeA's header line


def test_profile_args_env_and_grant_expand_the_placeholders() -> None:
    profile = Profile(id="c", name="C", command="c",
                      args=("--root={projectRoot}", "--ctx", "{contextFile}"),
                      env={"HOME_OF_RUN": "{agentRunDir}", "IDEA_AGENT_ID": "not mine"},
                      context_injection=ContextInjection(strategy="conventionFile",
                                                         target="AGENTS.md"),
                      project_access=ProjectAccess(args=(
                          "-c", 'sandbox_workspace_write.writable_roots=["{projectRoot}"]')))
    spawn = _plan(profile).spawn
    assert spawn.args == ["--root=/p", "--ctx", "/p/.ideai/run/a/AGENTS.md", "-c",
                          'sandbox_workspace_write.writable_roots=["/p"]']
    assert spawn.env["HOME_OF_RUN"] == "/p/.ideai/run/a"
    assert spawn.env["IDEA_AGENT_ID"] == "a"  # IdeA's own variables win
    assert project_access_args(profile, Places("/q", "/r")) == (
        "-c", 'sandbox_workspace_write.writable_roots=["/q"]')
    assert project_access_args(PROFILES["aider"], Places("/q", "/r")) == ()
