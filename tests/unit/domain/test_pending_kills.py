"""The rules of a closed cell's shell (ADR 021): which sessions a layout edit dooms, kills or
detaches (`fate_after_edit`), which pending kills an edit cancels and which are due when
(`PendingKills`)."""


from app.core.domain.layout_edit import edit_kind, parse_layout_op
from app.core.domain.pending_kills import CLOSE_GRACE_MS, PendingKills
from app.core.domain.sessions import SessionFate, SessionRecord, fate_after_edit

SESSIONS = {
    "sh": SessionRecord("sh", "shell", "bash 1"),
    "ag": SessionRecord("ag", "agent", "Dev", agent_id="a1"),
    "dead": SessionRecord("dead", "shell", "bash 2", alive=False, exit_code=0),
}
ALL = {"sh", "ag", "dead"}


def test_closing_a_cell_dooms_its_shell_and_detaches_an_agent() -> None:
    assert fate_after_edit("close", ALL, set(), SESSIONS) == SessionFate(
        doom=frozenset({"sh"}), detach=frozenset({"ag"}))


def test_a_confirmed_kill_kills_the_shell_at_once() -> None:
    assert fate_after_edit("close_kill", ALL, set(), SESSIONS) == SessionFate(
        kill=frozenset({"sh"}), detach=frozenset({"ag"}))


def test_other_edits_only_detach_and_ended_or_unknown_sessions_are_left_alone() -> None:
    for kind in ("other", "undo", "redo"):
        fate = fate_after_edit(kind, ALL | {"stranger"}, set(), SESSIONS)  # type: ignore[arg-type]
        assert fate == SessionFate(detach=frozenset({"sh", "ag"})), kind
    assert fate_after_edit("close", ALL, {"sh", "ag"}, SESSIONS) == SessionFate()


def test_a_redo_closes_again_a_shell_an_undo_brought_back() -> None:
    assert fate_after_edit("redo", {"sh"}, set(), SESSIONS, frozenset({"sh"})) == SessionFate(
        doom=frozenset({"sh"}))
    assert fate_after_edit("other", {"sh"}, set(), SESSIONS, frozenset({"sh"})) == SessionFate(
        detach=frozenset({"sh"}))


def test_edit_kinds_of_ops() -> None:
    kinds = [edit_kind(parse_layout_op(op)) for op in (
        {"kind": "close", "nodeId": "n"}, {"kind": "close", "nodeId": "n", "kill": True},
        {"kind": "undo"}, {"kind": "redo"}, {"kind": "assign", "nodeId": "n"})]
    assert kinds == ["close", "close_kill", "undo", "redo", "other"]


def test_a_pending_kill_is_due_after_the_grace_not_before() -> None:
    pending = PendingKills().schedule({"sh"}, now_ms=1_000, grace_ms=30_000)
    assert pending.due == {"sh": 31_000}
    assert pending.due_at(30_999) == frozenset()
    assert pending.due_at(31_000) == frozenset({"sh"})
    assert pending.without({"sh"}) == PendingKills()


def test_scheduling_again_keeps_the_earlier_time() -> None:
    pending = PendingKills().schedule({"a"}, 0, 100).schedule({"a", "b"}, 50, 100)
    assert dict(pending.due) == {"a": 100, "b": 150}


def test_an_undo_that_shows_the_shell_again_cancels_its_kill_and_revives_it() -> None:
    pending = PendingKills().schedule({"sh", "other"}, 0, CLOSE_GRACE_MS)
    after, cancelled = pending.after_edit("undo", shown={"sh", "ag"}, hidden=set())
    assert cancelled == frozenset({"sh"})
    assert dict(after.due) == {"other": CLOSE_GRACE_MS} and after.revived == frozenset({"sh"})
    assert after.due_at(CLOSE_GRACE_MS) == frozenset({"other"})


def test_any_edit_showing_it_cancels_but_only_an_undo_revives() -> None:
    pending = PendingKills().schedule({"sh"}, 0, 10)
    after, cancelled = pending.after_edit("other", shown={"sh"}, hidden=set())
    assert cancelled == frozenset({"sh"}) and after == PendingKills()


def test_hiding_a_revived_shell_ends_its_revival_and_doom_moves_it_back_to_pending() -> None:
    revived, _ = PendingKills().schedule({"sh"}, 0, 10).after_edit("undo", {"sh"}, set())
    detached, cancelled = revived.after_edit("other", shown=set(), hidden={"sh"})
    assert cancelled == frozenset() and detached == PendingKills()
    again = revived.schedule({"sh"}, 20, 10)
    assert dict(again.due) == {"sh": 30} and again.revived == frozenset()


def test_an_edit_that_shows_nothing_pending_changes_nothing() -> None:
    pending = PendingKills().schedule({"sh"}, 0, 10)
    after, cancelled = pending.after_edit("other", shown={"ag"}, hidden={"ag2"})
    assert after == pending and cancelled == frozenset()

