"""The workbench's backend (issue 9, items 6, 8, 9): a session shown in any cell (moved from
another), the PTY sizes a repaint replays, the preferences, recovering from a broken
`layouts.json`, `~` in a typed path, a folder without `.ideai/`."""

import json

import pytest

from app.core.domain.layout_nodes import leaves
from app.core.errors import AppError
from app.core.events import LayoutChanged, ProblemResolved
from tests.unit.services.world import DATA, ROOT, World, world


def _two_cells(w: World) -> tuple[str, str]:
    w.s.projects.create(ROOT, "Demo")
    w.s.layouts.edit(ROOT, {"kind": "split", "nodeId": w.leaf(), "direction": "row"})
    doc = w.s.projects.view(ROOT).layouts
    assert doc is not None
    first, second = (lf.id for lf in leaves(doc.active.root))
    return first, second


def _shown(w: World) -> dict[str, str | None]:
    doc = w.s.projects.view(ROOT).layouts
    assert doc is not None
    return {lf.id: lf.session for lf in leaves(doc.active.root)}


def test_a_session_moves_to_another_cell_and_the_one_it_covers_detaches() -> None:
    w = world()
    first, second = _two_cells(w)
    a = w.s.terminals.open_shell(ROOT, first, 80, 24).session_id
    b = w.s.terminals.open_shell(ROOT, second, 80, 24).session_id
    doc = w.s.layouts.show_session(ROOT, a, second)
    assert {lf.id: lf.session for lf in leaves(doc.active.root)} == {first: None, second: a}
    assert w.host.killed == [] and w.host.is_alive(b)  # b is detached, not killed
    assert isinstance(w.timeline.items[-1], LayoutChanged)
    w.s.layouts.show_session(ROOT, b, first)
    assert _shown(w) == {first: b, second: a}
    saved = json.loads(w.fs.files[f"{ROOT}/.ideai/layouts.json"])
    assert a in json.dumps(saved) and b in json.dumps(saved)


def test_an_agent_shown_elsewhere_keeps_its_agent_and_running_flag() -> None:
    w = world()
    first, second = _two_cells(w)
    agent = w.s.agents.create(ROOT, "Main", "# Main", "shell").entry.agent_id
    sid = w.s.agents.launch(ROOT, agent, first, 80, 24).session_id
    doc = w.s.layouts.show_session(ROOT, sid, second)
    [cell] = [lf for lf in leaves(doc.active.root) if lf.session == sid]
    assert cell.id == second and cell.agent == agent and cell.agent_was_running
    [old] = [lf for lf in leaves(doc.active.root) if lf.id == first]
    assert old.session is None and old.agent is None and not old.agent_was_running


def test_showing_an_unknown_session_or_in_an_unknown_cell_is_refused() -> None:
    w = world()
    first, _ = _two_cells(w)
    with pytest.raises(AppError) as err:
        w.s.layouts.show_session(ROOT, "nope", first)
    assert err.value.code == "NOT_FOUND"
    sid = w.s.terminals.open_shell(ROOT, first, 80, 24).session_id
    with pytest.raises(AppError) as err:
        w.s.layouts.show_session(ROOT, sid, "no-cell")
    assert err.value.code == "NOT_FOUND"


def test_attach_answers_the_sizes_the_scrollback_was_produced_at() -> None:
    w = world()
    first, _ = _two_cells(w)
    sid = w.s.terminals.open_shell(ROOT, first, 100, 30).session_id
    w.host.emit(sid, "a" * 10)
    w.s.terminals.resize(sid, 60, 20)
    w.host.emit(sid, "é😀b")  # the emoji is 2 UTF-16 units
    w.s.terminals.resize(sid, 70, 20)
    snap = w.s.terminals.attach(sid, "w1", lambda c: None)
    assert snap.scrollback == "a" * 10 + "é😀b"
    assert [(m.at, m.cols, m.rows) for m in snap.sizes] == [(0, 100, 30), (10, 60, 20),
                                                            (14, 70, 20)]


def test_sizes_follow_the_ring_when_old_output_is_trimmed() -> None:
    w = world()  # the world's ring keeps 1000 characters
    first, _ = _two_cells(w)
    sid = w.s.terminals.open_shell(ROOT, first, 100, 30).session_id
    w.host.emit(sid, "x" * 900 + "\n")
    w.s.terminals.resize(sid, 50, 10)
    w.host.emit(sid, "y" * 300 + "\n")
    snap = w.s.terminals.attach(sid, "w1", lambda c: None)
    assert snap.scrollback == "y" * 300 + "\n"
    assert [(m.at, m.cols) for m in snap.sizes] == [(0, 50)]


