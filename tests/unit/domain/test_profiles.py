import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.domain.profiles import (
    DEFAULT_DETECT_TIMEOUT_MS,
    Places,
    Profile,
    ProjectAccess,
    SessionStrategy,
    StructuredAdapter,
    builtin_profiles,
    expand,
    install_hint,
    missing_command_message,
    profile_templates,
    resume_args,
    structured_of,
    with_catalogue_defaults,
)
from app.core.errors import AppError

LEGACY = {"id": "00000000-0000-0000-0000-000000000000", "name": "Dev", "command": "claude",
          "args": [], "contextInjection": {"strategy": "conventionFile", "target": "CLAUDE.md"},
          "detect": None, "cwdTemplate": "{agentRunDir}"}


def test_builtin_catalogue() -> None:
    by_id = {p.id: p for p in builtin_profiles()}
    assert list(by_id) == ["claude-code", "codex-cli", "gemini-cli", "aider", "shell"]
    assert by_id["claude-code"].command == "claude"
    assert by_id["claude-code"].context_injection.target == "CLAUDE.md"
    assert by_id["codex-cli"].context_injection.target == "AGENTS.md"
    assert by_id["gemini-cli"].context_injection.target == "GEMINI.md"
    assert by_id["aider"].context_injection.strategy == "flag"
    assert by_id["aider"].context_injection.flag == "--read"
    assert by_id["shell"].command == "" and by_id["shell"].detect is None
    detect = by_id["claude-code"].detect
    assert detect is not None and detect.args == ("--version",)
    assert detect.timeout_ms == DEFAULT_DETECT_TIMEOUT_MS == 5000


def test_legacy_profile_loads_and_omits_empty_optionals() -> None:
    profile = Profile.from_json(LEGACY)
    assert profile.detect is None
    out = profile.to_json()
    assert "detect" not in out and "rateLimitPattern" not in out and "submitDelayMs" not in out
    assert out["contextInjection"] == {"strategy": "conventionFile", "target": "CLAUDE.md"}


def test_unknown_and_unmodelled_keys_survive() -> None:
    raw = {**LEGACY, "detect": {"args": ["-v"], "timeoutMs": 100},
           "rateLimitPattern": {"pattern": "limit"}, "submitDelayMs": 60, "novel": [1]}
    assert Profile.from_json(raw).to_json() == raw


def test_builtins_round_trip() -> None:
    for profile in builtin_profiles():
        assert Profile.from_json(profile.to_json()) == profile


def test_the_catalogue_grants_the_project_and_declares_sessions() -> None:
    by_id = {p.id: p for p in builtin_profiles()}
    grants = {i: p.project_access.args if p.project_access else None for i, p in by_id.items()}
    assert grants == {"claude-code": ("--add-dir", "{projectRoot}"),
                      "codex-cli": ("--add-dir", "{projectRoot}"),
                      "gemini-cli": ("--include-directories", "{projectRoot}"),
                      "aider": None, "shell": None}
    assert all(p.cwd_template == "{agentRunDir}" for i, p in by_id.items() if i != "shell")
    assert by_id["shell"].cwd_template == "{projectRoot}"
    assert resume_args(by_id["claude-code"], "abc") == ("--resume", "abc")
    assert resume_args(by_id["codex-cli"], "abc") == ("resume", "abc")
    assert resume_args(by_id["aider"], "abc") is None
    protocols = {i: (s.protocol, s.args) if (s := structured_of(p)) else None
                 for i, p in by_id.items()}
    assert protocols == {"claude-code": ("claude-stream-json", ()),
                         "codex-cli": ("codex-exec", ()), "gemini-cli": ("acp", ("--acp",)),
                         "aider": None, "shell": None}


def test_the_acp_template_is_data() -> None:
    acp = next(t for t in profile_templates() if t.id == "acp-agent")
    assert acp.profile.to_json()["structured"] == {"protocol": "acp", "args": ["acp"]}
    assert "OpenCode" in acp.description and acp.to_json()["profile"]["command"] == "opencode"


def test_new_fields_round_trip_and_are_omitted_when_empty() -> None:
    raw = {**LEGACY, "detect": {"args": ["-V"], "timeoutMs": 900},
           "env": {"MODE": "{projectRoot}/x"}, "projectAccess": {"args": ["--dir"]},
           "session": {"assignFlag": "--session-id", "resumeFlag": "--resume"},
           "structured": {"protocol": "acp", "command": "qwen", "args": ["--experimental-acp"]},
           "enabled": False}
    assert Profile.from_json(raw).to_json() == raw
    out = Profile.from_json(LEGACY).to_json()
    for key in ("env", "projectAccess", "session", "structured", "enabled"):
        assert key not in out


def test_structured_short_form_and_the_original_adapter_key() -> None:
    short = Profile.from_json({**LEGACY, "structured": "acp"})
    assert short.structured == StructuredAdapter(protocol="acp")
    assert short.to_json()["structured"] == {"protocol": "acp"}
    original = Profile.from_json({**LEGACY, "structuredAdapter": "Claude"})
    assert original.to_json()["structuredAdapter"] == "Claude"
    assert structured_of(original) == StructuredAdapter(protocol="claude-stream-json")
    assert structured_of(Profile.from_json({**LEGACY, "structuredAdapter": "?"})) is None


