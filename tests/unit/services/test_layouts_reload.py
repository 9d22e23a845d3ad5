"""`layouts.json` edited outside IdeA (the file watcher calls `LayoutService.reload`): the
layouts are read again, a session no cell shows any more keeps running, an unreadable file is
reported and never written, and fixing it brings the file's layouts in (ADR 022; the trial
found such edits overwritten by IdeA's next save)."""

from __future__ import annotations

import json

from app.core.domain.layout_nodes import leaves
from app.core.events import LayoutChanged, ProblemRaised, ProblemResolved
from app.core.usecases.project_state import START_FRESH
from tests.unit.services.world import OTHER, ROOT, World, world

FILE = f"{ROOT}/.ideai/layouts.json"


def _split(w: World, shown: str | None, other: str | None) -> dict[str, object]:
    """The file with its active layout split in two cells showing `shown` and `other`."""
    doc = json.loads(w.fs.files[FILE])
    active = next(lay for lay in doc["layouts"] if lay["id"] == doc["activeId"])

    def leaf(node_id: str, session: str | None) -> dict[str, object]:
        return {"type": "leaf", "node": {"id": node_id, **({"session": session} if session
                                                            else {})}}

    active["tree"]["root"] = {"type": "split", "node": {
        "id": "s1", "direction": "row",
        "children": [{"node": leaf("a", shown), "weight": 1},
                     {"node": leaf("b", other), "weight": 1}]}}
    return doc


def _shown(w: World) -> list[str | None]:
    layouts = w.s.projects.view(ROOT).layouts
    assert layouts is not None
    return [leaf.session for leaf in leaves(layouts.active.root)]


def test_an_edit_on_disk_is_taken_and_a_session_it_hides_keeps_running() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    sid = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    published = len(w.timeline.of(LayoutChanged))
    w.s.layouts.reload(ROOT)  # IdeA's own write, reported too: nothing new
    assert len(w.timeline.of(LayoutChanged)) == published

    w.fs.files[FILE] = json.dumps(_split(w, sid, "not-a-session-of-ours"))
    w.s.layouts.reload(ROOT)
    assert _shown(w) == [sid, None]  # a session the project does not own is not shown
    assert w.timeline.of(LayoutChanged)[-1].layouts == w.s.projects.view(ROOT).layouts

    one = json.loads(w.fs.files[FILE])
    next(lay for lay in one["layouts"] if lay["id"] == one["activeId"])["tree"]["root"] = {
        "type": "leaf", "node": {"id": "z"}}
    w.fs.files[FILE] = json.dumps(one)
    w.s.layouts.reload(ROOT)
    assert _shown(w) == [None]
    assert w.host.is_alive(sid) and w.host.killed == []  # hidden, detached, still running
    assert [s.session_id for s in w.s.projects.view(ROOT).sessions] == [sid]

    w.s.layouts.edit(ROOT, {"kind": "undo"})  # the edit on disk is one undo step: the split
    assert _shown(w) == [sid, None]  # comes back, showing the shell that still runs
    assert json.loads(w.fs.files[FILE]) == json.loads(
        json.dumps(w.s.projects.view(ROOT).layouts.to_json()))  # type: ignore[union-attr]


def test_a_broken_file_is_reported_never_written_and_taken_once_fixed() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    sid = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    fixed = json.dumps(_split(w, sid, None))
    broken = w.fs.files[FILE].replace('"layouts"', '"layouts" 1', 1)
    w.fs.files[FILE] = broken
    w.s.layouts.reload(ROOT)
    [problem] = w.timeline.of(ProblemRaised)
    assert problem.file == FILE and problem.root == ROOT and problem.recovery == START_FRESH
    assert _shown(w) == [sid]  # the cells keep what they show
    w.s.layouts.edit(ROOT, {"kind": "split", "nodeId": w.leaf(), "direction": "column"})
    assert w.fs.files[FILE] == broken  # never written while broken
    w.s.layouts.reload(ROOT)
    assert len(w.timeline.of(ProblemRaised)) == 1  # not said again

    w.fs.files[FILE] = fixed
    w.s.layouts.reload(ROOT)
    assert w.timeline.of(ProblemResolved) == [ProblemResolved(FILE, ROOT)]
    assert _shown(w) == [sid, None]
    w.s.layouts.edit(ROOT, {"kind": "split", "nodeId": "b", "direction": "column"})
    assert len(leaves(w.s.projects.view(ROOT).layouts.active.root)) == 3  # type: ignore[union-attr]
    assert json.loads(w.fs.files[FILE]) != json.loads(fixed)  # written again


def test_a_missing_file_or_a_project_not_open_is_left_alone() -> None:
    w = world()
    w.s.layouts.reload(OTHER)
    w.s.projects.create(ROOT, "Demo")
    w.fs.files.pop(FILE, None)
    published = len(w.timeline.of(LayoutChanged))
    w.s.layouts.reload(ROOT)
    assert len(w.timeline.of(LayoutChanged)) == published and w.timeline.of(ProblemRaised) == []
