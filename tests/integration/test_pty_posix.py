"""Integration tests of `PtyProcessHost` on real PTYs (POSIX only).

Deadlines in the polling loops are generous; nothing asserts a duration.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator

import pytest

pytest.importorskip("ptyprocess", reason="POSIX PTY adapter (ptyprocess is POSIX-only)")

from app.adapters.pty.common import HIGH_WATER_CHARS, ReadCoalescing, build_child_env
from app.adapters.pty.posix import PtyProcessHost
from app.core.domain.sessions import SpawnSpec
from app.core.errors import COMMAND_NOT_FOUND, NOT_FOUND, AppError
from tests.pty_recorder import Recorder, wait_stable, wait_until

pytestmark = pytest.mark.timeout(120)

@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def host(rec: Recorder) -> Iterator[PtyProcessHost]:
    h = PtyProcessHost(rec, kill_grace_ms=500)
    yield h
    h.close_all(timeout_ms=1000)


def spec(command: str, *args: str, cwd: str = "/", sid: str = "", cols: int = 80,
         rows: int = 24, env: dict[str, str] | None = None) -> SpawnSpec:
    return SpawnSpec(command=command, args=list(args), cwd=cwd, env=env or {}, cols=cols,
                     rows=rows, session_id=sid)


def test_echo_round_trip(host: PtyProcessHost, rec: Recorder) -> None:
    sid = host.spawn(spec("cat", sid="echo-1"))
    assert sid == "echo-1"
    assert host.is_alive(sid)
    host.write(sid, 0, "hello pty\n")
    # once echoed by the line discipline, once printed by cat
    assert wait_until(lambda: rec.text(sid).count("hello pty") >= 2), rec.text(sid)
    assert "hello pty" in rec.text(sid)
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)
    assert not host.is_alive(sid)


def test_spawn_generates_session_id_and_uses_cwd(host: PtyProcessHost, rec: Recorder,
                                                 tmp_path) -> None:
    sid = host.spawn(spec("pwd", cwd=str(tmp_path)))
    assert sid
    assert wait_until(lambda: sid in rec.exits)
    assert str(tmp_path) in rec.text(sid)


def test_multibyte_split_across_reads_decodes_intact(host: PtyProcessHost, rec: Recorder) -> None:
    unit = "é€😀"
    child = (
        "import sys, time\n"
        f"data = ({unit!r} * 40).encode('utf-8')\n"
        "out = sys.stdout.buffer\n"
        "for i, b in enumerate(data):\n"
        "    out.write(bytes([b])); out.flush()\n"
        "    if i % 3 == 1: time.sleep(0.001)\n"
        "out.write(b'<END>'); out.flush()\n"
    )
    sid = host.spawn(spec(sys.executable, "-c", child))
    assert wait_until(lambda: sid in rec.exits)
    text = rec.text(sid)
    assert "<END>" in text
    assert "\ufffd" not in text
    assert unit * 40 in text
    # the bytes did arrive in several reads, so some split points fell mid-character
    assert len(rec.texts[sid]) > 1


def test_resize_changes_stty_size(host: PtyProcessHost, rec: Recorder) -> None:
    sid = host.spawn(spec("sh", "-c", "stty size; read x; stty size; read y", cols=80, rows=24))
    assert wait_until(lambda: "24 80" in rec.text(sid)), rec.text(sid)
    host.resize(sid, cols=100, rows=30)
    host.write(sid, 0, "\n")
    assert wait_until(lambda: "30 100" in rec.text(sid)), rec.text(sid)
    host.write(sid, 1, "\n")
    assert wait_until(lambda: sid in rec.exits)


def test_flood_without_ack_stalls_then_resumes_after_ack(host: PtyProcessHost,
                                                         rec: Recorder) -> None:
    sid = host.spawn(spec("yes"))
    assert wait_until(lambda: rec.count(sid) > HIGH_WATER_CHARS)
    stalled = wait_stable(lambda: rec.count(sid))
    # the reader stops above the high-water mark; one last read is at most 64 KiB
    assert HIGH_WATER_CHARS < stalled <= HIGH_WATER_CHARS + 65_536
    assert host.is_alive(sid)
    host.ack(sid, stalled)
    assert wait_until(lambda: rec.count(sid) > stalled)
    stalled_again = wait_stable(lambda: rec.count(sid))
    assert stalled_again <= stalled + HIGH_WATER_CHARS + 65_536
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)


def test_ctrl_c_stops_a_flood(host: PtyProcessHost, rec: Recorder) -> None:
    rec.auto_ack = host  # the "view" consumes everything as fast as it arrives
    sid = host.spawn(spec("yes"))
    assert wait_until(lambda: rec.count(sid) > 500_000)
    host.write(sid, 0, "\x03")
    assert wait_until(lambda: sid in rec.exits)
    assert rec.exits[sid] == 128 + 2  # SIGINT
    assert host.exit_code(sid) == 130


def test_ctrl_c_stops_a_flood_while_reader_is_paused(host: PtyProcessHost,
                                                     rec: Recorder) -> None:
    sid = host.spawn(spec("yes"))
    assert wait_until(lambda: rec.count(sid) > 100_000)
    host.write(sid, 0, "\x03")
    assert wait_until(lambda: sid in rec.exits)
    assert rec.exits[sid] == 130


def test_out_of_order_writes_are_applied_in_seq_order(host: PtyProcessHost,
                                                      rec: Recorder) -> None:
    sid = host.spawn(spec("cat"))
    barrier = threading.Barrier(5)

    def send(seq: int, data: str) -> None:
        barrier.wait()
        host.write(sid, seq, data)

    chunks = [(3, "d"), (1, "b"), (4, "e\n"), (0, "a"), (2, "c")]
    threads = [threading.Thread(target=send, args=c) for c in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wait_until(lambda: rec.text(sid).count("abcde") >= 2), rec.text(sid)
    # later writes continue the sequence; a held seq waits for the gap to fill
    host.write(sid, 6, "g\n")
    host.write(sid, 5, "f")
    assert wait_until(lambda: rec.text(sid).count("fg") >= 2), rec.text(sid)


def test_seq_gap_is_skipped_eventually(host: PtyProcessHost, rec: Recorder) -> None:
    sid = host.spawn(spec("cat"))
    host.write(sid, 1, "after-gap\n")  # seq 0 never comes
    assert wait_until(lambda: rec.text(sid).count("after-gap") >= 2), rec.text(sid)


def test_missing_command_raises_command_not_found(host: PtyProcessHost) -> None:
    with pytest.raises(AppError) as err:
        host.spawn(spec("idea-no-such-command-xyz"))
    assert err.value.code == COMMAND_NOT_FOUND
    assert err.value.message == "command not found: idea-no-such-command-xyz"


def test_missing_cwd_raises_not_found(host: PtyProcessHost, tmp_path) -> None:
    with pytest.raises(AppError) as err:
        host.spawn(spec("cat", cwd=str(tmp_path / "nope")))
    assert err.value.code == NOT_FOUND


def test_unknown_session_raises_not_found(host: PtyProcessHost) -> None:
    with pytest.raises(AppError) as err:
        host.write("nope", 0, "x")
    assert err.value.code == NOT_FOUND
    assert not host.is_alive("nope")
    host.ack("nope", 10)  # ignored


def test_exit_code_is_reported(host: PtyProcessHost, rec: Recorder) -> None:
    sid = host.spawn(spec("sh", "-c", "echo bye; exit 7"))
    assert wait_until(lambda: sid in rec.exits)
    assert rec.exits[sid] == 7
    assert rec.exit_calls == 1
    assert host.exit_code(sid) == 7
    assert not host.is_alive(sid)
    assert "bye" in rec.text(sid)
    host.write(sid, 0, "ignored\n")  # input to an ended session is dropped
    host.forget(sid)
    assert sid not in host.session_ids()


def test_kill_escalates_to_sigkill(host: PtyProcessHost, rec: Recorder) -> None:
    sid = host.spawn(spec("sh", "-c", "trap '' HUP; echo ready; while :; do sleep 1; done"))
    assert wait_until(lambda: "ready" in rec.text(sid))
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)
    assert rec.exits[sid] == 128 + 9


def test_close_all_ends_every_session(host: PtyProcessHost, rec: Recorder) -> None:
    ids = [host.spawn(spec("cat")) for _ in range(3)]
    host.close_all(timeout_ms=1000)
    assert all(i in rec.exits for i in ids)


def test_ld_library_path_orig_is_restored_in_child(host: PtyProcessHost, rec: Recorder,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LD_LIBRARY_PATH", "/bundle/_internal")
    monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", "/usr/local/userlib")
    sid = host.spawn(spec(
        "sh", "-c",
        'echo "L=[$LD_LIBRARY_PATH] O=[${LD_LIBRARY_PATH_ORIG-unset}] T=[$TERM] C=[$COLORTERM]'
        ' X=[$IDEA_X]"',
        env={"IDEA_X": "42"},
    ))
    assert wait_until(lambda: sid in rec.exits)
    text = rec.text(sid)
    assert "L=[/usr/local/userlib]" in text
    assert "O=[unset]" in text
    assert "T=[xterm-256color]" in text
    assert "C=[truecolor]" in text
    assert "X=[42]" in text


def test_build_child_env_drops_bundle_path_when_frozen_without_orig() -> None:
    env = build_child_env({"LD_LIBRARY_PATH": "/bundle", "PATH": "/bin"}, {"A": "1"}, frozen=True)
    assert "LD_LIBRARY_PATH" not in env
    assert env["A"] == "1" and env["PATH"] == "/bin"
    env = build_child_env({"LD_LIBRARY_PATH": "/user"}, {}, frozen=False)
    assert env["LD_LIBRARY_PATH"] == "/user"
    env = build_child_env({"LD_LIBRARY_PATH": "/bundle", "LD_LIBRARY_PATH_ORIG": ""}, {},
                          frozen=True)
    assert "LD_LIBRARY_PATH" not in env and "LD_LIBRARY_PATH_ORIG" not in env


def test_a_child_starts_with_every_signal_at_its_default(host: PtyProcessHost,
                                                         rec: Recorder) -> None:
    """Python ignores SIGPIPE and SIGXFSZ, `nohup` ignores SIGHUP; none of it reaches the
    terminal's program (else `yes | head -1` says "Broken pipe")."""
    import signal

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # IdeA started under nohup
    try:
        sid = host.spawn(spec("sh", "-c", "grep -E '^Sig(Ign|Blk)' /proc/self/status; "
                                          "yes | head -1; echo done-$((40+2))"))
    finally:
        signal.signal(signal.SIGHUP, previous)
    assert wait_until(lambda: "done-42" in rec.text(sid)), rec.text(sid)
    text = rec.text(sid)
    assert "SigIgn:\t0000000000000000" in text, text
    assert "SigBlk:\t0000000000000000" in text, text
    assert "Broken pipe" not in text, text


