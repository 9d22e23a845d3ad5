import json

import pytest

from app.core.errors import AppError
from app.core.usecases.settings import LoadSettings, MarkFirstRunDone
from tests.unit.fakes import FakeFileSystem

DATA = "/data"


def test_first_run_flag() -> None:
    fs = FakeFileSystem(dirs={DATA})
    assert not LoadSettings(fs, DATA).execute().first_run_done
    fs.files[f"{DATA}/settings.json"] = '{"version": 1, "firstRunDone": false, "theme": "dark"}'
    MarkFirstRunDone(fs, DATA).execute()
    assert json.loads(fs.files[f"{DATA}/settings.json"]) == {
        "version": 1, "firstRunDone": True, "theme": "dark"}
    assert LoadSettings(fs, DATA).execute().first_run_done


def test_corrupt_settings_not_overwritten() -> None:
    fs = FakeFileSystem(dirs={DATA})
    fs.files[f"{DATA}/settings.json"] = "nope"
    with pytest.raises(AppError) as err:
        MarkFirstRunDone(fs, DATA).execute()
    assert err.value.code == "CORRUPT_FILE" and fs.files[f"{DATA}/settings.json"] == "nope"
