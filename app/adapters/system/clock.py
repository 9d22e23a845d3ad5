"""Wall clock and id source adapters."""

from __future__ import annotations

import time
import uuid


class SystemClock:
    """``Clock``: milliseconds since the Unix epoch."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class Uuid4Ids:
    """``IdSource``: random hyphenated UUID4 strings (the original IdeA's id form)."""

    def new_id(self) -> str:
        return str(uuid.uuid4())
