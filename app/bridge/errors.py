"""Turning exceptions into what the window's promises reject with."""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from app.core.errors import INTERNAL, AppError

log = logging.getLogger("idea.bridge")
F = TypeVar("F", bound=Callable[..., Any])


class BridgeError(Exception):
    """Raised to pywebview; its message is JSON ``{"code","message","details"}``.

    pywebview rejects the JS promise with an ``Error`` whose ``message`` is ``str(exc)``;
    ``web/src/lib/adapters/pywebview.ts`` parses it back into a typed ``GatewayError``.
    """


def exposed(fn: F) -> F:
    """Decorate a js_api method: ``AppError`` → ``BridgeError``; anything else → ``INTERNAL``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except AppError as exc:
            raise BridgeError(json.dumps(exc.to_json(), ensure_ascii=False)) from exc
        except Exception as exc:
            log.exception("bridge call %s failed", fn.__qualname__)
            payload = {"code": INTERNAL, "message": f"{type(exc).__name__}: {exc}", "details": {}}
            raise BridgeError(json.dumps(payload, ensure_ascii=False)) from exc

    return wrapper  # type: ignore[return-value]