def test_kill_ends_a_job_under_a_shell_started_with_sighup_ignored(host: PtyProcessHost,
                                                                  rec: Recorder) -> None:
    """A foreground job of an interactive bash dies with its session, even when IdeA itself
    ignores SIGHUP (a desktop launcher, `nohup`)."""
    import os
    import signal
    import subprocess

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        sid = host.spawn(spec("bash", "--norc", "--noprofile", "-i",
                              env={"PS1": "$ ", "PATH": os.environ["PATH"]}))
    finally:
        signal.signal(signal.SIGHUP, previous)
    host.write(sid, 0, "sleep 271\n")

    def sleeper() -> str:
        found = subprocess.run(["pgrep", "-f", "^sleep 271$"], capture_output=True, text=True)
        return found.stdout.strip()

    assert wait_until(sleeper), rec.text(sid)
    pid = int(sleeper().split()[0])
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)
    assert wait_until(lambda: not os.path.exists(f"/proc/{pid}")), f"sleep {pid} survived"


# -- a burst's reads are gathered, an echo's are not (ADR 023) ---------------------------------

@contextlib.contextmanager
def gathering_host(rec: Recorder, **sizes: int) -> Iterator[PtyProcessHost]:
    """A host whose gap is far longer than the kernel takes to refill its 4 KiB read buffer
    during a burst, and far shorter than the children's pauses: what is gathered does not
    depend on the machine's load. `sizes`: `max_bytes`, `high_water`, `low_water`."""
    max_bytes = sizes.pop("max_bytes", 65_536)
    host = PtyProcessHost(rec, kill_grace_ms=500, **sizes,
                          coalescing=ReadCoalescing(from_bytes=512, gap_s=0.4, max_s=5.0,
                                                    max_bytes=max_bytes, after_input_s=5.0))
    try:
        yield host
    finally:
        host.close_all(timeout_ms=1000)


