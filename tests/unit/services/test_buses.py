"""The two buses: domain events and terminal output (fan-out, snapshot, ordering, release)."""

from app.core.domain.sessions import TerminalChunk
from app.core.events import ProblemRaised, SessionExited
from app.services.event_bus import EventBus
from app.services.terminal_bus import Snapshot, TerminalOutputBus
from tests.unit.services.world import ROOT, world


def test_event_bus_keeps_order_survives_a_failing_handler_and_unsubscribes() -> None:
    bus = EventBus()
    seen: list[str] = []

    def bad(_: object) -> None:
        raise RuntimeError("boom")

    bus.subscribe(bad)
    off = bus.subscribe(lambda e: seen.append(e.message))  # type: ignore[union-attr]
    bus.publish(ProblemRaised("f", "one"))
    bus.publish(ProblemRaised("f", "two"))
    off()
    bus.publish(ProblemRaised("f", "three"))
    assert seen == ["one", "two"]


def test_output_bus_snapshot_then_exactly_the_later_chunks() -> None:
    bus = TerminalOutputBus(scrollback_chars=1000)
    got: list[TerminalChunk] = []
    bus.output(TerminalChunk("s", 0, 6, "hello "))
    snap = bus.attach("s", "w1", got.append)
    assert snap == Snapshot("hello ", 6, 6)
    bus.output(TerminalChunk("s", 6, 8, "😀"))
    assert got == [TerminalChunk("s", 6, 8, "😀")]
    bus.detach("s", "w1")
    bus.output(TerminalChunk("s", 8, 9, "!"))
    assert len(got) == 1 and bus.attach("s", "w2", got.append).scrollback == "hello 😀!"
    bus.forget("s")
    assert bus.session_ids() == []


def test_two_views_and_a_tap_get_every_chunk_and_a_failing_one_stops_nobody() -> None:
    bus = TerminalOutputBus()
    a: list[str] = []
    b: list[str] = []
    tapped: list[str] = []

    def broken(_: TerminalChunk) -> None:
        raise RuntimeError("boom")

    bus.attach("s", "w1", lambda c: a.append(c.text))
    bus.attach("s", "w0", broken)
    bus.attach("s", "w2", lambda c: b.append(c.text))
    bus.tap(lambda c: tapped.append(c.text))
    bus.output(TerminalChunk("s", 0, 1, "x"))
    assert a == b == tapped == ["x"]


def test_an_event_about_a_session_never_overtakes_its_output() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    opened = w.s.terminals.open_shell(ROOT, w.leaf(), 80, 24)
    sid = opened.session_id
    w.s.terminals.attach(sid, "w1", w.timeline.chunk)
    w.host.emit(sid, "last words\r\n")
    w.host.exit(sid, 0)
    chunk_at = next(i for i, x in enumerate(w.timeline.items) if isinstance(x, TerminalChunk))
    exit_at = next(i for i, x in enumerate(w.timeline.items) if isinstance(x, SessionExited))
    assert chunk_at < exit_at
