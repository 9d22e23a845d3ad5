"""Session ownership and lifecycle across the services: detach vs kill, exits, release."""

import pytest

from app.core.domain.layout_nodes import leaves
from app.core.domain.pending_kills import CLOSE_GRACE_MS
from app.core.errors import AppError
from app.core.events import (
    AgentStateChanged,
    KillPending,
    LayoutChanged,
    SessionExited,
    SessionReleased,
    SessionStarted,
)
from tests.unit.services.world import OTHER, ROOT, World, world


def _shell(w: World) -> str:
    w.s.projects.create(ROOT, "Demo")
    return w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id


def _agent(w: World) -> tuple[str, str]:
    agent = w.s.agents.create(ROOT, "Main", "# Main", "shell").entry.agent_id
    w.s.layouts.edit(ROOT, {"kind": "split", "nodeId": w.leaf(), "direction": "row"})
    layouts = w.s.projects.view(ROOT).layouts
    assert layouts is not None
    cell = layouts.active.root.children[1].node.id  # type: ignore[union-attr]
    return agent, w.s.agents.launch(ROOT, agent, cell, 80, 24).session_id


def test_detach_from_cell_keeps_a_plain_shell_running_and_listed() -> None:
    w = world()
    sid = _shell(w)
    w.s.layouts.edit(ROOT, {"kind": "assign", "nodeId": w.leaf()})
    assert w.host.is_alive(sid) and w.host.killed == []
    view = w.s.projects.view(ROOT)
    assert [s.session_id for s in view.sessions] == [sid] and view.sessions[0].alive
    w.s.layouts.edit(ROOT, {"kind": "assign", "nodeId": w.leaf(), "session": sid})
    assert w.s.terminals.attach(sid, "w1", lambda c: None).alive


def test_closing_a_cell_kills_its_shell_after_the_grace_but_detaches_an_agent() -> None:
    w = world({"bash": "/bin/bash"})
    shell = _shell(w)
    agent, agent_session = _agent(w)
    layouts = w.s.projects.view(ROOT).layouts
    assert layouts is not None
    shell_cell, agent_cell = (c.node.id for c in layouts.active.root.children)  # type: ignore[union-attr]
    w.s.layouts.edit(ROOT, {"kind": "close", "nodeId": agent_cell})
    assert w.host.is_alive(agent_session)
    w.s.layouts.edit(ROOT, {"kind": "close", "nodeId": shell_cell})
    assert w.host.killed == [] and w.timeline.of(KillPending) == [
        KillPending(ROOT, shell, CLOSE_GRACE_MS)]
    w.clock.advance(CLOSE_GRACE_MS / 1000 - 0.001)
    assert w.host.killed == [] and w.host.is_alive(shell)
    w.clock.advance(0.001)
    assert w.host.killed == [shell] and SessionReleased(ROOT, shell) in w.timeline.items
    assert [s.session_id for s in w.s.projects.view(ROOT).sessions] == [agent_session]
    assert w.s.projects.view(ROOT).agents[0].session is not None
    w.clock.advance(60)
    assert w.host.killed == [shell] and agent


def _close_the_shell_of_a_split(w: World) -> tuple[str, str]:
    """A shell in the left cell of a split (its output `marker-42`), then that cell closed:
    (session id, the closed cell's id)."""
    shell = _shell(w)
    w.host.emit(shell, "marker-42\r\n$ ")
    w.s.layouts.edit(ROOT, {"kind": "split", "nodeId": w.leaf(), "direction": "row"})
    layouts = w.s.projects.view(ROOT).layouts
    assert layouts is not None
    cell = layouts.active.root.children[0].node.id  # type: ignore[union-attr]
    w.s.layouts.edit(ROOT, {"kind": "close", "nodeId": cell})
    return shell, cell


def _shown(w: World) -> list[str | None]:
    layouts = w.s.projects.view(ROOT).layouts
    assert layouts is not None
    return [lf.session for lf in leaves(layouts.active.root)]


def test_undo_within_the_grace_brings_back_the_same_shell_alive_with_its_output() -> None:
    w = world()
    shell, cell = _close_the_shell_of_a_split(w)
    w.clock.advance(CLOSE_GRACE_MS / 1000 - 1)
    w.s.layouts.edit(ROOT, {"kind": "undo"})
    assert _shown(w) == [shell, None] and w.s.projects.view(ROOT).layouts.active.root \
        .children[0].node.id == cell  # type: ignore[union-attr]
    w.clock.advance(120)
    assert w.host.killed == [] and w.host.is_alive(shell)
    attached = w.s.terminals.attach(shell, "w1", lambda c: None)
    assert attached.alive and "marker-42" in attached.scrollback


