"""Property tests (hypothesis): any sequence of layout edits leaves a valid document.

Random sequences of split / merge / unmerge / resize / move / close / assign / preset /
balance / undo / redo and layout management (create, duplicate, switch, delete) are run through
the real `EditLayout` use case on a fake file system. Ops the rules refuse (`AppError`) must
leave the document untouched; after every step the document passes `validate_doc` (unique ids,
weights > 0, grid spans covering every track without overlap, a session in at most one leaf of
the whole document), every cell of the active layout keeps the minimum size, and what is on
disk is what is in memory.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.domain.layout_nodes import Grid, Leaf, Split, walk
from app.core.domain.layout_rules import validate_doc
from app.core.domain.layout_size import MIN_CELL_COLS, MIN_CELL_ROWS, Extent, leaf_extents
from app.core.domain.sessions import SessionRecord
from app.core.errors import AppError
from app.core.usecases.edit_layout import EditLayout
from app.core.usecases.project_state import ProjectState
from tests.unit.fakes import FakeEventSink
from tests.unit.usecases.builders import ROOT, created_project

LAYOUTS = f"{ROOT}/.ideai/layouts.json"
EXTENT = {"cols": 200.0, "rows": 60.0}
SESSIONS = ("s1", "s2", "s3")

# An op is drawn as (kind, a few random picks); picks index into what the tree holds then.
_ops = st.tuples(
    st.sampled_from(["split", "split", "close", "merge", "merge", "unmerge", "resize", "move",
                     "assign", "preset", "balance", "undo", "redo", "createLayout",
                     "duplicateLayout", "switchLayout", "deleteLayout", "endSession"]),
    st.integers(0, 50), st.integers(0, 50), st.integers(1, 40), st.integers(1, 40))


def _pick(items: list[Any], index: int) -> Any:
    return items[index % len(items)]


def _op(state: ProjectState, drawn: tuple[str, int, int, int, int]) -> dict[str, Any] | None:
    kind, i, j, w1, w2 = drawn
    assert state.layouts is not None
    doc = state.layouts
    root = doc.active.root
    leaves = [n for n in walk(root) if isinstance(n, Leaf)]
    containers = [n for n in walk(root) if isinstance(n, Split | Grid)]
    a, b = _pick(leaves, i), _pick(leaves, j)
    if kind == "split":
        return {"kind": "split", "nodeId": a.id, "direction": ("row", "column")[j % 2],
                "extent": EXTENT}
    if kind in ("close", "unmerge"):
        return {"kind": kind, "nodeId": a.id, "extent": EXTENT}
    if kind == "merge":
        return {"kind": "merge", "nodeIds": [a.id, b.id]}
    if kind == "move":
        return {"kind": "move", "nodeId": a.id, "toNodeId": b.id}
    if kind == "assign":
        session = _pick([*SESSIONS, None], j)
        return {"kind": "assign", "nodeId": a.id, "session": session}
    if kind == "resize":
        if not containers:
            return None
        node = _pick(containers, i)
        if isinstance(node, Split):
            weights = [float(w1 if k % 2 else w2) for k in range(len(node.children))]
            return {"kind": "resize", "nodeId": node.id, "weights": weights, "extent": EXTENT}
        cols = [float(w1 + k) for k in range(len(node.col_weights))]
        rows = [float(w2 + k) for k in range(len(node.row_weights))]
        return {"kind": "resize", "nodeId": node.id, "colWeights": cols, "rowWeights": rows,
                "extent": EXTENT}
    if kind == "preset":
        return {"kind": "preset", "preset": _pick(["2x2", "1+2", "3-columns"], i),
                "extent": EXTENT}
    if kind == "balance":
        return {"kind": "balance", "extent": EXTENT}
    if kind in ("undo", "redo"):
        return {"kind": kind}
    layout = _pick(list(doc.layouts), i)
    if kind == "createLayout":
        return {"kind": "createLayout", "name": f"L{i}-{j}"}
    if kind == "duplicateLayout":
        return {"kind": "duplicateLayout", "layoutId": layout.id}
    if kind == "switchLayout":
        return {"kind": "switchLayout", "layoutId": layout.id}
    if kind == "deleteLayout":
        return {"kind": "deleteLayout", "layoutId": layout.id}
    return None


def _check(state: ProjectState, fs_text: str) -> None:
    doc = state.layouts
    assert doc is not None
    validate_doc(doc)
    assert json.loads(fs_text) == doc.to_json()
    for size in leaf_extents(doc.active.root, Extent(EXTENT["cols"], EXTENT["rows"])).values():
        assert size.cols >= MIN_CELL_COLS - 1e-6 and size.rows >= MIN_CELL_ROWS - 1e-6


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ops, max_size=40))
def test_any_sequence_of_edits_keeps_the_layouts_valid(
        steps: list[tuple[str, int, int, int, int]]) -> None:
    fs, ids, state = created_project()
    edit = EditLayout(fs, ids, FakeEventSink())
    for sid in SESSIONS:
        state.sessions[sid] = SessionRecord(sid, "agent", sid, f"agent-{sid}")
    for drawn in steps:
        if drawn[0] == "endSession":
            sid = _pick(list(SESSIONS), drawn[1])
            state.sessions[sid] = state.sessions[sid].ended(0)
            continue
        op = _op(state, drawn)
        if op is None:
            continue
        before, text = state.layouts, fs.files.get(LAYOUTS, "")
        try:
            edit.execute(state, op)
        except AppError:
            assert state.layouts == before and fs.files.get(LAYOUTS, "") == text
            continue
        _check(state, fs.files[LAYOUTS])


@settings(max_examples=100, deadline=None)
@given(st.lists(_ops, max_size=25))
def test_undo_of_a_close_shows_the_session_again_while_it_runs(
        steps: list[tuple[str, int, int, int, int]]) -> None:
    fs, ids, state = created_project()
    edit = EditLayout(fs, ids, FakeEventSink())
    state.sessions["s1"] = SessionRecord("s1", "agent", "s1", "agent-s1")
    for drawn in steps:  # some random shape first (no layout management, no assign)
        op = _op(state, drawn)
        if op is None or op["kind"] in ("assign", "createLayout", "duplicateLayout",
                                        "switchLayout", "deleteLayout", "undo", "redo"):
            continue
        try:
            edit.execute(state, op)
        except AppError:
            continue
    assert state.layouts is not None
    target = [n for n in walk(state.layouts.active.root) if isinstance(n, Leaf)][-1]
    edit.execute(state, {"kind": "assign", "nodeId": target.id, "session": "s1",
                         "agent": "agent-s1"})
    closed = edit.execute(state, {"kind": "close", "nodeId": target.id})
    assert "s1" not in {n.session for n in walk(closed.active.root) if isinstance(n, Leaf)}
    back = edit.execute(state, {"kind": "undo"})
    shown = [n for n in walk(back.active.root) if isinstance(n, Leaf) and n.session == "s1"]
    assert [n.id for n in shown] == [target.id]
    again = edit.execute(state, {"kind": "redo"})
    validate_doc(again)
    back = edit.execute(state, {"kind": "undo"})
    assert [n.id for n in walk(back.active.root)
            if isinstance(n, Leaf) and n.session == "s1"] == [target.id]
