"""Entry points of the window and of development mode: the bootstrap, then the window adapter
with its door. Wiring lives in `app.bootstrap`; the Qt/pywebview setup in
`app.adapters.window.pywebview_window`."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping

from app import paths
from app.bootstrap import Config, build
from app.bridge.push import Post, PushPump
from app.core.domain.push_pipeline import PipelineLimits


def run_gui(data_dir: str | None, projects: list[str]) -> int:
    """Open IdeA's windows (those of the saved workspace, or one) and block until the last one
    is closed. Returns the process exit code."""
    from app.adapters.system import stop_signals
    from app.adapters.window.pywebview_window import PywebviewWindows
    from app.bridge.window import WindowDoor, WindowPort
    from app.bridge.window_manager import WindowManager
    from app.bridge.windows_api import WindowsApi

    logging.basicConfig(level=os.environ.get("IDEA_LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    data = paths.data_dir(data_dir)
    # `idea dev` points the window at the Vite dev server (app/devmode.py); else the built UI.
    url = os.environ.get("IDEA_DEV_URL") or paths.web_index().as_uri()
    startup = [os.path.abspath(os.path.expanduser(p)) for p in projects]
    container = build(Config(data_dir=str(data), shell=paths.user_shell(),
                             startup_projects=startup, home=os.path.expanduser("~")))
    container.services.settings.apply()
    windows = PywebviewWindows(url)
    workspace = container.workspace

    def door(window_id: str, port: WindowPort) -> WindowDoor:
        api = WindowsApi(window_id, manager, container.services, workspace,
                         container.inspector)
        # A window's saved tabs open at start; `--project` roots were put in the first one.
        tabs = [t.root for t in workspace.doc.window(window_id).tabs] \
            if any(w.id == window_id for w in workspace.doc.windows) else []
        return WindowDoor(container.services, port, data_dir=str(data),
                          first_run_disabled=os.environ.get("IDEA_DISABLE_FIRST_RUN") == "1",
                          startup_projects=tabs, features={"windows": api},
                          pump_factory=pump_factory(os.environ))

    manager = WindowManager(container.services, workspace, windows, door)
    stop_signals.install(manager.quit)  # a logout or `kill` saves what to restore, as Quit does
    try:
        manager.open_saved(startup)
        windows.start()
    finally:
        container.shutdown()
    return 0


def pump_factory(env: Mapping[str, str]) -> Callable[[Post], PushPump]:
    """The window's push pump with the ADR 008 values; `IDEA_PUSH_DEPTH`,
    `IDEA_PUSH_INFLIGHT_CHARS` and `IDEA_PUSH_BATCH_CHARS` override them for benchmarks
    (bench/report.py). Raises ValueError on a value that is not a positive integer."""
    defaults = PipelineLimits()

    def number(name: str, default: int) -> int:
        raw = env.get(name, "")
        if not raw:
            return default
        if not raw.isdigit() or int(raw) <= 0:
            raise ValueError(f"{name} must be a positive integer, not {raw!r}")
        return int(raw)

    limits = PipelineLimits(depth=number("IDEA_PUSH_DEPTH", defaults.depth),
                            chars_in_flight=number("IDEA_PUSH_INFLIGHT_CHARS",
                                                   defaults.chars_in_flight),
                            small_chars=defaults.small_chars)
    batch = number("IDEA_PUSH_BATCH_CHARS", 256_000)
    return lambda post: PushPump(post, limits=limits, flush_chars=batch, session_chars=batch)


def run_dev(data_dir: str | None, projects: list[str]) -> int:
    """Development mode: Vite dev server + the window as a child restarted on ``app/`` changes."""
    from app.devmode import run_dev as run

    return run(data_dir, projects)
