"""The scrollback ring of one terminal session (SPEC §5): the recent output a view repaints
when it attaches. Pure data structure; the caller serialises access."""

from __future__ import annotations

import collections

#: Scrollback kept per session, in characters (~1 MiB of mostly-ASCII text).
SCROLLBACK_CHARS = 1024 * 1024


class ScrollbackRing:
    """A bounded buffer of the most recent decoded output of one session.

    Holds at most `max_chars` characters; when trimming, the cut is moved forward to the next
    line boundary if one is within `line_slack_chars`, so a repaint rarely starts mid-line.
    Not thread-safe: the caller holds its own lock.
    """

    def __init__(self, max_chars: int = SCROLLBACK_CHARS, line_slack_chars: int = 4096) -> None:
        if max_chars <= 0:
            raise ValueError("max_chars must be > 0")
        self._max = max_chars
        self._slack = line_slack_chars
        self._chunks: collections.deque[str] = collections.deque()
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def append(self, text: str) -> None:
        """Append `text` and trim the oldest characters beyond the bound."""
        if not text:
            return
        self._chunks.append(text)
        self._size += len(text)
        if self._size > self._max:
            last_dropped = self._drop(self._size - self._max)
            if last_dropped != "\n":
                self._skip_to_next_line()

    def _drop(self, count: int) -> str:
        """Remove the oldest `count` characters; returns the last one removed."""
        last = ""
        while count > 0:
            first = self._chunks[0]
            if len(first) <= count:
                self._chunks.popleft()
                count -= len(first)
                self._size -= len(first)
                last = first[-1]
            else:
                self._chunks[0] = first[count:]
                self._size -= count
                last = first[count - 1]
                count = 0
        return last

    def _skip_to_next_line(self) -> None:
        """Start the buffer after the next newline when one is within `line_slack_chars`, even
        if it lies in a later chunk (PTY reads split lines anywhere)."""
        seen = 0
        for chunk in self._chunks:
            window = self._slack - seen
            if window <= 0:
                return
            at = chunk.find("\n", 0, window)
            if at >= 0:
                self._drop(seen + at + 1)
                return
            seen += len(chunk)
        if len(self._chunks) > 512:
            self._compact()

    def text(self) -> str:
        """All retained text, oldest first."""
        self._compact()
        return self._chunks[0] if self._chunks else ""

    def _compact(self) -> None:
        if len(self._chunks) > 1:
            joined = "".join(self._chunks)
            self._chunks.clear()
            self._chunks.append(joined)


