"""`PtyHostBase` (app/adapters/pty/base.py) over an in-memory fake PTY: the parts both the POSIX
and the Windows adapters share (sessions, emit + UTF-16 offsets, flow control, ordered writer,
kill sequencing, exit reporting). Runs on every platform; no process, no PTY."""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from app.adapters.pty import default_host_class
from app.adapters.pty.base import POLL_S, PtyHostBase, SessionBase
from app.core.domain.sessions import SpawnSpec, TerminalChunk
from app.core.errors import ALREADY_EXISTS, COMMAND_NOT_FOUND, INVALID, NOT_FOUND, AppError
from app.core.ports import TerminalListener
from tests.pty_recorder import Recorder, wait_until

pytestmark = pytest.mark.timeout(60)


class FakeSession(SessionBase):
    """A fake child: `out` is its output pipe (bounded, so a paused reader blocks the
    producer), `None` in it is EOF. In `cat` mode it echoes its input."""

    def __init__(self, sid: str, cat: bool, host: FakeHost) -> None:
        super().__init__(sid, host.high, host.low, host.gap_ms)
        self.out: queue.Queue[str | None] = queue.Queue(maxsize=4)
        self.cat = cat
        self.inputs: list[str] = []
        self.alive = True
        self.code = 0
        self.hangups = 0
        self.force_kills = 0
        self.ignore_hangup = False
        self.released = False
        self.sizes: list[tuple[int, int]] = []

    def end(self, code: int) -> None:
        if self.alive:
            self.alive = False
            self.code = code
            threading.Thread(target=self.out.put, args=(None,), daemon=True).start()


class FakeHost(PtyHostBase[FakeSession]):
    high = 1_000
    low = 500
    gap_ms = 300

    def __init__(self, listener: TerminalListener | None = None, *,
                 kill_grace_ms: int = 3_000) -> None:
        super().__init__(listener, high_water=self.high, low_water=self.low,
                         gap_timeout_ms=self.gap_ms, kill_grace_ms=kill_grace_ms)
        self.opened: dict[str, FakeSession] = {}
        self.envs: dict[str, dict[str, str]] = {}

    def _open(self, spec: SpawnSpec, session_id: str, env: dict[str, str]) -> FakeSession:
        if spec.command == "missing":
            raise AppError(COMMAND_NOT_FOUND, f"command not found: {spec.command}")
        s = FakeSession(session_id, spec.command == "cat", self)
        self.opened[session_id] = s
        self.envs[session_id] = env
        return s

    def _pump_output(self, s: FakeSession) -> None:
        while True:
            while not s.gate.wait_open(POLL_S):
                pass
            chunk = s.out.get()
            if chunk is None:
                return
            self._emit(s, chunk)

    def _send_input(self, s: FakeSession, data: str) -> bool:
        with s.io_lock:
            if s.io_closed:
                return False
            s.inputs.append(data)
        if s.cat:
            s.out.put(data)
        return True

    def _set_size(self, s: FakeSession, cols: int, rows: int) -> None:
        s.sizes.append((cols, rows))

    def _hangup(self, s: FakeSession) -> None:
        s.hangups += 1
        if not s.ignore_hangup:
            s.end(129)

    def _force_kill(self, s: FakeSession) -> None:
        s.force_kills += 1
        s.end(137)

    def _child_exited(self, s: FakeSession) -> bool:
        return not s.alive

    def _reap(self, s: FakeSession) -> int:
        return s.code

    def _release(self, s: FakeSession) -> None:
        s.released = True


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def host(rec: Recorder) -> Iterator[FakeHost]:
    h = FakeHost(rec, kill_grace_ms=200)
    yield h
    h.close_all(timeout_ms=500)


def spec(command: str = "cat", sid: str = "", cwd: str = "", cols: int = 80, rows: int = 24,
         env: dict[str, str] | None = None) -> SpawnSpec:
    import tempfile

    return SpawnSpec(command=command, args=[], cwd=cwd or tempfile.gettempdir(), env=env or {},
                     cols=cols, rows=rows, session_id=sid)


