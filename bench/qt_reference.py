"""Diagnostic: the reference page (same xterm.js, same bytes over a local WebSocket) inside a
bare pywebview Qt WebEngine window under Xvfb — no IdeA code at all.

Tells how much of the gap between IdeA and headless Chromium belongs to the engine and the
virtual display (software GL, compositing) rather than to IdeA's bridge:

    .venv/bin/python bench/qt_reference.py [--mb 10]

Prints throughput in MB/s for headless Chromium and for the bare Qt window; no assertions.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.pty_throughput import wire_payload  # noqa: E402
from bench.reference_page import ReferenceServer, run_reference  # noqa: E402
from e2e.cdp_proxy import CdpProxy  # noqa: E402
from e2e.harness import Xvfb, free_port  # noqa: E402

WINDOW = "import sys, webview; webview.create_window('ref', sys.argv[1], width=1400, height=900); " \
         "webview.start(gui='qt')"


def payload(mb: float) -> tuple[bytes, int]:
    """The bytes the reference pages get and the size their MB/s counts: IdeA's `cat` payload
    (`pty_throughput.wire_payload`). Until 2026-12-05 this was uniform 120-character lines,
    which the bare Qt window rendered ~1.4× faster than IdeA's varied ones (fewer line feeds
    per byte; docs/benchmarks.md, sitting 17): the bare-Qt ratios of sittings 1–17 compared
    different payloads."""
    return wire_payload(mb)


def qt_flood(pw, data: bytes, cols: int, rows: int, display: str,  # type: ignore[no-untyped-def]
             software: bool = False) -> dict[str, Any]:
    """The reference page in a bare pywebview Qt window; `software`: with the Qt Quick software
    backend IdeA picks without a GPU (app/adapters/window/software_gl.py), for a like-for-like
    comparison."""
    server = ReferenceServer(data, cols, rows)
    base = server.start()
    port = free_port()
    env = dict(os.environ, DISPLAY=display, QTWEBENGINE_REMOTE_DEBUGGING=str(port))
    if os.geteuid() == 0:
        env["QTWEBENGINE_CHROMIUM_FLAGS"] = "--no-sandbox"
    if software:
        env["QT_QUICK_BACKEND"] = "software"
        env["QTWEBENGINE_CHROMIUM_FLAGS"] = (env.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
                                             + " --disable-gpu").strip()
    url = f"{base}/?cols={cols}&rows={rows}&webgl=0"
    proc = subprocess.Popen([sys.executable, "-c", WINDOW, url], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    proxy = CdpProxy(port)
    try:
        deadline = time.monotonic() + 30
        ws = None
        while ws is None and time.monotonic() < deadline:
            try:
                import json
                import urllib.request
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=1) as r:
                    ws = json.load(r)["webSocketDebuggerUrl"]
            except OSError:
                time.sleep(0.1)
        assert ws, "Qt window never opened its DevTools port"
        proxy_port = proxy.start()
        browser = pw.chromium.connect_over_cdp(ws.replace(f":{port}/", f":{proxy_port}/"))
        page = None
        while page is None and time.monotonic() < deadline:
            page = next((p for c in browser.contexts for p in c.pages if p.url.startswith(base)),
                        None)
            time.sleep(0.1)
        assert page is not None
        page.wait_for_function("typeof window.flood === 'function'")
        result = dict(page.evaluate("window.flood()"))
        browser.close()
        return result
    finally:
        proxy.stop()
        proc.terminate()
        proc.wait(10)
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10)
    parser.add_argument("--software", action="store_true",
                        help="Qt Quick software backend in the Qt window (as IdeA without a GPU)")
    args = parser.parse_args()
    data, size = payload(args.mb)
    cols, rows = 142, 22
    xvfb = Xvfb()
    display = xvfb.start()
    try:
        with sync_playwright() as pw:
            headless = run_reference(pw, data, cols, rows, webgl=False, keys=0)
            qt = qt_flood(pw, data, cols, rows, display, args.software)
    finally:
        xvfb.stop()
    mb = size / 1e6
    print(f"payload {mb:.1f} MB, {cols}x{rows}, DOM renderer")
    print(f"headless Chromium : {mb / headless['parsedS']:.1f} MB/s")
    print(f"bare Qt WebEngine : {mb / qt['parsedS']:.1f} MB/s (pywebview window on Xvfb)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
