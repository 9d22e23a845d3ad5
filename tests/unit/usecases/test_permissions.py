import json

import pytest

from app.core.errors import AppError
from app.core.usecases.permissions import load_permissions
from tests.unit.fakes import FakeFileSystem

ROOT = "/home/u/proj"
FILE = f"{ROOT}/.ideai/permissions.json"


def test_missing_file_means_nothing_posed() -> None:
    assert load_permissions(FakeFileSystem(dirs={f"{ROOT}/.ideai"}), ROOT) is None


def test_loads_the_project_defaults() -> None:
    fs = FakeFileSystem(dirs={f"{ROOT}/.ideai"})
    fs.files[FILE] = json.dumps({"version": 1, "projectDefaults": {"rules": [
        {"capability": "read", "effect": "allow", "paths": ["**"], "commands": []}],
        "fallback": "deny"}})
    doc = load_permissions(fs, ROOT)
    assert doc is not None and doc.project_defaults.fallback == "deny"
    assert fs.writes == []


def test_corrupt_file_names_the_field_and_is_not_written() -> None:
    fs = FakeFileSystem(dirs={f"{ROOT}/.ideai"})
    fs.files[FILE] = '{"version": 1, "projectDefaults": {"rules": [{"capability": "read"}]}}'
    with pytest.raises(AppError) as err:
        load_permissions(fs, ROOT)
    assert err.value.code == "CORRUPT_FILE"
    assert err.value.message == f"{FILE}: projectDefaults.rules[0].effect: field required"
    assert fs.writes == []
