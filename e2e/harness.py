"""End-to-end harness: Xvfb + the real IdeA window + CDP proxy + Playwright.

``IdeaApp`` starts ``python -m app`` (or another ``command``, e.g. a packaged build's ``AppRun``)
exactly as a user would (real PTYs, real files), with
Qt WebEngine's DevTools port on (``QTWEBENGINE_REMOTE_DEBUGGING``), puts :class:`CdpProxy` in
front of it and connects Playwright over CDP. ``page`` is the window's page.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, Playwright

from e2e.cdp_proxy import CdpProxy

REPO = Path(__file__).resolve().parent.parent
TOOLS_BIN = REPO / "tools" / "node_modules" / ".bin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _is_built_index(url: str) -> bool:
    return url.endswith("index.html") or "index.html?" in url


class Xvfb:
    """A private X server on the first free display number from :90."""

    def __init__(self, size: str = "1600x1000x24") -> None:
        self.size = size
        self.display = ""
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        if shutil.which("Xvfb") is None:
            raise RuntimeError("Xvfb is not installed: run ./run-tests (it installs it as root)")
        for n in range(90, 140):
            if Path(f"/tmp/.X11-unix/X{n}").exists() or Path(f"/tmp/.X{n}-lock").exists():
                continue
            self._proc = subprocess.Popen(
                ["Xvfb", f":{n}", "-screen", "0", self.size, "-nolisten", "tcp"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if Path(f"/tmp/.X11-unix/X{n}").exists():
                    self.display = f":{n}"
                    return self.display
                if self._proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError("could not start Xvfb")

    def stop(self) -> None:
        if self._proc and self._proc.poll() is None:
            self._proc.terminate()
            self._proc.wait(5)


class IdeaApp:
    """The real app under test. ``start()`` returns once the UI signalled it is ready."""

    def __init__(self, playwright: Playwright, display: str, data_dir: Path,
                 project: Path | None = None, first_run: bool = False,
                 extra_env: dict[str, str] | None = None, command: list[str] | None = None,
                 page_url: Callable[[str], bool] | None = None) -> None:
        """``command`` replaces ``[python, -m, app]`` (global options are appended to it);
        ``page_url(url)`` tells the IdeA page apart (default: the built ``index.html``)."""
        self.playwright = playwright
        self.command = command or [sys.executable, "-m", "app"]
        self.page_url = page_url or _is_built_index
        self.display = display
        self.data_dir = data_dir
        self.project = project
        self.first_run = first_run
        self.extra_env = extra_env or {}
        self.log_path = data_dir / "app-stdio.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.proxy: CdpProxy | None = None
        self.browser: Browser | None = None
        self.page: Page | None = None

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(DISPLAY=self.display, QTWEBENGINE_REMOTE_DEBUGGING=str(self.devtools_port),
                   IDEA_DATA_DIR=str(self.data_dir), PYTHONUNBUFFERED="1")
        flags = env.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
        if os.geteuid() == 0 and "--no-sandbox" not in flags:
            env["QTWEBENGINE_CHROMIUM_FLAGS"] = (flags + " --no-sandbox").strip()
        env["PATH"] = f"{TOOLS_BIN}{os.pathsep}{env.get('PATH', '')}"
        if not self.first_run:
            env["IDEA_DISABLE_FIRST_RUN"] = "1"
        env.pop("WAYLAND_DISPLAY", None)
        env.update(self.extra_env)
        return env

    def start(self, timeout_s: float = 60) -> Page:
        self.devtools_port = free_port()
        args = [*self.command, "--data-dir", str(self.data_dir)]
        if self.project is not None:
            args += ["--project", str(self.project)]
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the fd
            self.proc = subprocess.Popen(args, cwd=REPO, env=self.env(), stdout=log, stderr=log,
                                         start_new_session=True)
        ws_url = self._wait_devtools(timeout_s)
        self.proxy = CdpProxy(self.devtools_port)
        proxy_port = self.proxy.start()
        proxied = ws_url.replace(f":{self.devtools_port}/", f":{proxy_port}/")
        self.browser = self.playwright.chromium.connect_over_cdp(proxied, timeout=timeout_s * 1000)
        self.page = self._wait_page(timeout_s)
        self.page.wait_for_function("window.__ideaReady === true", timeout=timeout_s * 1000)
        return self.page

    def _wait_devtools(self, timeout_s: float) -> str:
        deadline = time.monotonic() + timeout_s
        url = f"http://127.0.0.1:{self.devtools_port}/json/version"
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"IdeA exited early ({self.proc.returncode}):\n{self.log()}")
            try:
                with urllib.request.urlopen(url, timeout=1) as r:
                    return str(json.load(r)["webSocketDebuggerUrl"])
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"DevTools port never opened:\n{self.log()}")

    def _wait_page(self, timeout_s: float) -> Page:
        assert self.browser is not None
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for context in self.browser.contexts:
                for page in context.pages:
                    if self.page_url(page.url):
                        return page
            time.sleep(0.1)
        raise RuntimeError(f"the IdeA page never appeared:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-6000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.browser is not None:
            try:
                self.browser.close()
            except Exception:  # noqa: BLE001 - the app may already be gone
                pass
        if self.proxy is not None:
            self.proxy.stop()
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
