"""Chromium flags for the memory of IdeA's Qt WebEngine processes (ADR 016).

`--js-flags=--expose-gc` gives the page V8's `gc()`: the terminal hub collects once after a
lot of output went quiet (`web/src/lib/domain/idle-collector.ts`). Qt WebEngine's renderer
otherwise keeps the heap a flood grew (measured with `bench/memory.py`, 8 idle terminals x
10 000 lines: 130 MiB of V8 heap for 23 MiB live, the same 30 s later; with the collection
1080 -> 921 MiB of summed RSS, `docs/benchmarks.md` sitting 5). The page is IdeA's own,
from `file://`.

A `--js-flags` the user already put in `QTWEBENGINE_CHROMIUM_FLAGS` is left alone (V8 takes one
list; theirs wins, the page then simply never collects). `IDEA_CHROMIUM_MEMORY_FLAGS=0` leaves
the flags out. Must run before Qt starts (before `webview.start`).
"""

from __future__ import annotations

from collections.abc import MutableMapping

#: Added to `QTWEBENGINE_CHROMIUM_FLAGS` (Chromium's switches; `--js-flags` is handed to V8).
MEMORY_FLAGS: tuple[str, ...] = ("--js-flags=--expose-gc",)


def apply(env: MutableMapping[str, str]) -> list[str]:
    """Append the `MEMORY_FLAGS` whose switch is not in `env["QTWEBENGINE_CHROMIUM_FLAGS"]`
    yet, unless `IDEA_CHROMIUM_MEMORY_FLAGS=0`; returns the flags added."""
    if env.get("IDEA_CHROMIUM_MEMORY_FLAGS") == "0":
        return []
    present = env.get("QTWEBENGINE_CHROMIUM_FLAGS", "").split()
    names = {flag.split("=", 1)[0] for flag in present}
    added = [flag for flag in MEMORY_FLAGS if flag.split("=", 1)[0] not in names]
    if added:
        env["QTWEBENGINE_CHROMIUM_FLAGS"] = " ".join([*present, *added])
    return added
