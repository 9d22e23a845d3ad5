"""`stop_signals.install`: a SIGTERM or SIGHUP calls the quit callback (the process lives on to
quit cleanly); a second one ends the process at once (POSIX only)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
REPO = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys, time, threading
from app.adapters.system import stop_signals
quit_called = threading.Event()
assert stop_signals.install(lambda: (print("quit", flush=True), quit_called.set()))
print("ready", flush=True)
quit_called.wait(20)
time.sleep(20)  # a real app closes its windows meanwhile; here, wait for the second signal
"""


def start() -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_calls_quit_and_a_second_one_ends_the_process(sig: signal.Signals) -> None:
    proc = start()
    try:
        proc.send_signal(sig)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "quit"
        time.sleep(0.2)
        assert proc.poll() is None  # not killed: quitting is the app's to do
        proc.send_signal(sig)
        assert proc.wait(10) == 128 + sig
    finally:
        proc.kill()
        proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()
