"""`EndpointStream` over an asyncio stream pair (one accepted socket connection)."""

from __future__ import annotations

import asyncio

from app.adapters.endpoint.wire import ACCEPTED, refusal
from app.core.errors import INVALID, AppError

_CHUNK = 64 * 1024


class AsyncioEndpointStream:
    """Newline-framed bytes on an accepted connection. Not shared between tasks for reading;
    sends are serialised by a lock (one line is never interleaved with another)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._buffer = bytearray()
        self._eof = False
        self._send_lock = asyncio.Lock()

    async def receive_line(self, max_bytes: int) -> bytes | None:
        """The next line without `\\n` (a trailing `\\r` kept), `None` at EOF; raises
        `AppError(INVALID)` when more than `max_bytes` arrive without a newline."""
        start = 0
        while True:
            end = self._buffer.find(b"\n", start)
            if end >= 0:
                if end > max_bytes:
                    break
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > max_bytes:
                break
            if self._eof:
                if not self._buffer:
                    return None
                line = bytes(self._buffer)
                self._buffer.clear()
                return line
            start = len(self._buffer)
            try:
                chunk = await self._reader.read(_CHUNK)
            except (ConnectionError, OSError):
                chunk = b""
            if not chunk:
                self._eof = True
            self._buffer += chunk
        self._buffer.clear()
        self._eof = True  # the rest of an oversized line cannot be framed again
        raise AppError(INVALID, f"endpoint: a line is longer than {max_bytes} bytes")

    async def answer_hello(self, error: AppError | None) -> None:
        """`{"ok": true}` or `{"ok": false, "error": {code, message}}`."""
        await self.send(ACCEPTED if error is None else refusal(error.code, error.message))

    async def send(self, data: bytes) -> None:
        """Write and drain `data`; raises `ConnectionError` when the peer left."""
        async with self._send_lock:
            if self._writer.is_closing():
                raise ConnectionResetError("endpoint connection closed")
            try:
                self._writer.write(data)
                await self._writer.drain()
            except OSError as exc:
                raise ConnectionResetError(f"endpoint connection closed: {exc}") from exc

    async def close(self) -> None:
        """Close the connection (idempotent, never raises)."""
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except OSError:
            pass
