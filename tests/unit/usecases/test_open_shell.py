import json

import pytest

from app.core.domain.sessions import SessionRecord
from app.core.errors import AppError
from app.core.events import LayoutChanged, SessionStarted
from app.core.usecases.open_shell import OpenShell
from tests.unit.fakes import FakeEventSink, FakeTerminalHost
from tests.unit.usecases.builders import ROOT, created_project


def test_open_shell_spawns_in_root_shows_it_and_publishes() -> None:
    fs, ids, state = created_project()
    pty, events = FakeTerminalHost(), FakeEventSink()
    assert state.layouts is not None
    leaf_id = state.layouts.active.root.id
    opened = OpenShell(pty, ids, fs, events, "/bin/zsh").execute(state, leaf_id, 100, 30)
    [spec] = pty.specs
    assert (spec.command, spec.args, spec.cwd, spec.cols, spec.rows) == \
        ("/bin/zsh", [], ROOT, 100, 30)
    session = opened.session_id
    assert spec.session_id == session and spec.env["IDEA_PROJECT_ROOT"] == ROOT
    saved = json.loads(fs.files[f"{ROOT}/.ideai/layouts.json"])
    assert saved["layouts"][0]["tree"]["root"]["node"] == {"id": leaf_id, "session": session}
    record = SessionRecord(session, "shell", "zsh 1")
    assert state.sessions == {session: record} and opened.layouts == state.layouts
    assert events.events == [SessionStarted(ROOT, record), LayoutChanged(ROOT, opened.layouts)]


def test_unknown_cell_spawns_nothing() -> None:
    fs, ids, state = created_project()
    pty, events = FakeTerminalHost(), FakeEventSink()
    with pytest.raises(AppError) as err:
        OpenShell(pty, ids, fs, events, "/bin/sh").execute(state, "nope", 80, 24)
    assert err.value.code == "NOT_FOUND" and pty.specs == [] and events.events == []


def test_a_cell_that_cannot_be_saved_kills_the_shell() -> None:
    fs, ids, state = created_project()
    assert state.layouts is not None
    leaf_id = state.layouts.active.root.id
    fs.read_only.add(f"{ROOT}/.ideai")
    pty = FakeTerminalHost()
    with pytest.raises(AppError) as err:
        OpenShell(pty, ids, fs, FakeEventSink(), "/bin/sh").execute(state, leaf_id, 80, 24)
    assert err.value.code == "NOT_WRITABLE"
    assert pty.killed == [pty.specs[0].session_id] and state.sessions == {}


def test_no_shell_configured() -> None:
    fs, ids, state = created_project()
    with pytest.raises(AppError) as err:
        OpenShell(FakeTerminalHost(), ids, fs, FakeEventSink(), "").execute(state, "x", 80, 24)
    assert err.value.code == "INVALID"




def test_shells_get_distinct_titles() -> None:
    fs, ids, state = created_project()
    assert state.layouts is not None
    leaf_id = state.layouts.active.root.id
    shells = OpenShell(FakeTerminalHost(), ids, fs, FakeEventSink(), "/bin/bash")
    titles = [state.sessions[shells.execute(state, leaf_id, 80, 24).session_id].title
              for _ in range(3)]
    assert titles == ["bash 1", "bash 2", "bash 3"]


def test_a_restored_shell_keeps_its_title_unless_another_shell_took_it() -> None:
    fs, ids, state = created_project()
    assert state.layouts is not None
    leaf_id = state.layouts.active.root.id
    shells = OpenShell(FakeTerminalHost(), ids, fs, FakeEventSink(), "/bin/bash")
    titles = [state.sessions[shells.execute(state, leaf_id, 80, 24, title=wanted).session_id].title
              for wanted in ("bash 3", None, "bash 3")]
    assert titles == ["bash 3", "bash 1", "bash 2"]