def test_echo_round_trip_and_chunk_offsets_in_utf16_units(host: FakeHost, rec: Recorder) -> None:
    sid = host.spawn(spec(sid="s1"))
    assert sid == "s1" and host.is_alive(sid)
    host.write(sid, 0, "héllo 😀\n")
    assert wait_until(lambda: rec.text(sid) == "héllo 😀\n")
    host.write(sid, 1, "ok")
    assert wait_until(lambda: rec.text(sid) == "héllo 😀\nok")
    first, second = rec.chunks[sid]
    units = len("héllo 😀\n") + 1  # the emoji is two UTF-16 code units
    assert (first.offset, first.end) == (0, units)
    assert second == TerminalChunk(sid, units, units + 2, "ok")


def test_spawn_generates_an_id_and_passes_the_child_env(host: FakeHost) -> None:
    sid = host.spawn(spec(env={"IDEA_X": "1"}))
    assert len(sid) == 36
    env = host.envs[sid]
    assert env["IDEA_X"] == "1" and env["TERM"] == "xterm-256color"
    assert env["COLORTERM"] == "truecolor"


def test_spawn_validation(host: FakeHost, tmp_path) -> None:
    with pytest.raises(AppError) as err:
        host.spawn(spec(cols=0))
    assert err.value.code == INVALID
    with pytest.raises(AppError) as err:
        host.spawn(spec(cwd=str(tmp_path / "nope")))
    assert err.value.code == NOT_FOUND
    with pytest.raises(AppError) as err:
        host.spawn(spec("missing"))
    assert err.value.code == COMMAND_NOT_FOUND
    assert host.session_ids() == []
    host.spawn(spec(sid="dup"))
    with pytest.raises(AppError) as err:
        host.spawn(spec(sid="dup"))
    assert err.value.code == ALREADY_EXISTS


def test_out_of_order_writes_are_applied_in_seq_order(host: FakeHost, rec: Recorder) -> None:
    sid = host.spawn(spec())
    barrier = threading.Barrier(5)

    def send(seq: int, data: str) -> None:
        barrier.wait()
        host.write(sid, seq, data)

    threads = [threading.Thread(target=send, args=c)
               for c in [(3, "d"), (1, "b"), (4, "e"), (0, "a"), (2, "c")]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wait_until(lambda: rec.text(sid) == "abcde"), rec.text(sid)
    host.write(sid, 6, "g")
    host.write(sid, 5, "f")
    assert wait_until(lambda: rec.text(sid) == "abcdefg"), rec.text(sid)


def test_seq_gap_is_skipped_eventually(host: FakeHost, rec: Recorder) -> None:
    sid = host.spawn(spec())
    host.write(sid, 1, "after-gap")
    assert wait_until(lambda: rec.text(sid) == "after-gap")


def test_flow_control_stalls_then_resumes_after_ack(host: FakeHost, rec: Recorder) -> None:
    sid = host.spawn(spec("flood"))
    s = host.opened[sid]
    stop = threading.Event()

    def produce() -> None:
        while not stop.is_set():
            try:
                s.out.put("y" * 100, timeout=0.1)
            except queue.Full:
                continue

    producer = threading.Thread(target=produce, daemon=True)
    producer.start()
    try:
        assert wait_until(lambda: rec.count(sid) > host.high)
        time.sleep(0.3)
        stalled = rec.count(sid)
        assert host.high < stalled <= host.high + 100  # one read past the high-water mark
        time.sleep(0.3)
        assert rec.count(sid) == stalled  # the reader stays paused, the producer blocks
        host.ack(sid, stalled - host.low - 1)  # still above low water: stays paused
        time.sleep(0.3)
        assert rec.count(sid) == stalled
        host.ack(sid, 2)  # below low water: resumes
        assert wait_until(lambda: rec.count(sid) > stalled)
        host.set_flow_control(sid, False)  # nobody watches: never stalls
        now = rec.count(sid)
        assert wait_until(lambda: rec.count(sid) > now + 10 * host.high)
    finally:
        stop.set()
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)


