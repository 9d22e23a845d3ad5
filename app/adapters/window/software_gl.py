"""Qt's compositing when the machine has no GPU (Linux window; ADR 008).

Without a GPU render node, Qt Quick (which hosts Qt WebEngine's view) composites every frame
through Mesa's llvmpipe: during a terminal flood that takes about half of the browser process
and each push waits behind it on the GUI thread (measured: 8–9.5 MB/s, and 14–17.5 MB/s with
Qt Quick's software backend, `docs/benchmarks.md`). Chromium's own flags change nothing there;
Qt Quick's software scene graph (`QT_QUICK_BACKEND=software`) plus `--disable-gpu` does, and
renders the page the same. It is unmeasured on real GPUs, so it is chosen only when software
GL is certain: no `/dev/dri/renderD*` node, or `LIBGL_ALWAYS_SOFTWARE=1`.

`IDEA_SOFTWARE_RENDERING=1` forces it, `=0` never; a `QT_QUICK_BACKEND` the user set wins.
Must run before Qt starts (before `webview.start`).
"""

from __future__ import annotations

import glob
from collections.abc import Callable, MutableMapping


def wants_software(env: MutableMapping[str, str],
                   render_nodes: Callable[[], list[str]] = lambda: glob.glob("/dev/dri/renderD*")
                   ) -> bool:
    """True when Qt should composite in software (see the module doc)."""
    forced = env.get("IDEA_SOFTWARE_RENDERING", "")
    if forced in ("0", "1"):
        return forced == "1"
    if env.get("QT_QUICK_BACKEND"):
        return env["QT_QUICK_BACKEND"] == "software"  # the user (or an earlier call) chose
    return env.get("LIBGL_ALWAYS_SOFTWARE") == "1" or not render_nodes()


def apply(env: MutableMapping[str, str],
          render_nodes: Callable[[], list[str]] = lambda: glob.glob("/dev/dri/renderD*")) -> bool:
    """Set `QT_QUICK_BACKEND=software` and add `--disable-gpu` to
    `QTWEBENGINE_CHROMIUM_FLAGS` in `env` when `wants_software`; returns whether it did."""
    if not wants_software(env, render_nodes):
        return False
    env["QT_QUICK_BACKEND"] = "software"
    flags = env.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
    if "--disable-gpu" not in flags.split():
        env["QTWEBENGINE_CHROMIUM_FLAGS"] = (flags + " --disable-gpu").strip()
    return True