def test_after_the_grace_undo_brings_back_an_empty_cell() -> None:
    w = world()
    shell, _ = _close_the_shell_of_a_split(w)
    w.clock.advance(CLOSE_GRACE_MS / 1000)
    assert w.host.killed == [shell] and w.s.projects.view(ROOT).sessions == ()
    w.s.layouts.edit(ROOT, {"kind": "undo"})
    assert _shown(w) == [None, None]


def test_showing_the_closed_shell_in_a_cell_also_spares_it() -> None:
    w = world()
    shell, _ = _close_the_shell_of_a_split(w)
    w.s.layouts.edit(ROOT, {"kind": "assign", "nodeId": w.leaf(), "session": shell})
    w.clock.advance(CLOSE_GRACE_MS / 1000 * 2)
    assert w.host.killed == [] and _shown(w) == [shell]


def test_a_redo_closes_it_again_and_a_confirmed_kill_is_at_once() -> None:
    w = world()
    shell, _ = _close_the_shell_of_a_split(w)
    w.s.layouts.edit(ROOT, {"kind": "undo"})
    w.clock.advance(CLOSE_GRACE_MS / 1000)
    w.s.layouts.edit(ROOT, {"kind": "redo"})
    assert len(w.timeline.of(KillPending)) == 2 and w.host.killed == []
    w.clock.advance(CLOSE_GRACE_MS / 1000)
    assert w.host.killed == [shell]

    other = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    w.s.layouts.edit(ROOT, {"kind": "close", "nodeId": w.leaf(), "kill": True})
    assert w.host.killed == [shell, other] and len(w.timeline.of(KillPending)) == 2


def test_detaching_a_shell_an_undo_brought_back_keeps_it_running() -> None:
    w = world()
    shell, _ = _close_the_shell_of_a_split(w)
    w.s.layouts.edit(ROOT, {"kind": "undo"})
    layouts = w.s.projects.view(ROOT).layouts
    assert layouts is not None
    cell = layouts.active.root.children[0].node.id  # type: ignore[union-attr]
    w.s.layouts.edit(ROOT, {"kind": "assign", "nodeId": cell})
    w.clock.advance(CLOSE_GRACE_MS / 1000 * 2)
    assert w.host.killed == [] and w.host.is_alive(shell)


def test_a_closed_shell_that_ends_in_its_grace_is_released_and_not_killed() -> None:
    w = world()
    shell, _ = _close_the_shell_of_a_split(w)
    w.host.exit(shell, 0)
    assert SessionReleased(ROOT, shell) in w.timeline.items
    w.clock.advance(CLOSE_GRACE_MS / 1000)
    assert w.host.killed == [] and not [t for t in w.clock.timers if not t.cancelled]


def test_quitting_kills_a_closed_shell_in_its_grace_and_never_records_it_to_reopen() -> None:
    w = world()
    kept = _shell(w)
    w.s.layouts.edit(ROOT, {"kind": "split", "nodeId": w.leaf(), "direction": "row"})
    layouts = w.s.projects.view(ROOT).layouts
    assert layouts is not None
    right = layouts.active.root.children[1].node.id  # type: ignore[union-attr]
    closed = w.s.terminals.open_shell(ROOT, right, 80, 24).session_id
    w.s.layouts.edit(ROOT, {"kind": "close", "nodeId": right})
    assert w.host.is_alive(closed)
    recorded = w.container.workspace.record_quit().restored_shells
    assert [s.session_id for s in recorded] == [kept]
    w.container.services.keeper.shutting_down()
    assert w.host.killed == [closed] and w.host.is_alive(kept)
    w.clock.advance(CLOSE_GRACE_MS / 1000)
    assert w.host.killed == [closed]


def test_an_ended_session_stays_while_shown_and_is_released_once_its_cell_is_cleared() -> None:
    w = world()
    sid = _shell(w)
    w.host.emit(sid, "bye\r\n")
    w.host.exit(sid, 3)
    assert SessionExited(ROOT, sid, 3) in w.timeline.items
    attached = w.s.terminals.attach(sid, "w1", lambda c: None)
    assert (attached.scrollback, attached.alive, attached.exit_code) == ("bye\r\n", False, 3)
    assert sid in w.host.session_ids()
    w.s.layouts.edit(ROOT, {"kind": "assign", "nodeId": w.leaf()})
    assert w.host.forgotten == [sid] and w.s.output.session_ids() == []
    assert w.s.projects.view(ROOT).sessions == ()
    assert w.timeline.items[-1] == SessionReleased(ROOT, sid)
    assert not w.s.terminals.attach(sid, "w1", lambda c: None).alive


