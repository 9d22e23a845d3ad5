from typing import Any

from app.core.domain.profile_rules import (
    is_absolute,
    profile_problems,
    profiles_problems,
)
from app.core.domain.profiles import Profile, builtin_profiles, profile_templates

BASE: dict[str, Any] = {"id": "mine", "name": "Mine", "command": "mycli", "args": [],
                        "contextInjection": {"strategy": "conventionFile", "target": "AGENTS.md"}}


def problems(**changes: Any) -> dict[str, str]:
    return {p.field: p.message for p in profile_problems(Profile.from_json({**BASE, **changes}))}


def test_the_catalogue_and_the_templates_are_valid() -> None:
    for profile in builtin_profiles():
        assert profile_problems(profile) == [], profile.id
    for template in profile_templates():
        found = [p.field for p in profile_problems(template.profile)]
        # the blank Custom CLI leaves its command for the user to fill in
        assert found == (["command"] if template.id == "custom" else []), template.id
    assert problems() == {}


def test_id_and_name() -> None:
    assert set(problems(id="")) == {"id"}
    assert set(problems(id="my cli")) == {"id"}
    assert set(problems(id="a/b")) == {"id"}
    assert set(problems(id="00000000-0000-0000-0000-000000000000")) == set()  # original ids
    assert "name" in problems(name="  ")


def test_command_is_a_name_or_an_absolute_path() -> None:
    assert problems(command="/opt/x/bin/claude") == {}
    assert problems(command="C:\\Tools\\claude.exe") == {}
    shell = {"strategy": "env", "target": "CONTEXT.md", "var": "IDEA_CONTEXT_FILE"}
    assert problems(command="", contextInjection=shell) == {}  # the user's shell
    # ... which reads no convention file, takes no context flag and is never detected (a trial
    # saved the Custom CLI template without a command and got a plain shell)
    assert "never detected" in problems(command="")["command"]
    assert "command" in problems(command="", contextInjection=shell, detect={"args": ["-v"]})
    # ... which takes none of a CLI's arguments (a trial blanked a Claude Code copy's command)
    assert "empty command runs your shell" in problems(command="", args=["--add-dir", "x"])[
        "command"]
    assert "command" in problems(command="", projectAccess={"args": ["--add-dir", "{projectRoot}"]})
    assert "relative path" in problems(command="bin/claude")["command"]
    assert "spaces" in problems(command="claude --verbose ")["command"]
    assert is_absolute("\\\\server\\share\\x") and not is_absolute("x\\y")


def test_environment_names_and_reserved_ones() -> None:
    assert problems(env={"MY_VAR": "{projectRoot}"}) == {}
    assert "not a valid" in problems(env={"MY VAR": "x"})["env.MY VAR"]
    assert "set by IdeA" in problems(env={"IDEA_TOKEN": "x"})["env.IDEA_TOKEN"]
    assert "env.PATH" in problems(env={"PATH": "/x"})


def test_context_injection_needs_what_its_strategy_uses() -> None:
    conv = problems(contextInjection={"strategy": "conventionFile"})
    assert "contextInjection.target" in conv
    assert "without folders" in problems(contextInjection={
        "strategy": "flag", "flag": "--read", "target": "../x.md"})["contextInjection.target"]
    assert "contextInjection.flag" in problems(contextInjection={"strategy": "flag"})
    assert "contextInjection.var" in problems(contextInjection={"strategy": "env",
                                                                "var": "1X"})
    assert problems(contextInjection={"strategy": "stdin"}) == {}


def test_working_directory() -> None:
    assert "cwdTemplate" in problems(cwdTemplate="/tmp")
    collision = problems(cwdTemplate="{projectRoot}")["cwdTemplate"]
    assert "run dir" in collision and "projectAccess" in collision
    assert problems(cwdTemplate="{projectRoot}",
                    contextInjection={"strategy": "env", "var": "CTX"}) == {}


def test_session_structured_and_delivery_fields() -> None:
    assert "both" in problems(session={"resumeFlag": "--resume",
                                       "resumeArgs": ["resume", "{resumeId}"]})["session.resumeArgs"]
    assert "{resumeId}" in problems(session={"resumeArgs": ["resume"]})["session.resumeArgs"]
    assert "session.resumeFlag" in problems(session={"resumeFlag": " "})
    assert "structured.command" in problems(structured={"protocol": "acp", "command": "x/y"})
    assert problems(structured={"protocol": "acp", "command": "/usr/bin/goose",
                                "args": ["acp"]}) == {}
    assert "promptReadyPattern" in problems(promptReadyPattern=" ")
    assert "submitSequence" in problems(submitSequence="")
    assert "submitDelayMs" in problems(submitDelayMs=-1)
    assert "detect.timeoutMs" in problems(detect={"args": ["-v"], "timeoutMs": 0})


def test_the_list_prefixes_fields_and_needs_one_enabled_profile() -> None:
    good = Profile.from_json(BASE)
    bad = Profile.from_json({**BASE, "id": "other", "name": ""})
    assert [(p.field) for p in profiles_problems([good, good, bad])] == [
        "profiles[1].id", "profiles[2].name"]
    off = good.model_copy(update={"enabled": False})
    assert [p.field for p in profiles_problems([off])] == ["profiles"]
