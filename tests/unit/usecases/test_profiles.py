import json

import pytest

from app.core.domain.profiles import Profile, builtin_profiles
from app.core.errors import AppError
from app.core.usecases.profiles import DetectProfiles, LoadProfiles, SaveProfiles
from tests.unit.fakes import FakeDetector, FakeFileSystem

DATA = "/data"


def test_detect_builtins() -> None:
    detector = FakeDetector({"claude": "1.0.3 (Claude Code)"})
    found = {d.profile.id: d for d in DetectProfiles(detector).execute()}
    assert found["claude-code"].installed and found["claude-code"].version == "1.0.3 (Claude Code)"
    assert not found["codex-cli"].installed and found["codex-cli"].version is None
    assert found["shell"].installed
    assert ("claude", ["--version"], 5000) in detector.calls
    assert all(call[0] for call in detector.calls)
    assert found["claude-code"].to_json()["profile"]["id"] == "claude-code"


def test_load_defaults_to_builtins_then_round_trips() -> None:
    fs = FakeFileSystem(dirs={DATA})
    assert LoadProfiles(fs, DATA).execute() == builtin_profiles()
    custom = Profile.from_json({"id": "mine", "name": "Mine", "command": "mycli", "args": ["-q"],
                                "contextInjection": {"strategy": "stdin"}, "x": 1})
    SaveProfiles(fs, DATA).execute([*builtin_profiles(), custom])
    assert LoadProfiles(fs, DATA).execute()[-1] == custom
    assert json.loads(fs.files[f"{DATA}/profiles.json"])["version"] == 1


def test_corrupt_profiles_file_is_reported_and_never_overwritten() -> None:
    fs = FakeFileSystem(dirs={DATA})
    fs.files[f"{DATA}/profiles.json"] = '{"version": 1, "profiles": [{"id": 3}]}'
    for call in (lambda: LoadProfiles(fs, DATA).execute(),
                 lambda: SaveProfiles(fs, DATA).execute(builtin_profiles())):
        with pytest.raises(AppError) as err:
            call()
        assert err.value.code == "CORRUPT_FILE"
    assert fs.files[f"{DATA}/profiles.json"] == '{"version": 1, "profiles": [{"id": 3}]}'


def test_save_keeps_unknown_top_level_keys_and_rejects_duplicates() -> None:
    fs = FakeFileSystem(dirs={DATA})
    fs.files[f"{DATA}/profiles.json"] = '{"version": 1, "profiles": [], "future": true}'
    SaveProfiles(fs, DATA).execute(builtin_profiles())
    assert json.loads(fs.files[f"{DATA}/profiles.json"])["future"] is True
    with pytest.raises(AppError) as err:
        SaveProfiles(fs, DATA).execute(builtin_profiles() * 2)
    assert err.value.code == "INVALID"


def test_saving_no_profile_at_all_is_refused_and_writes_nothing() -> None:
    fs = FakeFileSystem()
    with pytest.raises(AppError) as err:
        SaveProfiles(fs, "/data").execute([])
    assert err.value.code == "INVALID"
    assert fs.read_text("/data/profiles.json") is None