def test_a_burst_is_handed_on_in_one_chunk_not_in_4_kib_reads(rec: Recorder) -> None:
    child = ("import sys, time\n"
             "sys.stdout.write('x' * 40_000); sys.stdout.flush()\n"
             "time.sleep(1.5)\n"
             "sys.stdout.write('<END>'); sys.stdout.flush()\n")
    with gathering_host(rec) as host:
        sid = host.spawn(spec(sys.executable, "-c", child))
        assert wait_until(lambda: sid in rec.exits)
    # a PTY master hands out at most 4 095 bytes per read: ten or more reads, one chunk
    assert rec.texts[sid] == ["x" * 40_000, "<END>"]


def test_small_reads_are_handed_on_as_they_come(rec: Recorder) -> None:
    # each piece is below from_bytes and follows the previous one within gap_s: gathered, they
    # would have come as one chunk
    child = ("import sys, time\n"
             "for piece in ('a', 'bb', 'ccc'):\n"
             "    sys.stdout.write(piece); sys.stdout.flush(); time.sleep(0.2)\n")
    with gathering_host(rec) as host:
        sid = host.spawn(spec(sys.executable, "-c", child))
        assert wait_until(lambda: sid in rec.exits)
    assert rec.texts[sid] == ["a", "bb", "ccc"]


