from app.core.domain.launch_plan import agent_cwd, plan_injection
from app.core.domain.profiles import ContextInjection, builtin_profiles

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
