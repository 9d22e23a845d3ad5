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


def test_os_verdict_in_words() -> None:
    from app.core.domain.sandbox import PathGrant, SandboxPlan, SandboxStatus, access_set
    from app.core.usecases.permissions import os_verdict

    plan = SandboxPlan(restrict=access_set(["write"]), fail_closed=True, grants=(
        PathGrant(ROOT, access_set(["read", "write"]), "write allow **"),
        PathGrant(f"{ROOT}/.ideai/run/a1", access_set(["read", "write", "delete"]),
                  "the agent's run dir")))
    on = SandboxStatus("enforced", "Landlock ABI 7")
    deepest = os_verdict(plan, on, "write", ROOT, ".ideai/run/a1/x")
    assert deepest.allowed and "the agent's run dir" in deepest.message
    assert os_verdict(plan, on, "write", ROOT, "../proj-other/x").allowed is False
    assert os_verdict(plan, on, "write", ROOT, "/home/u/project2/x").allowed is False
    assert not os_verdict(plan, on, "delete", ROOT, "x").enforced
    assert not os_verdict(None, on, "write", ROOT, "x").enforced
    off = SandboxStatus("unsupported", "no Landlock")
    refused = os_verdict(plan, off, "write", ROOT, "x", refused=True)
    assert not refused.enforced and refused.message == ("not enforced on this machine: no "
                                                        "Landlock — a launch is refused "
                                                        "(fail-closed)")
    assert os_verdict(plan, off, "write", ROOT, "x").message.endswith("no Landlock")
    project = os_verdict(plan, on, "write", ROOT, "/elsewhere", with_cli=False)
    assert "an agent's CLI also gets its own folders" in project.message


def test_save_creates_the_ideai_folder_and_writes_the_canonical_form() -> None:
    from app.core.usecases.permissions import save_permissions

    fs = FakeFileSystem(dirs={ROOT})
    doc = save_permissions(fs, ROOT, {"projectDefaults": {"fallback": "ask"}})
    assert doc.version == 1
    assert json.loads(fs.files[FILE]) == {"version": 1, "projectDefaults": {
        "rules": [], "fallback": "ask"}}
    assert fs.files[FILE].endswith("\n")


def test_os_verdict_names_the_need_that_grants_a_project_under_tmp() -> None:
    from app.core.domain.sandbox import PathGrant, SandboxPlan, SandboxStatus, access_set
    from app.core.usecases.permissions import os_verdict

    plan = SandboxPlan(restrict=access_set(["write"]), fail_closed=True, grants=(
        PathGrant("/tmp", access_set(["read", "write", "delete"]), "temporary files"),
        PathGrant("/tmp/p/src", access_set(["write"]), "write allow src/**")))
    on = SandboxStatus("enforced", "Landlock ABI 7")
    root_file = os_verdict(plan, on, "write", "/tmp/p", "x.txt")
    assert root_file.enforced and root_file.allowed is True
    assert root_file.message.startswith("the kernel allows it — granted: temporary files (/tmp)"
                                        " — the project lies in it")
    src = os_verdict(plan, on, "write", "/tmp/p", "src/a.py")
    assert src.message == "the kernel allows it — granted: write allow src/** (/tmp/p/src)"
