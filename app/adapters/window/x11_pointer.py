"""The X pointer's button state, read from the X server (Linux, Qt on xcb).

A tab drag that ends while the primary button is still held was cancelled (Escape, or the
toolkit gave up), never dropped: a drop *is* the button's release. Qt cannot say which it
was: Qt WebEngine hands Chromium `IgnoreAction` for both a cancel and a drop on the bare
desktop, and `QGuiApplication.mouseButtons()` still reads "released" after a cancelled drag
(measured under Xvfb: Qt said released, the server's mask said Button1 held). So the server is
asked directly, with one `XQueryPointer` round trip.

This binds one Xlib call with `ctypes` rather than adding a dependency (python-xlib) for it;
the signature and the mask bits are Xlib's (`XQueryPointer(3)`, `X11/X.h`: `Button1Mask` is
`1 << 8`). One `Display` is opened on first use (`$DISPLAY`, the one Qt uses) and kept; calls
are serialised by a lock, so no `XInitThreads` is needed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading

log = logging.getLogger(__name__)

#: `X11/X.h`: the logical primary button's bit in a pointer or key event's state mask.
BUTTON1_MASK = 1 << 8


class X11Pointer:
    """Asks the X server whether the primary button is held. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._xlib: ctypes.CDLL | None = None
        self._display: int | None = None
        self._failed = False

    def _connect(self) -> bool:
        if self._display is not None:
            return True
        if self._failed:
            return False
        self._failed = True  # until it worked: one attempt, one log line
        name = ctypes.util.find_library("X11") or "libX11.so.6"
        try:
            xlib = ctypes.CDLL(name)
        except OSError:
            log.info("no Xlib (%s): a cancelled tab drag reads as a drop", name)
            return False
        xlib.XOpenDisplay.restype = ctypes.c_void_p
        xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        xlib.XDefaultRootWindow.restype = ctypes.c_ulong
        xlib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        xlib.XQueryPointer.restype = ctypes.c_int
        xlib.XQueryPointer.argtypes = [ctypes.c_void_p, ctypes.c_ulong, *[ctypes.c_void_p] * 7]
        display = xlib.XOpenDisplay(None)
        if not display:
            log.info("cannot open the X display: a cancelled tab drag reads as a drop")
            return False
        self._xlib, self._display, self._failed = xlib, display, False
        return True

    def primary_held(self) -> bool | None:
        """True while the primary button is held, False when it is not, None when the X
        server cannot be asked (no Xlib, no display, the pointer on another screen)."""
        with self._lock:
            if not self._connect():
                return None
            assert self._xlib is not None
            xlib, display = self._xlib, self._display
            root_ret, child_ret = ctypes.c_ulong(), ctypes.c_ulong()
            xs = [ctypes.c_int() for _ in range(4)]
            mask = ctypes.c_uint()
            same_screen = xlib.XQueryPointer(
                display, xlib.XDefaultRootWindow(display), ctypes.byref(root_ret),
                ctypes.byref(child_ret), *(ctypes.byref(x) for x in xs), ctypes.byref(mask))
            if not same_screen:
                return None
            return bool(mask.value & BUTTON1_MASK)