def test_output_right_after_input_is_not_gathered(rec: Recorder) -> None:
    # a TUI redrawing after a key: ~8 KiB, then a last piece within gap_s. Gathered, both would
    # come as one chunk; right after input, someone waits for the first piece
    child = ("import sys, time\n"
             "sys.stdin.readline()\n"
             "sys.stdout.write('r' * 8_000); sys.stdout.flush(); time.sleep(0.2)\n"
             "sys.stdout.write('<TAIL>'); sys.stdout.flush()\n")
    with gathering_host(rec) as host:
        sid = host.spawn(spec(sys.executable, "-c", child))
        host.write(sid, 0, "go\n")
        assert wait_until(lambda: sid in rec.exits)
    texts = rec.texts[sid]
    assert "".join(texts).endswith("r" * 8_000 + "<TAIL>")
    assert not any("r" in t and "<TAIL>" in t for t in texts), texts
    assert sum(1 for t in texts if "r" in t) >= 2  # n_tty's ≤ 4 095-byte reads, as they came


def test_a_gathered_chunk_stops_at_max_bytes(rec: Recorder) -> None:
    with gathering_host(rec, max_bytes=10_000) as host:
        sid = host.spawn(spec(sys.executable, "-c",
                              "import sys; sys.stdout.write('y' * 25_000); sys.stdout.flush()"))
        assert wait_until(lambda: sid in rec.exits)
    assert rec.text(sid) == "y" * 25_000
    assert max(len(t) for t in rec.texts[sid]) <= 10_000
    assert len(rec.texts[sid]) >= 3


def test_a_gathered_chunk_stops_at_the_flow_window(rec: Recorder) -> None:
    with gathering_host(rec, high_water=10_000, low_water=5_000) as host:
        sid = host.spawn(spec(sys.executable, "-c",
                              "import sys; sys.stdout.write('z' * 40_000); sys.stdout.flush()"))
        stalled = wait_stable(lambda: rec.count(sid))
        # nothing acknowledged: gathering fills the window, then one last plain read (< 4 KiB)
        assert 10_000 <= stalled <= 10_000 + 4_095
        assert max(len(t) for t in rec.texts[sid]) <= 10_000
        host.ack(sid, stalled)
        assert wait_until(lambda: rec.count(sid) > stalled)


@pytest.mark.parametrize("fields", [dict(from_bytes=0), dict(gap_s=0.0), dict(max_s=-1.0),
                                    dict(after_input_s=0.0), dict(from_bytes=2048, max_bytes=1024)])
def test_read_coalescing_refuses_nonsense(fields: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        ReadCoalescing(**fields)  # type: ignore[arg-type]
