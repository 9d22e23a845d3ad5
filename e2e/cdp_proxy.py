"""A tiny CDP WebSocket proxy between Playwright and Qt WebEngine's DevTools port.

Playwright's ``connect_over_cdp`` sends ``Browser.setDownloadBehavior`` on connect, which Qt
WebEngine does not implement (the connect then fails). The proxy answers that one method with an
empty result and forwards every other message unchanged, in both directions (SPEC §6).
"""

from __future__ import annotations

import asyncio
import json
import threading

import websockets

_ANSWERED_LOCALLY = {"Browser.setDownloadBehavior"}


class CdpProxy:
    """Serve ``ws://127.0.0.1:<port><path>`` forwarding to ``ws://127.0.0.1:<upstream_port><path>``.

    Runs its own asyncio loop in a daemon thread; ``start()`` returns the bound port.
    """

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._run, name="cdp-proxy", daemon=True)

    def start(self) -> int:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("CDP proxy did not start")
        return self.port

    def stop(self) -> None:
        """Stop serving (idempotent: a second call, or one after the loop ended, does nothing)."""
        if self._stop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._finish)
        self._thread.join(5)

    def _finish(self) -> None:
        if self._stop is not None and not self._stop.done():
            self._stop.set_result(None)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        finally:
            self._loop.close()  # its self-pipe sockets too (ResourceWarning otherwise)

    async def _serve(self) -> None:
        self._stop = self._loop.create_future()
        async with websockets.serve(self._handle, "127.0.0.1", 0, max_size=None) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            self._ready.set()
            await self._stop

    async def _handle(self, client: websockets.ServerConnection) -> None:
        path = client.request.path if client.request else "/"
        url = f"ws://127.0.0.1:{self.upstream_port}{path}"
        async with websockets.connect(url, max_size=None) as upstream:
            await asyncio.gather(
                self._client_to_upstream(client, upstream),
                self._pipe(upstream, client),
                return_exceptions=True,
            )
            await client.close()

    @staticmethod
    async def _client_to_upstream(client, upstream) -> None:  # type: ignore[no-untyped-def]
        async for raw in client:
            message = json.loads(raw)
            if message.get("method") in _ANSWERED_LOCALLY:
                reply = {"id": message["id"], "result": {}}
                if "sessionId" in message:
                    reply["sessionId"] = message["sessionId"]
                await client.send(json.dumps(reply))
                continue
            await upstream.send(raw)
        await upstream.close()

    @staticmethod
    async def _pipe(source, sink) -> None:  # type: ignore[no-untyped-def]
        async for raw in source:
            await sink.send(raw)
        await sink.close()
