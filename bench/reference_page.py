"""Reference: the same xterm.js build in a standalone page in headless Debian Chromium, fed the
same bytes over a local WebSocket (``/flood``, 64 KiB binary chunks, acked from ``term.write``'s
callback with a window of chunks in flight), plus a PTY echo socket (``/pty``: a real PTY running
``cat > /dev/null``) for the keystroke baseline. One asyncio server on 127.0.0.1 serves the
page, the xterm files from ``web/node_modules`` and both sockets.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import pty
import struct
import subprocess
import termios
import threading
from http import HTTPStatus
from pathlib import Path
from typing import Any

from playwright.sync_api import Playwright
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from bench.idea_cell import measure_keys

XTERM = Path(__file__).resolve().parent.parent / "web" / "node_modules" / "@xterm"
FILES = {
    "/xterm.js": (XTERM / "xterm" / "lib" / "xterm.js", "text/javascript"),
    "/xterm.css": (XTERM / "xterm" / "css" / "xterm.css", "text/css"),
    "/addon-webgl.js": (XTERM / "addon-webgl" / "lib" / "addon-webgl.js", "text/javascript"),
}
CHUNK = 64 * 1024
WINDOW = 8  # chunks in flight (512 KiB): keeps xterm's write queue fed, never near its 50 MB cap

PAGE = Path(__file__).with_name("reference.html")


class ReferenceServer:
    """HTTP + WebSocket server in its own asyncio thread; ``start()`` returns the base URL."""

    def __init__(self, payload: bytes, cols: int, rows: int) -> None:
        self.chunks = [payload[i:i + CHUNK] for i in range(0, len(payload), CHUNK)]
        self.cols, self.rows = cols, rows
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._main(),),
                                        daemon=True, name="bench-reference")

    def start(self) -> str:
        self._thread.start()
        self._ready.wait(10)
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set_result, None)
        self._thread.join(5)

    async def _main(self) -> None:
        self._stop = self._loop.create_future()
        async with serve(self._socket, "127.0.0.1", 0, process_request=self._http,
                         max_size=None, compression=None) as server:
            self.port = server.sockets[0].getsockname()[1]
            self._ready.set()
            await self._stop

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?")[0]
        if path in ("/flood", "/pty"):
            return None
        if path == "/":
            body, kind = PAGE.read_bytes(), "text/html; charset=utf-8"
        elif path in FILES:
            body, kind = FILES[path][0].read_bytes(), FILES[path][1]
        else:
            return connection.respond(HTTPStatus.NOT_FOUND, "not found\n")
        headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body)))])
        return Response(200, "OK", headers, body)

    async def _socket(self, ws: ServerConnection) -> None:
        assert ws.request is not None
        await (self._flood(ws) if ws.request.path.startswith("/flood") else self._pty(ws))

    async def _flood(self, ws: ServerConnection) -> None:
        await ws.recv()  # 'go'
        await ws.send(json.dumps({"chunks": len(self.chunks)}))
        acked, more = 0, asyncio.Event()

        async def count_acks() -> None:
            nonlocal acked
            async for _ in ws:
                acked += 1
                more.set()

        task = asyncio.create_task(count_acks())
        for i, chunk in enumerate(self.chunks):
            while i - acked >= WINDOW:
                more.clear()
                await more.wait()
            await ws.send(chunk)
        await task

    async def _pty(self, ws: ServerConnection) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.cols, 0, 0))
        proc = subprocess.Popen(["cat"], stdin=slave, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(slave)
        out: asyncio.Queue[bytes] = asyncio.Queue()
        self._loop.add_reader(master, lambda: out.put_nowait(os.read(master, 65536)))

        async def forward() -> None:
            while True:
                await ws.send(await out.get())

        task = asyncio.create_task(forward())
        try:
            async for message in ws:
                os.write(master, message.encode() if isinstance(message, str) else message)
        finally:
            self._loop.remove_reader(master)
            task.cancel()
            proc.kill()
            proc.wait()
            os.close(master)


CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


def run_reference(playwright: Playwright, payload: bytes, cols: int, rows: int, webgl: bool,
                  keys: int, chromium: str = "/usr/bin/chromium",
                  extra_args: list[str] | None = None) -> dict[str, Any]:
    """Flood (and, with ``keys`` > 0, keystroke echo) in headless Chromium; returns the figures.
    ``extra_args``: more Chromium flags (e.g. SwiftShader for WebGL in software)."""
    server = ReferenceServer(payload, cols, rows)
    base = server.start()
    browser = playwright.chromium.launch(executable_path=chromium, headless=False,
                                         args=[*CHROMIUM_ARGS, *(extra_args or [])])
    try:
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(f"{base}/?cols={cols}&rows={rows}&webgl={int(webgl)}")
        result: dict[str, Any] = {"renderer": page.evaluate("window.renderer"),
                                  "browser": browser.version}
        result.update(page.evaluate("window.flood()"))
        if keys > 0:
            page.evaluate("window.keys()")
            result["keys"] = measure_keys(page, keys)
        return result
    finally:
        browser.close()
        server.stop()
