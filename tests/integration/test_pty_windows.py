"""Integration tests of `WinPtyHost` on real ConPTY consoles (Windows only).

They mirror the key tests of `test_pty_posix.py`. Children are `sys.executable` scripts (plus
`cmd.exe` for the shell round trip) so the assertions do not depend on cmd's rendering. ConPTY
re-renders the screen (cursor moves, line wraps), so output is matched by substrings, never as
an exact stream. Deadlines in the polling loops are generous; nothing asserts a duration.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from app.adapters.pty.common import HIGH_WATER_CHARS
from app.adapters.pty.windows import READ_CHUNK_CHARS, WinPtyHost
from app.core.domain.sessions import SpawnSpec
from app.core.errors import COMMAND_NOT_FOUND, NOT_FOUND, AppError
from tests.pty_recorder import Recorder
from tests.pty_recorder import wait_stable as shared_wait_stable
from tests.pty_recorder import wait_until as shared_wait_until

pytestmark = [
    pytest.mark.skipif(sys.platform != "win32", reason="needs Windows ConPTY"),
    pytest.mark.timeout(120),
]

DEADLINE_S = 30.0


def wait_stable(get: Callable[[], int], quiet_s: float = 1.0, deadline_s: float = DEADLINE_S) -> int:
    """ConPTY delivers in bursts: a longer quiet period than on POSIX."""
    return shared_wait_stable(get, quiet_s, deadline_s)


def wait_until(pred: Callable[[], bool], deadline_s: float = DEADLINE_S) -> bool:
    return shared_wait_until(pred, deadline_s)


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def host(rec: Recorder) -> Iterator[WinPtyHost]:
    h = WinPtyHost(rec, kill_grace_ms=1000)
    yield h
    h.close_all(timeout_ms=2000)


def spec(command: str, *args: str, cwd: str | None = None, sid: str = "", cols: int = 80,
         rows: int = 24, env: dict[str, str] | None = None) -> SpawnSpec:
    return SpawnSpec(command=command, args=list(args), cwd=cwd or os.getcwd(), env=env or {},
                     cols=cols, rows=rows, session_id=sid)


def py(code: str, **kw: Any) -> SpawnSpec:
    return spec(sys.executable, "-c", code, **kw)


# A line-echoing child (`cat` is not on Windows): prints each input line back with a marker.
ECHO = (
    "import sys\n"
    "for line in sys.stdin:\n"
    "    print('got:' + line.strip(), flush=True)\n"
)


def test_echo_round_trip_through_cmd(host: WinPtyHost, rec: Recorder) -> None:
    sid = host.spawn(spec(os.environ.get("COMSPEC", "cmd.exe"), sid="echo-1",
                          env={"IDEA_MARK": "42"}))
    assert sid == "echo-1"
    assert host.is_alive(sid)
    host.write(sid, 0, "echo hello-%IDEA_MARK%-pty\r")  # Enter is CR, as xterm.js sends it
    assert wait_until(lambda: "hello-42-pty" in rec.text(sid)), rec.text(sid)
    assert "hello-42-pty" in rec.text(sid)
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)
    assert not host.is_alive(sid)


def test_spawn_uses_cwd_and_env(host: WinPtyHost, rec: Recorder, tmp_path) -> None:
    sid = host.spawn(py("import os; print('CWD=' + os.getcwd() + '|X=' + os.environ['IDEA_X']"
                        " + '|T=' + os.environ['TERM'])", cwd=str(tmp_path), env={"IDEA_X": "42"}))
    assert wait_until(lambda: sid in rec.exits)
    text = rec.text(sid).replace("\r", "").replace("\n", "")
    assert f"CWD={tmp_path}" in text, text
    assert "X=42" in text and "T=xterm-256color" in text


def test_arguments_with_spaces_and_quotes_arrive_intact(host: WinPtyHost, rec: Recorder) -> None:
    sid = host.spawn(spec(sys.executable, "-c", "import sys; print('ARGS=' + '|'.join(sys.argv[1:]))",
                          "a b", 'say "hi"', ""))
    assert wait_until(lambda: sid in rec.exits)
    assert 'ARGS=a b|say "hi"|' in rec.text(sid).replace("\r\n", ""), rec.text(sid)


def test_exit_code_is_reported(host: WinPtyHost, rec: Recorder) -> None:
    sid = host.spawn(py("print('bye'); raise SystemExit(7)"))
    assert wait_until(lambda: sid in rec.exits)
    assert rec.exits[sid] == 7
    assert rec.exit_calls == 1
    assert host.exit_code(sid) == 7
    assert not host.is_alive(sid)
    assert "bye" in rec.text(sid)
    host.write(sid, 0, "ignored\r")  # input to an ended session is dropped
    host.forget(sid)
    assert sid not in host.session_ids()


def test_resize_changes_the_console_size(host: WinPtyHost, rec: Recorder) -> None:
    child = (
        "import os, sys\n"
        "print('SIZE=%d,%d' % tuple(os.get_terminal_size()), flush=True)\n"
        "sys.stdin.readline()\n"
        "print('SIZE=%d,%d' % tuple(os.get_terminal_size()), flush=True)\n"
    )
    sid = host.spawn(py(child, cols=80, rows=24))
    assert wait_until(lambda: "SIZE=80,24" in rec.text(sid)), rec.text(sid)
    host.resize(sid, cols=100, rows=30)
    time.sleep(0.3)
    host.write(sid, 0, "\r")
    assert wait_until(lambda: "SIZE=100,30" in rec.text(sid)), rec.text(sid)
    assert wait_until(lambda: sid in rec.exits)


def test_multibyte_output_decodes_intact(host: WinPtyHost, rec: Recorder) -> None:
    unit = "é€😀"
    child = (
        "import sys, time\n"
        "sys.stdout.reconfigure(encoding='utf-8')\n"
        f"for _ in range(40): sys.stdout.write({unit!r}); sys.stdout.flush(); time.sleep(0.001)\n"
        "print('<END>', flush=True)\n"
    )
    sid = host.spawn(py(child, cols=200))
    assert wait_until(lambda: sid in rec.exits)
    text = rec.text(sid)
    assert "<END>" in text
    assert "\ufffd" not in text
    assert unit * 3 in text  # ConPTY may re-render, but characters arrive whole


def test_flood_without_ack_stalls_then_resumes_after_ack(host: WinPtyHost, rec: Recorder) -> None:
    sid = host.spawn(py("import sys\nwhile True: sys.stdout.write('y' * 79 + '\\n')\n"))
    assert wait_until(lambda: rec.count(sid) > HIGH_WATER_CHARS)
    stalled = wait_stable(lambda: rec.count(sid))
    assert HIGH_WATER_CHARS < stalled <= HIGH_WATER_CHARS + READ_CHUNK_CHARS
    assert host.is_alive(sid)
    host.ack(sid, stalled)
    assert wait_until(lambda: rec.count(sid) > stalled)
    stalled_again = wait_stable(lambda: rec.count(sid))
    assert stalled_again <= stalled + HIGH_WATER_CHARS + READ_CHUNK_CHARS
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)


def test_ctrl_c_stops_a_flood(host: WinPtyHost, rec: Recorder) -> None:
    rec.auto_ack = host
    sid = host.spawn(py("import sys\nwhile True: sys.stdout.write('y' * 79 + '\\n')\n"))
    assert wait_until(lambda: rec.count(sid) > 200_000)
    host.write(sid, 0, "\x03")
    assert wait_until(lambda: sid in rec.exits)


def test_out_of_order_writes_are_applied_in_seq_order(host: WinPtyHost, rec: Recorder) -> None:
    sid = host.spawn(py(ECHO))
    barrier = threading.Barrier(5)

    def send(seq: int, data: str) -> None:
        barrier.wait()
        host.write(sid, seq, data)

    chunks = [(3, "d"), (1, "b"), (4, "e\r"), (0, "a"), (2, "c")]
    threads = [threading.Thread(target=send, args=c) for c in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wait_until(lambda: "got:abcde" in rec.text(sid)), rec.text(sid)
    host.write(sid, 6, "g\r")
    host.write(sid, 5, "f")
    assert wait_until(lambda: "got:fg" in rec.text(sid)), rec.text(sid)


def test_missing_command_raises_command_not_found(host: WinPtyHost) -> None:
    with pytest.raises(AppError) as err:
        host.spawn(spec("idea-no-such-command-xyz"))
    assert err.value.code == COMMAND_NOT_FOUND
    assert err.value.message == "command not found: idea-no-such-command-xyz"


def test_missing_cwd_raises_not_found(host: WinPtyHost, tmp_path) -> None:
    with pytest.raises(AppError) as err:
        host.spawn(spec(sys.executable, cwd=str(tmp_path / "nope")))
    assert err.value.code == NOT_FOUND


def test_kill_ends_the_process_tree(host: WinPtyHost, rec: Recorder) -> None:
    child = (
        "import subprocess, sys, time\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
        "print('CHILD=%d' % p.pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    sid = host.spawn(py(child))
    assert wait_until(lambda: "CHILD=" in rec.text(sid)), rec.text(sid)
    text = rec.text(sid)
    grandchild = int(text.split("CHILD=")[1].split()[0].strip())
    host.kill(sid)
    assert wait_until(lambda: sid in rec.exits)

    def gone() -> bool:
        out = subprocess.run(["tasklist", "/FI", f"PID eq {grandchild}"], capture_output=True,
                             text=True).stdout
        return str(grandchild) not in out

    assert wait_until(gone)


def test_close_all_ends_every_session(host: WinPtyHost, rec: Recorder) -> None:
    ids = [host.spawn(py(ECHO)) for _ in range(3)]
    host.close_all(timeout_ms=2000)
    assert all(i in rec.exits for i in ids)
