"""Flow control across views: on while someone watches, the slowest view sets the pace."""

from tests.unit.services.world import ROOT, world


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
    from app.core.domain.flow_window import FlowTuning
    from app.services.terminal_bus import TerminalOutputBus
    from app.services.terminal_views import TerminalViews
    from tests.unit.fakes import FakeTerminalHost

    host, bus, now = FakeTerminalHost(), TerminalOutputBus(), [0.0]
    host.set_listener(bus)
    views = TerminalViews(host, bus, tuning=FlowTuning(min_chars=1000, start_chars=1000,
                                                     max_chars=10_000_000),
                          clock=lambda: now[0])
    host.alive.add("s1")
    host.known.add("s1")
    views.attach("s1", "w1", lambda c: None)
    for _ in range(20):  # 40 000 chars per second, acked 50 ms after they were read
        host.emit("s1", "x" * 2000)
        now[0] += 0.05
        views.ack("s1", "w1", 2000)
    assert host.windows, "no retune"
    sid, high, low = host.windows[-1]
    assert sid == "s1" and low == high // 2
    assert 3_000 <= high <= 6_000  # about 2 × 40 000 chars/s × 0.05 s
    assert views.window_of("s1") == (high, low)
    views.detach("s1", "w1")
    assert views.window_of("s1") is None


def test_keystrokes_to_a_shown_session_boost_its_window() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    sid = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24).session_id
    w.s.terminals.write(sid, 0, "\x03")  # shown nowhere: no flow control, nothing to boost
    assert w.host.windows == []
    w.s.terminals.attach(sid, "w1", lambda c: None)
    w.s.terminals.write(sid, 1, "\x03")
    assert w.host.windows == []  # the starting window (512 000) is above the boost already