def test_settings_are_saved_validated_and_size_the_next_rings() -> None:
    w = world()
    assert w.s.settings.get().terminal.font_size == 13
    saved = w.s.settings.update({"terminal": {"fontSize": 16, "scrollbackLines": 50_000},
                                 "ui": {"sidePanelCollapsed": True}})
    assert saved.terminal.font_size == 16 and saved.ui.side_panel_collapsed
    on_disk = json.loads(w.fs.files[f"{DATA}/settings.json"])
    assert on_disk["terminal"] == {"fontSize": 16, "scrollbackLines": 50_000}
    with pytest.raises(AppError) as err:
        w.s.settings.update({"terminal": {"fontSize": 200}})
    # the Settings dialog's words, not the path in settings.json
    assert err.value.code == "INVALID"
    assert err.value.message == "Terminal font size: input should be less than or equal to 40"
    assert err.value.details == {"field": "settings.terminal.fontSize",
                                 "label": "Terminal font size"}
    with pytest.raises(AppError) as err:
        w.s.settings.update({"terminal": {"colour": "red"}})
    assert "settings.terminal.colour: unknown setting" in err.value.message
    first, _ = _two_cells(w)
    sid = w.s.terminals.open_shell(ROOT, first, 80, 24).session_id
    w.host.emit(sid, "z" * 2_000_000)
    assert len(w.s.terminals.attach(sid, "w1", lambda c: None).scrollback) == 2_000_000


def _broken_layouts(w: World) -> str:
    w.s.projects.create(ROOT, "Demo")
    w.s.projects.close(ROOT)
    path = f"{ROOT}/.ideai/layouts.json"
    w.fs.files[path] = '{"version": 1, "layouts": [tor'
    return path


def test_a_broken_layouts_json_opens_a_fresh_layout_and_is_never_overwritten() -> None:
    w = world()
    path = _broken_layouts(w)
    view = w.s.projects.open(ROOT)
    [problem] = view.problems
    assert problem.file == path and problem.recovery == "startFresh"
    assert view.layouts is not None and len(leaves(view.layouts.active.root)) == 1
    sid = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id  # works in memory
    w.s.layouts.edit(ROOT, {"kind": "split", "nodeId": w.leaf(), "direction": "row"})
    assert w.fs.files[path] == '{"version": 1, "layouts": [tor'
    fresh = w.s.layouts.start_fresh(ROOT)
    assert fresh.backup == f"{path}.bak"
    assert w.fs.files[f"{path}.bak"] == '{"version": 1, "layouts": [tor'
    written = json.loads(w.fs.files[path])
    assert sid in json.dumps(written) and len(leaves(fresh.layouts.active.root)) == 2
    assert w.s.projects.view(ROOT).problems == ()
    assert ProblemResolved(path, ROOT) in w.timeline.items
    with pytest.raises(AppError) as err:
        w.s.layouts.start_fresh(ROOT)
    assert err.value.code == "INVALID"


def test_a_second_broken_file_is_kept_beside_the_first_backup() -> None:
    w = world()
    path = _broken_layouts(w)
    w.fs.files[f"{path}.bak"] = "older"
    w.s.projects.open(ROOT)
    assert w.s.layouts.start_fresh(ROOT).backup == f"{path}.bak-2"
    assert w.fs.files[f"{path}.bak"] == "older"


def test_open_expands_home_and_says_when_a_folder_is_not_a_project_yet() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    w.s.projects.close(ROOT)
    from app.bootstrap import Config, build

    home = build(Config(data_dir=DATA, shell="/bin/bash", home="/home/u"),
                 w.container.adapters).services.projects
    assert home.open("~/proj").root == ROOT
    w.fs.make_dirs("/home/u/plain")
    with pytest.raises(AppError) as err:
        home.open("~/plain")
    assert err.value.code == "NOT_FOUND" and err.value.details["reason"] == "notAProject"
    with pytest.raises(AppError) as err:
        home.open("/home/u/none")
    assert err.value.details["reason"] == "folderMissing"
    assert home.create("~/plain").root == "/home/u/plain"
    # One folder, one project, however it is spelled (`..`, `.`, doubled or trailing slashes).
    assert home.open("~/../u/./plain//").root == "/home/u/plain"
    assert home.open("/home/x/../u/proj").root == ROOT