def test_kill_hangs_up_and_bypasses_flow_control(host: FakeHost, rec: Recorder) -> None:
    sid = host.spawn(spec("flood"))
    s = host.opened[sid]
    for _ in range(3):
        s.out.put("z" * 600)  # above high water: the reader pauses
    assert wait_until(lambda: rec.count(sid) >= 1200)
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)
    assert rec.exits[sid] == 129 and host.exit_code(sid) == 129
    assert rec.count(sid) == 1800  # drained to EOF without any ack
    assert s.hangups == 1 and s.force_kills == 0 and s.released
    assert not host.is_alive(sid)
    assert not rec.after_exit_output and rec.exit_calls == 1
    host.kill(sid)  # no-op once ended
    assert s.hangups == 1


def test_kill_escalates_after_the_grace_period(host: FakeHost, rec: Recorder) -> None:
    sid = host.spawn(spec())
    s = host.opened[sid]
    s.ignore_hangup = True
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)
    assert rec.exits[sid] == 137 and s.force_kills == 1


def test_exit_is_reported_once_and_input_after_it_is_dropped(host: FakeHost, rec: Recorder) -> None:
    sid = host.spawn(spec())
    s = host.opened[sid]
    host.write(sid, 0, "bye")
    assert wait_until(lambda: rec.text(sid) == "bye")
    s.end(7)
    assert wait_until(lambda: sid in rec.exits)
    assert rec.exits[sid] == 7 and host.exit_code(sid) == 7 and rec.exit_calls == 1
    host.write(sid, 1, "ignored")
    host.resize(sid, 100, 30)  # no-op on an ended session
    time.sleep(0.1)
    assert s.inputs == ["bye"] and s.sizes == []
    assert rec.text(sid) == "bye"
    host.forget(sid)
    assert sid not in host.session_ids()
    host.forget(sid)  # unknown ids are ignored


def test_resize_forget_and_unknown_sessions(host: FakeHost) -> None:
    sid = host.spawn(spec())
    host.resize(sid, 100, 30)
    assert host.opened[sid].sizes == [(100, 30)]
    with pytest.raises(AppError) as err:
        host.resize(sid, 0, 30)
    assert err.value.code == INVALID
    with pytest.raises(AppError) as err:
        host.forget(sid)  # still running
    assert err.value.code == INVALID
    for call in (lambda: host.write("nope", 0, "x"), lambda: host.exit_code("nope"),
                 lambda: host.set_flow_control("nope", True), lambda: host.kill("nope")):
        with pytest.raises(AppError) as err:
            call()
        assert err.value.code == NOT_FOUND
    assert not host.is_alive("nope")
    host.ack("nope", 10)  # ignored


class FailingListener:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def output(self, chunk: TerminalChunk) -> None:
        self.calls.append(chunk.text)
        raise RuntimeError("boom")

    def exited(self, session_id: str, exit_code: int | None) -> None:
        raise RuntimeError("boom")


def test_a_failing_listener_does_not_stop_the_reader(rec: Recorder) -> None:
    bad = FailingListener()
    host = FakeHost(bad)
    try:
        sid = host.spawn(spec())
        host.write(sid, 0, "a")
        host.write(sid, 1, "b")
        assert wait_until(lambda: "".join(bad.calls) == "ab")
        host.set_listener(rec)  # late wiring replaces the listener
        host.write(sid, 2, "c")
        assert wait_until(lambda: rec.text(sid) == "c")
        assert rec.chunks[sid][0].offset == 2  # offsets count every chunk, delivered or not
    finally:
        host.close_all(timeout_ms=500)


def test_close_all_ends_every_session(host: FakeHost, rec: Recorder) -> None:
    ids = [host.spawn(spec()) for _ in range(3)]
    host.opened[ids[1]].ignore_hangup = True
    host.close_all(timeout_ms=200)
    assert all(i in rec.exits for i in ids)
    assert rec.exits[ids[1]] == 137


def test_default_host_class_picks_the_platform_adapter() -> None:
    from app.adapters.pty.windows import WinPtyHost

    assert default_host_class("win32") is WinPtyHost
    if sys.platform != "win32":
        from app.adapters.pty.posix import PtyProcessHost

        assert default_host_class("linux") is PtyProcessHost
        assert default_host_class() is PtyProcessHost