def test_a_new_shell_in_the_cell_of_an_ended_one_releases_the_old_one() -> None:
    w = world()
    first = _shell(w)
    w.host.exit(first, 0)
    second = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    assert w.host.forgotten == [first] and w.host.session_ids() == [second]


def test_agent_exit_publishes_stopped_and_frees_the_agent() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    agent, sid = _agent(w)
    started = w.timeline.of(SessionStarted)[-1]
    assert started.session.kind == "agent" and started.session.agent_id == agent
    w.host.exit(sid, 0)
    stopped, changed = w.timeline.items[-2:]
    assert stopped == AgentStateChanged(ROOT, agent, "stopped")
    # its cell keeps the agent (for Relaunch) but no longer says it was running
    assert isinstance(changed, LayoutChanged)
    [cell] = [lf for lf in leaves(changed.layouts.active.root) if lf.session == sid]
    assert cell.agent == agent and not cell.agent_was_running
    saved = w.fs.files[f"{ROOT}/.ideai/layouts.json"]
    assert sid in saved and "agentWasRunning" not in saved
    assert w.s.projects.view(ROOT).agents[0].session is None


def test_a_cli_that_quits_before_its_launch_returns_is_stopped_with_its_output_kept() -> None:
    # Trial finding: `sh -c "echo about to die; exit 3"` as an agent's CLI. Its end came before
    # the launch owned the session: it was dropped, output and all, and the agent stayed
    # "starting", then idle, and an ask to it waited for good.
    w = world()
    w.s.projects.create(ROOT, "Demo")
    spawn = w.host.spawn

    def quits_at_once(spec):  # type: ignore[no-untyped-def]
        sid = spawn(spec)
        w.host.emit(sid, "about to die\r\n")
        w.host.exit(sid, 3)  # the reader thread, before `spawn` returned
        return sid

    w.host.spawn = quits_at_once  # type: ignore[method-assign]
    agent, sid = _agent(w)
    assert w.timeline.of(SessionExited)[-1] == SessionExited(ROOT, sid, 3)
    assert AgentStateChanged(ROOT, agent, "stopped") in w.timeline.items
    assert w.s.projects.view(ROOT).agents[0].session is None
    assert sid not in w.host.forgotten  # its cell shows what it printed
    assert "about to die" in w.s.output.attach(sid, "v1", lambda c: None).scrollback


def test_agents_killed_at_shutdown_stay_resumable() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    _, sid = _agent(w)
    w.container.services.keeper.shutting_down()
    w.host.exit(sid, None)
    assert "agentWasRunning" in w.fs.files[f"{ROOT}/.ideai/layouts.json"]


def test_closing_a_tab_ends_shells_keeps_agents_and_reopening_finds_them() -> None:
    w = world()
    shell = _shell(w)
    agent, agent_session = _agent(w)
    w.s.projects.close(ROOT)
    assert w.host.killed == [shell] and w.host.is_alive(agent_session)
    with pytest.raises(AppError) as err:
        w.s.layouts.edit(ROOT, {"kind": "undo"})
    assert err.value.code == "NOT_FOUND"
    again = w.s.projects.open(ROOT)
    assert again.agents[0].session is not None
    assert again.agents[0].session.session_id == agent_session
    w.s.projects.close(ROOT)
    w.host.exit(agent_session, 0)  # ends in the background: released, project forgotten
    assert agent_session in w.host.forgotten and w.s.open_projects.find(ROOT) is None
    assert agent


def test_projects_have_their_own_locks() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    w.s.projects.create(OTHER, "Other")
    one, two = w.s.open_projects.get(ROOT), w.s.open_projects.get(OTHER)
    assert one.lock is not two.lock
    with one.lock:  # another thread could work on OTHER meanwhile
        w.s.layouts.edit(OTHER, {"kind": "split", "nodeId": w.leaf(OTHER), "direction": "row"})
    assert isinstance(w.timeline.items[-1], LayoutChanged)


def test_opening_an_open_project_returns_the_same_state() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    sid = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    assert [s.session_id for s in w.s.projects.open(ROOT + "/").sessions] == [sid]


def test_resizing_an_ended_or_unknown_session_is_a_quiet_not_found() -> None:
    w = world()
    sid = _shell(w)
    w.s.terminals.resize(sid, 100, 30)
    w.host.exit(sid, 0)
    for session in (sid, "nope"):
        with pytest.raises(AppError) as err:
            w.s.terminals.resize(session, 100, 30)
        assert err.value.code == "NOT_FOUND"
    assert w.host.sizes == [(sid, 100, 30)]
