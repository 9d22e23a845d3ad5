"""Composition root: the only place that instantiates adapters and wires them to the use cases."""

from __future__ import annotations

import logging
import os
import sys

from app import paths
from app.adapters.pty import TerminalHost, default_host_class
from app.adapters.stores.filesystem import LocalFileSystem
from app.adapters.system.clock import SystemClock, Uuid4Ids
from app.adapters.system.commands import PathCommandResolver, SubprocessProfileDetector
from app.bridge.api import BridgeApi
from app.bridge.push import PushPump
from app.bridge.workspace import UseCases, Workspace
from app.core.usecases.agents import CreateAgent, DeleteAgent, ReadPersona, UpdateAgent
from app.core.usecases.edit_layout import EditLayout
from app.core.usecases.launch_agent import LaunchAgent
from app.core.usecases.open_shell import OpenShell
from app.core.usecases.profiles import DetectProfiles, LoadProfiles, SaveProfiles
from app.core.usecases.projects import CreateProject, OpenProject
from app.core.usecases.recent_projects import ListRecentProjects
from app.core.usecases.settings import LoadSettings, MarkFirstRunDone

log = logging.getLogger("idea")


def build_use_cases(pty: TerminalHost) -> UseCases:
    """Every use case over the local adapters (disk, PATH, clock, uuid4, the given PTY host)."""
    fs, ids, clock = LocalFileSystem(), Uuid4Ids(), SystemClock()
    resolver = PathCommandResolver()
    return UseCases(
        detect_profiles=DetectProfiles(SubprocessProfileDetector(resolver)),
        load_profiles=LoadProfiles(fs), save_profiles=SaveProfiles(fs),
        load_settings=LoadSettings(fs), mark_first_run_done=MarkFirstRunDone(fs),
        create_project=CreateProject(fs, ids, clock), open_project=OpenProject(fs, ids, clock),
        list_recent=ListRecentProjects(fs), edit_layout=EditLayout(fs, ids),
        create_agent=CreateAgent(fs, ids), update_agent=UpdateAgent(fs),
        delete_agent=DeleteAgent(fs), read_persona=ReadPersona(fs),
        open_shell=OpenShell(pty, ids, fs), launch_agent=LaunchAgent(fs, pty, resolver, ids),
    )


def run_gui(data_dir: str | None, projects: list[str]) -> int:
    """Open the IdeA window and block until it is closed. Returns the process exit code."""
    import webview  # imported here so `--version`/`--help` stay fast and GUI-free

    from app.adapters.window import qt_permissions

    logging.basicConfig(level=os.environ.get("IDEA_LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    data = paths.data_dir(data_dir)
    # `idea dev` points the window at the Vite dev server (app/devmode.py); else the built UI.
    url = os.environ.get("IDEA_DEV_URL") or paths.web_index().as_uri()
    startup = [os.path.abspath(os.path.expanduser(p)) for p in projects]

    pty = default_host_class()()  # ptyprocess on POSIX, pywinpty (ConPTY) on Windows
    holder: dict[str, webview.Window] = {}
    # run_js hands the script to Qt WebEngine as is; evaluate_js would escape it and wrap it in
    # eval() plus result serialisation, which costs tens of ms on a 128 KiB batch.
    pump = PushPump(lambda script: holder["window"].run_js(script))
    uc = build_use_cases(pty)
    ws = Workspace(str(data), uc, pty, pump, startup)
    pty.set_sinks(on_output=pump.add_output, on_exit=ws.on_exit)

    def pick_folder() -> str | None:
        chosen = holder["window"].create_file_dialog(webview.FileDialog.FOLDER)
        return str(chosen[0]) if chosen else None

    api = BridgeApi(
        ws, uc, on_ready=pump.start, pick_folder=pick_folder, shell=paths.user_shell(),
        first_run_disabled=os.environ.get("IDEA_DISABLE_FIRST_RUN") == "1",
        startup_projects=startup,
    )
    if sys.platform.startswith("linux"):
        qt_permissions.install()  # before the window: pywebview's handler aborts on clipboard use
    window = webview.create_window(
        "IdeA", url=url, js_api=api, width=1400, height=900, min_size=(640, 400),
        text_select=False,
    )
    holder["window"] = window

    def on_closing() -> None:
        pump.stop()

    window.events.closing += on_closing
    try:
        webview.start(gui="qt" if sys.platform.startswith("linux") else None, http_server=False,
                      private_mode=False, storage_path=str(data / "webview"))
    finally:
        pump.stop()
        pty.close_all()
    return 0


def run_dev(data_dir: str | None, projects: list[str]) -> int:
    """Development mode: Vite dev server + the window as a child restarted on ``app/`` changes."""
    from app.devmode import run_dev as run

    return run(data_dir, projects)
