from app.core.domain.profiles import DEFAULT_DETECT_TIMEOUT_MS, Profile, builtin_profiles

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
