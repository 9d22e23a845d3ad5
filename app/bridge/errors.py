"""The envelope every js_api call resolves with: `{"ok": value}` or `{"error": {code, message,
details}}` (docs/contracts.md §4).

Expected failures (`AppError`) are answered, not raised: pywebview logs a traceback for every
exception a js_api method raises, and a quiet `NOT_FOUND` (e.g. resizing a session that just
ended) is not an incident. Anything else is logged here once and answered as `INTERNAL`.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, ParamSpec

from app.core.errors import INTERNAL, AppError

log = logging.getLogger("idea.bridge")
P = ParamSpec("P")

Envelope = dict[str, Any]


def exposed(fn: Callable[P, Any]) -> Callable[P, Envelope]:
    """Decorate a js_api method: its result becomes `{"ok": result}`, an `AppError`
    `{"error": {...}}`, any other exception a logged `{"error": {"code": "INTERNAL", …}}`."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Envelope:
        try:
            return {"ok": fn(*args, **kwargs)}
        except AppError as exc:
            return {"error": exc.to_json()}
        except Exception as exc:
            log.exception("bridge call %s failed", fn.__qualname__)
            return {"error": {"code": INTERNAL, "message": f"{type(exc).__name__}: {exc}",
                              "details": {}}}

    return wrapper
