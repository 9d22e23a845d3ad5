"""SIGTERM and SIGHUP (a logout, `kill`, a closed terminal) quit IdeA the way *Quit IdeA* does,
so what to restore is recorded: the default action killed the process with nothing saved.

The window's main thread sits in Qt's event loop, where a Python signal handler would run only
when some Python code next runs on that thread (maybe never, idle). So the handler does nothing
itself; `signal.set_wakeup_fd` makes the C-level handler write the signal number to a socket at
once, and a daemon thread reading it calls `quit`. A second signal ends the process at once.
POSIX only (`install` does nothing where SIGHUP does not exist, i.e. Windows).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)
STOP_SIGNALS = ("SIGTERM", "SIGHUP")


def install(quit_app: Callable[[], None]) -> bool:
    """From the main thread: on the first SIGTERM or SIGHUP, call `quit_app()` (on a daemon
    thread). Returns whether it is installed (False off POSIX or off the main thread)."""
    signals = [getattr(signal, name) for name in STOP_SIGNALS if hasattr(signal, name)]
    if len(signals) < len(STOP_SIGNALS) or threading.current_thread() is not threading.main_thread():
        return False
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    for sig in signals:
        signal.signal(sig, lambda *_: None)  # the wakeup byte does the work

    def watch(reader: socket.socket, writer: socket.socket) -> None:
        # holds `writer` for good: a collected socket's fd number would be reused by another file
        quitting = False
        while got := reader.recv(1):
            if got[0] not in signals:
                continue  # another signal with a Python handler (SIGINT…)
            if quitting:  # a second one ends the process at once
                os._exit(128 + got[0])
            quitting = True
            log.info("signal %d: quitting", got[0])
            threading.Thread(target=_quit, args=(quit_app,), name="idea-quit", daemon=True).start()

    threading.Thread(target=watch, args=(reader, writer), name="idea-stop-signals",
                     daemon=True).start()
    return True


def _quit(quit_app: Callable[[], None]) -> None:
    try:
        quit_app()
    except Exception:
        log.exception("quit on a signal failed")
