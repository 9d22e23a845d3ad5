import json

import pytest

from app.core.domain.detection import Detection
from app.core.domain.profiles import Profile, ProjectAccess, builtin_profiles
from app.core.errors import AppError
from app.core.usecases.profiles import (
    DetectProfiles,
    LoadProfiles,
    SaveProfiles,
    profiles_to_store,
)
from tests.unit.fakes import FakeDetector, FakeFileSystem, FakeResolver

DATA = "/data"
FILE = f"{DATA}/profiles.json"
BUILTINS = {p.id: p for p in builtin_profiles()}
SHELL = BUILTINS["shell"]
CLAUDE = BUILTINS["claude-code"]


def save(fs: FakeFileSystem, profiles: list[Profile], installed: dict[str, str] | None = None,
         ) -> list[Profile]:
    return SaveProfiles(fs, DATA, FakeResolver(installed or {})).execute(profiles)


def refused(fs: FakeFileSystem, profiles: list[Profile],
            installed: dict[str, str] | None = None) -> AppError:
    with pytest.raises(AppError) as err:
        save(fs, profiles, installed)
    return err.value


def test_detect_builtins() -> None:
    detector = FakeDetector({"claude": "1.0.3 (Claude Code)"})
    found = {d.profile.id: d for d in DetectProfiles(detector, "/bin/bash").execute()}
    assert found["claude-code"].installed and found["claude-code"].version == "1.0.3 (Claude Code)"
    assert found["claude-code"].detection.path == "/usr/bin/claude"
    assert not found["codex-cli"].installed and found["codex-cli"].version is None
    assert found["codex-cli"].detection.state == "missing"
    assert found["shell"].installed and found["shell"].detection.path == "/bin/bash"
    assert ("claude", ["--version"], 5000) in detector.calls
    assert all(call[0] for call in detector.calls)  # the shell is never run
    wire = found["claude-code"].to_json()
    assert wire["profile"]["id"] == "claude-code" and wire["state"] == "installed"
    assert wire["output"] == "1.0.3 (Claude Code)" and wire["exitCode"] == 0
    assert found["codex-cli"].install == "npm install -g @openai/codex"
    assert found["codex-cli"].to_json()["install"] == "npm install -g @openai/codex"
    assert found["shell"].install is None


def test_test_button_detects_the_profile_as_edited() -> None:
    detector = FakeDetector(outcomes={
        "/opt/claude/bin/claude": Detection("installed", "/opt/claude/bin/claude", "2.1 (Claude)",
                                            "2.1 (Claude)", 0),
        "broken": Detection("failed", "/usr/bin/broken", None, "segfault", 139)})
    detect = DetectProfiles(detector)
    edited = CLAUDE.model_copy(update={"command": "/opt/claude/bin/claude"})
    found = detect.one(edited)
    assert found.installed and found.version == "2.1 (Claude)"
    assert found.profile == edited
    failed = detect.one(CLAUDE.model_copy(update={"command": "broken"}))
    assert not failed.installed and failed.detection.output == "segfault"
    assert failed.detection.exit_code == 139
    missing = detect.one(CLAUDE)
    assert missing.detection.state == "missing" and "not found" in missing.detection.output


def test_a_profile_without_detection_is_only_looked_up() -> None:
    detector = FakeDetector({"mycli": "x"})
    found = DetectProfiles(detector).one(Profile(id="mine", name="Mine", command="mycli"))
    assert found.installed and found.version is None and detector.calls == [("mycli", None, 0)]


def test_load_defaults_to_builtins_then_round_trips() -> None:
    fs = FakeFileSystem(dirs={DATA})
    assert LoadProfiles(fs, DATA).execute() == builtin_profiles()
    custom = Profile.from_json({"id": "mine", "name": "Mine", "command": "mycli", "args": ["-q"],
                                "contextInjection": {"strategy": "stdin"}, "x": 1})
    saved = save(fs, [SHELL, custom], {"mycli": "/usr/bin/mycli"})
    assert saved == [SHELL, custom]
    assert LoadProfiles(fs, DATA).execute() == [SHELL, custom]
    assert json.loads(fs.files[FILE])["version"] == 1