def test_shape_errors_name_the_field() -> None:
    for raw, field in (({**LEGACY, "structured": {"protocol": "grpc"}}, "structured.protocol"),
                       ({**LEGACY, "env": {"A": 1}}, "env.A"),
                       ({**LEGACY, "projectAccess": {"args": "--add-dir"}}, "projectAccess.args"),
                       ({**LEGACY, "enabled": "yes"}, "enabled")):
        with pytest.raises(AppError) as err:
            Profile.from_json(raw, "profiles[0]")
        assert err.value.details["field"] == f"profiles[0].{field}", raw


def test_the_original_session_block_loads() -> None:
    profile = Profile.from_json({**LEGACY, "session": {"resumeFlag": "--resume"}})
    assert resume_args(profile, "s1") == ("--resume", "s1")
    with_args = profile.model_copy(update={"session": SessionStrategy(
        resume_args=("resume", "{resumeId}", "--last-turn"))})
    assert resume_args(with_args, "s1") == ("resume", "s1", "--last-turn")


def test_expand_replaces_only_the_known_placeholders() -> None:
    places = Places(project_root="/p", run_dir="/p/.ideai/run/a", context_file="/r/CLAUDE.md")
    assert expand('-c roots=["{projectRoot}"] {agentRunDir} {contextFile} {other}', places) == \
        '-c roots=["/p"] /p/.ideai/run/a /r/CLAUDE.md {other}'


def test_a_builtin_from_an_earlier_version_gets_the_catalogue_grant_only() -> None:
    old = Profile.from_json({**LEGACY, "id": "gemini-cli", "command": "gemini"})
    assert with_catalogue_defaults(old).project_access == ProjectAccess(
        args=("--include-directories", "{projectRoot}"))
    assert with_catalogue_defaults(old).session is None  # not filled: the user's to choose
    assert with_catalogue_defaults(Profile.from_json(LEGACY)) == Profile.from_json(LEGACY)


def test_builtins_know_the_screens_where_their_cli_waits_for_its_human() -> None:
    old = Profile.from_json({**LEGACY, "id": "codex-cli", "command": "codex"})
    assert "Sign in with ChatGPT" in with_catalogue_defaults(old).waiting_screens
    none = Profile.from_json({**LEGACY, "id": "codex-cli", "command": "codex",
                              "waitingScreens": []})
    assert with_catalogue_defaults(none).waiting_screens == ()  # the user's choice is kept
    gemini = next(p for p in builtin_profiles() if p.id == "gemini-cli")
    assert "Do you trust the following folders" in gemini.waiting_screens
    with pytest.raises(AppError) as err:
        Profile.from_json({**LEGACY, "waitingScreens": ["  "]})
    assert "waitingScreens" in err.value.message


@given(args=st.lists(st.text(), max_size=4),
       env=st.dictionaries(st.from_regex(r"[A-Z_][A-Z0-9_]{0,8}", fullmatch=True), st.text(),
                           max_size=3),
       enabled=st.booleans())
def test_any_edited_builtin_round_trips(args: list[str], env: dict[str, str],
                                        enabled: bool) -> None:
    for profile in builtin_profiles():
        edited = profile.model_copy(update={"args": tuple(args), "env": env, "enabled": enabled})
        assert Profile.from_json(json.loads(json.dumps(edited.to_json()))) == edited


def test_install_hints_for_the_catalogues_clis_only() -> None:
    by_id = {p.id: p for p in builtin_profiles()}
    assert install_hint(by_id["claude-code"]) == "npm install -g @anthropic-ai/claude-code"
    assert install_hint(by_id["codex-cli"]) == "npm install -g @openai/codex"
    assert install_hint(by_id["gemini-cli"]) == "npm install -g @google/gemini-cli"
    assert install_hint(by_id["aider"]) == "python -m pip install aider-install && aider-install"
    assert install_hint(by_id["shell"]) is None
    # A built-in whose command the user changed, and a custom profile: IdeA cannot know.
    assert install_hint(by_id["codex-cli"].model_copy(update={"command": "/opt/codex"})) is None
    assert install_hint(Profile(id="mine", command="codex")) is None


def test_missing_command_message_names_the_command_and_how_to_install_it() -> None:
    by_id = {p.id: p for p in builtin_profiles()}
    assert missing_command_message("codex", by_id["codex-cli"]) == (
        "command not found: codex. Install it with: npm install -g @openai/codex")
    assert missing_command_message("gemini", by_id["gemini-cli"], "Main keeps its session") == (
        "command not found: gemini (Main keeps its session). Install it with: "
        "npm install -g @google/gemini-cli")
    assert missing_command_message("", by_id["shell"]) == "command not found: $SHELL"
    assert missing_command_message("tool", Profile(id="mine", command="tool")) == (
        "command not found: tool")
