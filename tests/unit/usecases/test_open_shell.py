import json

import pytest

from app.core.errors import AppError
from app.core.usecases.open_shell import OpenShell
from tests.unit.fakes import FakePtyHost
from tests.unit.usecases.builders import ROOT, created_project


def test_open_shell_spawns_in_root_and_assigns_leaf() -> None:
    fs, ids, state = created_project()
    pty = FakePtyHost()
    assert state.layouts is not None
    leaf_id = state.layouts.active.root.id
    session = OpenShell(pty, ids, fs).execute(state, leaf_id, 100, 30, "/bin/zsh")
    [spec] = pty.specs
    assert (spec.command, spec.args, spec.cwd, spec.cols, spec.rows) == \
        ("/bin/zsh", [], ROOT, 100, 30)
    assert spec.session_id == session and spec.env["IDEA_PROJECT_ROOT"] == ROOT
    saved = json.loads(fs.files[f"{ROOT}/.ideai/layouts.json"])
    assert saved["layouts"][0]["tree"]["root"]["node"] == {"id": leaf_id, "session": session}


def test_unknown_cell_spawns_nothing() -> None:
    fs, ids, state = created_project()
    pty = FakePtyHost()
    with pytest.raises(AppError) as err:
        OpenShell(pty, ids, fs).execute(state, "nope", 80, 24, "/bin/sh")
    assert err.value.code == "NOT_FOUND" and pty.specs == []