def test_corrupt_profiles_file_is_reported_and_never_overwritten() -> None:
    fs = FakeFileSystem(dirs={DATA})
    fs.files[FILE] = '{"version": 1, "profiles": [{"id": 3}]}'
    for call in (lambda: LoadProfiles(fs, DATA).execute(), lambda: save(fs, [SHELL])):
        with pytest.raises(AppError) as err:
            call()
        assert err.value.code == "CORRUPT_FILE"
        assert err.value.details["field"] == "profiles[0].id"
    assert fs.files[FILE] == '{"version": 1, "profiles": [{"id": 3}]}'


def test_save_keeps_unknown_top_level_keys_and_rejects_duplicates() -> None:
    fs = FakeFileSystem(dirs={DATA})
    fs.files[FILE] = '{"version": 1, "profiles": [], "future": true}'
    save(fs, [SHELL])
    assert json.loads(fs.files[FILE])["future"] is True
    err = refused(fs, [SHELL, SHELL])
    assert err.code == "INVALID" and err.details["field"] == "profiles[1].id"


def test_saving_no_enabled_profile_is_refused_and_writes_nothing() -> None:
    fs = FakeFileSystem()
    for profiles in ([], [SHELL.model_copy(update={"enabled": False})]):
        err = refused(fs, profiles)
        assert err.code == "INVALID" and err.details["field"] == "profiles"
    assert fs.read_text(FILE) is None


def test_an_enabled_profile_whose_command_is_missing_is_refused_naming_the_field() -> None:
    fs = FakeFileSystem(dirs={DATA})
    err = refused(fs, [SHELL, CLAUDE])
    assert err.code == "INVALID" and err.details["field"] == "profiles[1].command"
    assert "'claude' was not found on the PATH" in err.message
    # the profile's name and the editor's label, not `profiles[1].command: …`
    assert err.message.startswith("Claude Code: Command: ")
    assert err.details["label"] == "Command"
    absolute = CLAUDE.model_copy(update={"command": "/opt/none/claude"})
    assert "does not exist" in refused(fs, [absolute]).message
    assert fs.read_text(FILE) is None
    # found at its absolute path: saved; unticked: saved without being looked up
    assert save(fs, [SHELL, absolute], {"/opt/none/claude": "/opt/none/claude"})[1] == absolute
    off = CLAUDE.model_copy(update={"command": "/gone/claude", "enabled": False})
    assert save(fs, [SHELL, off]) == [SHELL, off]


def test_every_problem_is_reported_first_in_list_order() -> None:
    fs = FakeFileSystem(dirs={DATA})
    bad = Profile.from_json({"id": "x", "name": "", "command": "bin/x",
                             "contextInjection": {"strategy": "flag"}, "env": {"1A": "v"}})
    err = refused(fs, [SHELL, bad])
    fields = [p["field"] for p in err.details["problems"]]
    assert fields == ["profiles[1].name", "profiles[1].command", "profiles[1].env.1A",
                      "profiles[1].contextInjection.flag"]
    assert err.details["field"] == "profiles[1].name"


def test_an_untouched_disabled_builtin_is_not_written_an_edited_or_custom_one_is() -> None:
    off = CLAUDE.model_copy(update={"enabled": False})
    edited = off.model_copy(update={"args": ("--model", "opus")})
    custom = Profile(id="mine", name="Mine", command="mycli", enabled=False)
    assert profiles_to_store([SHELL, off, custom]) == [SHELL, custom]
    assert profiles_to_store([SHELL, edited]) == [SHELL, edited]
    fs = FakeFileSystem(dirs={DATA})
    save(fs, [SHELL, edited, custom])
    stored = json.loads(fs.files[FILE])["profiles"]
    assert [p["id"] for p in stored] == ["shell", "claude-code", "mine"]
    assert stored[1]["enabled"] is False and "enabled" not in stored[0]
    # agents are offered the enabled ones; the editor gets all
    assert [p.id for p in LoadProfiles(fs, DATA).execute()] == ["shell"]
    assert [p.id for p in LoadProfiles(fs, DATA).execute(include_disabled=True)] == \
        ["shell", "claude-code", "mine"]


