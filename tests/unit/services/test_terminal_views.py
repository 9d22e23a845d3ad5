"""Flow control across views: on while someone watches, the slowest view sets the pace."""

from app.core.domain.flow_window import FlowTuning
from app.services.terminal_bus import TerminalOutputBus
from app.services.terminal_views import TerminalViews
from tests.unit.fakes import FakeTerminalHost
from tests.unit.services.world import ROOT, world


def flow_views(*sessions: str, **tuning: float) -> tuple[FakeTerminalHost, TerminalViews, list[float]]:
    """(host, views, clock) with `sessions` alive and shown in view `w1`; a small starting
    window so that a few acks retune it."""
    host, bus, now = FakeTerminalHost(), TerminalOutputBus(), [0.0]
    host.set_listener(bus)
    views = TerminalViews(host, bus, tuning=FlowTuning(min_chars=1000, start_chars=1000,
                                                     max_chars=10_000_000, **tuning),
                          clock=lambda: now[0])
    for sid in sessions:
        host.alive.add(sid)
        host.known.add(sid)
        views.attach(sid, "w1", lambda c: None)
    return host, views, now


def test_flow_control_follows_the_views_and_the_slowest_one_acks() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    sid = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    w.host.emit(sid, "x" * 10)
    w.s.terminals.attach(sid, "w1", lambda c: None)
    assert w.host.flow[sid] is True
    w.host.emit(sid, "y" * 100)
    w.s.terminals.attach(sid, "w2", lambda c: None)
    w.s.terminals.ack(sid, "w2", 0)
    w.s.terminals.ack(sid, "w1", 60)
    assert w.host.acks == [(sid, 60)]
    w.host.emit(sid, "z" * 50)
    w.s.terminals.ack(sid, "w1", 90)
    assert w.host.acks == [(sid, 60), (sid, 40)]  # up to where w2 attached: it lacks 50
    w.s.terminals.ack(sid, "w2", 50)
    assert w.host.acks == [(sid, 60), (sid, 40), (sid, 50)]
    w.s.terminals.detach(sid, "w2")
    w.s.terminals.detach(sid, "w1")
    assert w.host.flow[sid] is False


def test_a_window_that_goes_away_detaches_all_its_views() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    sid = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    got: list[str] = []
    w.s.terminals.attach(sid, "w1", lambda c: got.append(c.text))
    w.s.terminals.detach_view("w1")
    w.host.emit(sid, "unseen")
    assert got == [] and w.host.flow[sid] is False


def test_the_window_of_a_shown_session_follows_its_acks() -> None:
    host, views, now = flow_views("s1")
    for _ in range(20):  # 40 000 chars per second, acked 50 ms after they were read
        host.emit("s1", "x" * 2000)
        now[0] += 0.05
        views.ack("s1", "w1", 2000)
    assert host.windows, "no retune"
    sid, high, low = host.windows[-1]
    assert sid == "s1" and low == high // 2
    assert 6_000 <= high <= 12_000  # alone: about 4 × 40 000 chars/s × 0.05 s
    assert views.window_of("s1") == (high, low)
    views.detach("s1", "w1")
    assert views.window_of("s1") is None


def test_sessions_flooding_together_hold_smaller_windows() -> None:
    host, views, now = flow_views("s1", "s2")
    for _ in range(20):  # both: 40 000 chars per second, acked 50 ms after they were read
        for sid in ("s1", "s2"):
            host.emit(sid, "x" * 2000)
        now[0] += 0.05
        for sid in ("s1", "s2"):
            views.ack(sid, "w1", 2000)
    for sid in ("s1", "s2"):
        window = views.window_of(sid)
        assert window is not None and 3_000 <= window[0] <= 6_000  # 2 × 40 000 × 0.05


def test_keystrokes_to_a_shown_session_boost_its_window() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    sid = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    w.s.terminals.write(sid, 0, "\x03")  # shown nowhere: no flow control, nothing to boost
    assert w.host.windows == []
    w.s.terminals.attach(sid, "w1", lambda c: None)
    w.s.terminals.write(sid, 1, "\x03")
    assert w.host.windows == []  # the starting window (512 000) is above the boost already


def test_typing_in_another_session_shrinks_a_lone_flood_to_the_crowded_gain() -> None:
    host, views, now = flow_views("flood", "quiet", boost_chars=1000)

    def flood(steps: int, typing: bool) -> int:
        for _ in range(steps):  # 40 000 chars per second, acked 50 ms after they were read
            host.emit("flood", "x" * 2000)
            now[0] += 0.05
            if typing:
                views.typed("quiet")  # a keystroke in the quiet cell (its echo is never acked)
            views.ack("flood", "w1", 2000)
        window = views.window_of("flood")
        assert window is not None
        return window[0]

    assert 6_000 <= flood(20, typing=False) <= 12_000  # alone: 4 × 40 000 × 0.05
    assert 3_000 <= flood(20, typing=True) <= 6_000  # the user types elsewhere: 2 ×
    assert 6_000 <= flood(40, typing=False) <= 12_000  # a second after the last key: alone again


def test_one_of_many_floods_holds_at_most_a_short_drain_of_the_whole_page() -> None:
    # four floods of 40 000 chars/s each, every read acked a long round of the page (0.4 s)
    # later: two round trips of its own would be 32 000 chars; the page's 160 000 chars/s × 0.1 s
    # bound each to 16 000
    host, views, now = flow_views("s1", "s2", "s3", "s4", shared_drain_s=0.1, shared_queue_s=0.1)
    pending: list[tuple[float, str]] = []
    for _ in range(60):
        for sid in ("s1", "s2", "s3", "s4"):
            host.emit(sid, "x" * 2000)
            pending.append((now[0] + 0.4, sid))
        now[0] += 0.05
        while pending and pending[0][0] <= now[0] + 1e-9:
            views.ack(pending.pop(0)[1], "w1", 2000)
    for sid in ("s1", "s2", "s3", "s4"):
        window = views.window_of(sid)
        assert window is not None and 12_000 <= window[0] <= 19_000
