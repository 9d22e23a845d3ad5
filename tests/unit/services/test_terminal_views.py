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