def test_a_builtin_saved_by_an_earlier_version_gets_the_project_grant() -> None:
    fs = FakeFileSystem(dirs={DATA})
    old = {"id": "claude-code", "name": "Claude Code", "command": "claude", "args": [],
           "contextInjection": {"strategy": "conventionFile", "target": "CLAUDE.md"},
           "detect": {"args": ["--version"], "timeoutMs": 5000}, "cwdTemplate": "{agentRunDir}",
           "projector": "claude-code"}
    opted_out = {**old, "id": "codex-cli", "command": "codex", "projectAccess": {"args": []}}
    fs.files[FILE] = json.dumps({"version": 1, "profiles": [old, opted_out]})
    claude, codex = LoadProfiles(fs, DATA).execute()
    assert claude.project_access == ProjectAccess(args=("--add-dir", "{projectRoot}"))
    assert codex.project_access == ProjectAccess(args=())


def test_an_earlier_versions_builtin_with_an_empty_command_runs_its_cli_and_saves() -> None:
    # A profiles.json an earlier IdeA accepted: Claude Code and Aider with an empty command,
    # which ran $SHELL with Claude's grant (or Aider's --read) and which the editor refuses
    # now; a trial's Save of anything else was refused because of it.
    fs = FakeFileSystem(dirs={DATA})
    old = {"id": "claude-code", "name": "Claude Code", "command": "", "args": [],
           "contextInjection": {"strategy": "conventionFile", "target": "CLAUDE.md"},
           "detect": {"args": ["--version"], "timeoutMs": 5000}, "cwdTemplate": "{agentRunDir}"}
    aider = {"id": "aider", "name": "Aider", "command": "",
             "contextInjection": {"strategy": "flag", "target": "CONVENTIONS.md",
                                  "flag": "--read"}}
    # an empty command that can be the user's shell stays so, built-in or not
    shell_like = {"id": "codex-cli", "name": "Codex as a shell", "command": "",
                  "contextInjection": {"strategy": "env", "var": "IDEA_CONTEXT_FILE"},
                  "projectAccess": {"args": []}}
    text = json.dumps({"version": 1, "profiles": [old, aider, shell_like, SHELL.to_json()]})
    fs.files[FILE] = text
    claude, aider_, codex, shell = LoadProfiles(fs, DATA).execute(include_disabled=True)
    assert (claude.command, aider_.command, codex.command, shell.command) == \
        ("claude", "aider", "", "")
    assert fs.files[FILE] == text  # loading rewrites nothing
    assert DetectProfiles(FakeDetector({"claude": "2.1"})).one(claude).installed
    renamed = shell.model_copy(update={"name": "My shell"})
    saved = save(fs, [claude, aider_, codex, renamed],
                 {"claude": "/usr/bin/claude", "aider": "/usr/bin/aider"})
    assert [p["command"] for p in json.loads(fs.files[FILE])["profiles"]] == \
        ["claude", "aider", "", ""]
    assert saved[3].name == "My shell"


def test_test_reports_an_empty_command_save_would_refuse() -> None:
    # Trial finding: Test said "found · /bin/bash" for a Custom CLI without a command, which
    # Save then refused ("an empty command runs your shell, which is never detected").
    custom = Profile(id="custom", name="Custom CLI", command="",
                     context_injection={"strategy": "conventionFile", "target": "AGENTS.md"})
    found = DetectProfiles(FakeDetector({}), "/bin/bash").one(custom)
    assert found.detection.state == "failed" and not found.installed
    assert "empty command runs your shell" in found.detection.output
    with_args = CLAUDE.model_copy(update={"command": ""})
    assert "takes none of this profile's arguments" in \
        DetectProfiles(FakeDetector({}), "/bin/bash").one(with_args).detection.output
    # the Shell profile's empty command is still the user's shell
    shell = DetectProfiles(FakeDetector({}), "/bin/bash").one(SHELL)
    assert shell.installed and shell.detection.path == "/bin/bash"
