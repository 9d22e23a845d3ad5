"""IdeA side of the PTY benchmark: flood and keystroke echo in a real cell of the real window.

The UI does not expose its xterm.js instances, so everything is observed from the page without
changing the UI: ``window.__ideaPush`` (the pump's entry point, looked up on every push) is
wrapped to see when bytes *arrive*, ``window.__ideaTerminalText`` tells when xterm.js has
*parsed* them, and the next ``requestAnimationFrame`` after that is taken as *painted* (xterm.js
registers its render frame while parsing, so ours runs after it in the same frame).
"""

from __future__ import annotations

import time
from statistics import median
from typing import Any

from playwright.sync_api import Locator, Page

from bench.idea_probes import FLOOD_JS, KEYS_JS, WAIT_KEY_JS
from e2e.ui import type_in, wait_terminal


def terminal_size(page: Page, cell: Locator, session: str) -> tuple[int, int]:
    """(cols, rows) of the cell's PTY, read with ``stty size`` (it follows the xterm size)."""
    type_in(page, cell, "stty size | sed 's/^/SI''ZE=/'\n")  # the echoed command has no SIZE=
    text = wait_terminal(page, session, "SIZE=")
    rows, cols = text.rsplit("SIZE=", 1)[1].split()[:2]
    type_in(page, cell, "clear\n")
    return int(cols), int(rows)


def measure_keys(page: Page, count: int, gap_s: float = 0.03,
                 until: str | None = None) -> list[dict[str, Any]]:
    """Press ``x`` up to ``count`` times (after KEYS_JS or the reference page set ``__benchKey``
    up), stopping early once the JS expression ``until`` is true; returns the in-page timings
    plus ``roundTrip`` (Python → CDP → page → Python) in ms."""
    out: list[dict[str, Any]] = []
    base = int(page.evaluate("window.__benchKey.results.length"))
    for i in range(base + 1, base + count + 1):
        if until and page.evaluate(until):
            break
        t = time.perf_counter()
        page.keyboard.press("x")
        page.evaluate(WAIT_KEY_JS, i)
        trip = (time.perf_counter() - t) * 1000
        out.append({**page.evaluate("(i) => window.__benchKey.results[i]", i - 1), "roundTrip": trip})
        time.sleep(gap_s)
    return out


def start_quiet_cat(page: Page, cell: Locator, session: str) -> None:
    """``cat > /dev/null`` in the cell, with the keystroke probe armed for its session."""
    type_in(page, cell, "clear; cat > /dev/null\n")
    time.sleep(0.5)  # let cat start reading; the tty echoes either way
    page.evaluate(KEYS_JS, {"sid": session})


def flood(page: Page, cell: Locator, session: str, path: str, nonce: str, timeout_s: float,
          quiet: Locator | None = None, quiet_keys: int = 0) -> dict[str, Any]:
    """``cat path; echo END-42-nonce`` and wait, in the page, until the marker is in the buffer.
    With ``quiet`` (a cell running start_quiet_cat), up to ``quiet_keys`` keystrokes are typed
    there while the flood runs."""
    marker = f"END-42-{nonce}"
    type_in(page, cell, f"cat {path}; echo END-$((40+2))-{nonce}")
    time.sleep(0.3)  # let the typed command's echo settle before arming
    page.evaluate(FLOOD_JS, {"sid": session, "marker": marker})
    t = time.perf_counter()
    page.keyboard.press("Enter")
    keys: list[dict[str, Any]] = []
    if quiet is not None and quiet_keys > 0:
        quiet.locator('[data-testid="terminal"]').click()
        keys = measure_keys(page, quiet_keys, until="window.__benchFlood.arrive !== null")
    page.wait_for_function("window.__benchFlood.painted !== null", polling=250,
                           timeout=timeout_s * 1000)
    wall = time.perf_counter() - t
    st: dict[str, Any] = page.evaluate("window.__benchFlood")
    return {
        "wallS": wall,
        "arriveS": (st["arrive"] - st["t0"]) / 1000,
        "parsedS": (st["parsed"] - st["t0"]) / 1000,
        "paintedS": (st["painted"] - st["t0"]) / 1000,
        "frames": st["frames"], "maxFrameGapMs": st["maxGap"], "pushes": st["pushes"],
        "charsPushed": st["chars"], "textOfCostMs": st["textCostMs"], "insidePushS": st["pushMs"] / 1000,
        "pushGapP50Ms": median(st["gaps"] or [0]), "pushGapMaxMs": max(st["gaps"] or [0]),
        "acks": len(st["acks"]), "ackP50Ms": median(st["acks"] or [0]), "ackMaxMs": max(st["acks"] or [0]),
        "quietKeys": [k for k in keys if k.get("duringFlood")],
    }
