"""One structured-adapter model: `structured` (and the original's `structuredAdapter`) decide the
protocol and the argv of a headless session."""

from app.core.domain.headless import structured_command, structured_protocol
from app.core.domain.launch_plan import LaunchPlan
from app.core.domain.profiles import Profile, StructuredAdapter, builtin_profiles, structured_of
from app.core.domain.sessions import SpawnSpec

PLAN = LaunchPlan(run_dir="/r", files=(), spawn=SpawnSpec(
    command="/usr/bin/gemini", args=["--include-directories", "/p"], cwd="/r"))


def test_protocol_from_either_spelling() -> None:
    assert structured_protocol(Profile(id="a", structured_adapter="Claude")) == "claude-stream-json"
    assert structured_protocol(Profile(id="a", structured_adapter="codex-exec")) == "codex-exec"
    assert structured_protocol(Profile(id="a", structured="acp")) == "acp"
    assert structured_protocol(Profile(id="a")) is None
    assert {p.id: structured_protocol(p) for p in builtin_profiles()} == {
        "claude-code": "claude-stream-json", "codex-cli": "codex-exec", "gemini-cli": "acp",
        "aider": None, "shell": None}


def test_the_adapter_args_follow_the_launch_argv_or_its_own_command_replaces_it() -> None:
    gemini = next(p for p in builtin_profiles() if p.id == "gemini-cli")
    assert structured_command(PLAN, structured_of(gemini)) == (
        "/usr/bin/gemini", "--include-directories", "/p", "--acp")
    own = StructuredAdapter(protocol="acp", command="claude-agent-acp", args=("--x",))
    assert structured_command(PLAN, own) == ("claude-agent-acp", "--x")
    assert structured_command(PLAN, None) == ("/usr/bin/gemini", "--include-directories", "/p")
