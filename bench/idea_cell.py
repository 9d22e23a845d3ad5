"""IdeA side of the PTY benchmark: flood and keystroke echo in a real cell of the real window.

The UI does not expose its xterm.js instances, so everything is observed from the page without
changing the UI: ``window.__ideaPush`` (the pump's entry point, looked up on every push) is
wrapped to see when bytes *arrive*, ``window.__ideaTerminalText`` tells when xterm.js has
*parsed* them, and the next ``requestAnimationFrame`` after that is taken as *painted* (xterm.js
registers its render frame while parsing, so ours runs after it in the same frame).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from statistics import median
from typing import Any

from playwright.sync_api import Locator, Page, Playwright

from bench.idea_probes import FLOOD_JS, KEYS_JS, OWN_SHARE_JS, RENDERER_JS, WAIT_KEY_JS
from e2e.harness import IdeaApp, Xvfb
from e2e.ui import cell_menu, cells, open_shell, type_in, wait_for, wait_terminal


def terminal_size(page: Page, cell: Locator, session: str) -> tuple[int, int]:
    """(cols, rows) of the cell's PTY, read with ``stty size`` (it follows the xterm size)."""
    type_in(page, cell, "stty size | sed 's/^/SI''ZE=/'\n")  # the echoed command has no SIZE=
    text = wait_terminal(page, session, "SIZE=")
    rows, cols = text.rsplit("SIZE=", 1)[1].split()[:2]
    type_in(page, cell, "clear\n")
    return int(cols), int(rows)


def measure_keys(page: Page, count: int, gap_s: float = 0.03, until: str | None = None,
                 deadline: float = float("inf")) -> list[dict[str, Any]]:
    """Press ``x`` up to ``count`` times (after KEYS_JS or the reference page set ``__benchKey``
    up), stopping early once the JS expression ``until`` is true or at ``deadline``
    (``time.perf_counter()``). Returns the in-page timings (ms after the keydown) plus
    ``roundTrip``: Python → CDP → page → Python, in ms."""
    out: list[dict[str, Any]] = []
    base = int(page.evaluate("window.__benchKey.results.length"))
    for i in range(base + 1, base + count + 1):
        if time.perf_counter() > deadline or (until and page.evaluate(until)):
            break
        t = time.perf_counter()
        page.keyboard.press("x")
        page.evaluate(WAIT_KEY_JS, i)
        trip = (time.perf_counter() - t) * 1000
        out.append({**page.evaluate("(i) => window.__benchKey.results[i]", i - 1), "roundTrip": trip})
        time.sleep(gap_s)
    return out


def start_quiet_cat(page: Page, cell: Locator, session: str, tty_file: Path | None = None) -> None:
    """``cat > /dev/null`` in the cell, with the keystroke probe armed for its session; with
    ``tty_file``, the shell first writes its terminal's path (``/dev/pts/N``) there."""
    type_in(page, cell, (f"tty > {tty_file}; " if tty_file else "") + "clear; cat > /dev/null\n")
    time.sleep(0.5)  # let cat start reading; the tty echoes either way
    page.evaluate(KEYS_JS, {"sid": session})


def own_share(page: Page, session: str, tty: str, count: int, gap_s: float = 0.05) -> list[float]:
    """IdeA's own share of an echo (ms): from a byte written to the session's PTY slave (what the
    tty does when it echoes) to its arrival in a push, on the wall clock both sides share."""
    page.evaluate(OWN_SHARE_JS, {"sid": session, "marker": "Q"})
    out: list[float] = []
    fd = os.open(tty, os.O_WRONLY | os.O_NOCTTY)
    try:
        for i in range(count):
            t = time.time() * 1000
            os.write(fd, b"Q\x08 \x08")  # shown, then erased: the line stays all x's
            page.wait_for_function("(n) => window.__benchOwn.arrivals.length >= n", arg=i + 1,
                                   polling=5, timeout=10_000)
            out.append(float(page.evaluate("(i) => window.__benchOwn.arrivals[i]", i)) - t)
            time.sleep(gap_s)
    finally:
        os.close(fd)
    return out


def flood(page: Page, cell: Locator, session: str, command: str, marker: str, timeout_s: float,
          quiet: Locator | None = None, quiet_keys: int = 0, interrupt: bool = False,
          typing_s: float = float("inf")) -> dict[str, Any]:
    """Type ``command`` + Enter in ``cell`` and wait, in the page, until ``marker`` arrives and is
    in the buffer. With ``quiet`` (a cell running start_quiet_cat), up to ``quiet_keys``
    keystrokes are typed there during at most ``typing_s`` of the flood; with ``interrupt``,
    Ctrl+C is then pressed in the flooding cell (``marker`` should be the shell prompt)."""
    type_in(page, cell, command)
    time.sleep(0.3)  # let the typed command's echo settle before arming
    page.evaluate(FLOOD_JS, {"sid": session, "marker": marker})
    t = time.perf_counter()
    page.keyboard.press("Enter")
    keys: list[dict[str, Any]] = []
    if quiet is not None and quiet_keys > 0:
        quiet.locator('[data-testid="terminal"]').click()
        keys = measure_keys(page, quiet_keys, until="window.__benchFlood.arrive !== null",
                            deadline=t + typing_s)
    if interrupt and not page.evaluate("window.__benchFlood.arrive !== null"):
        cell.locator('[data-testid="terminal"]').click()
        page.keyboard.press("Control+c")
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
        "floodFrames": st["floodFrames"], "feedEmptyFrames": st["feedEmpty"],
        "frameGapP99Ms": sorted(st["frameGaps"])[max(0, round(0.99 * len(st["frameGaps"])) - 1)]
        if st["frameGaps"] else 0.0,
        "charsPushed": st["chars"], "textOfCostMs": st["textCostMs"], "insidePushS": st["pushMs"] / 1000,
        "pushGapP50Ms": median(st["gaps"] or [0]), "pushGapMaxMs": max(st["gaps"] or [0]),
        "acks": len(st["acks"]), "ackP50Ms": median(st["acks"] or [0]), "ackMaxMs": max(st["acks"] or [0]),
        "charsPerSecond": [c or 0 for c in st["perSecond"]],
        "quietKeys": [k for k in keys if k.get("duringFlood")],
        # None when the flood ended on its own before Ctrl+C was pressed
        "ctrlcToPromptMs": None if st["ctrlc"] is None or st["ctrlc"] > st["arrive"]
        else st["arrive"] - st["ctrlc"],
    }


def run_idea(pw: Playwright, tmp: Path, payload: Path, nonce: str, keys: int, quiet_keys: int,
             timeout_s: float, app_env: dict[str, str] | None = None,
             keep_log: Path | None = None, feed: dict[str, int] | None = None) -> dict[str, Any]:
    """The real app under a private Xvfb: a flooding cell on top, a quiet ``cat`` cell below.
    ``feed``: the page's feed tuning (``FeedScheduler.tune``, ADR 020), for measurements."""
    xvfb = Xvfb()
    app = IdeaApp(pw, xvfb.start(), tmp / "data", tmp / "proj", extra_env=app_env)
    try:
        page = app.start()
        if feed:
            page.evaluate("(t) => window.__ideaFeed.tune(t)", feed)
        cell = cells(page).first
        session = open_shell(page, cell)
        cell_menu(cell, "split-column")
        wait_for(lambda: cells(page).count() == 2, what="two cells")
        quiet = cells(page).nth(1)
        quiet_session = open_shell(page, quiet)
        tty_file = tmp / "quiet.tty"
        start_quiet_cat(page, quiet, quiet_session, tty_file)
        cols, rows = terminal_size(page, cell, session)
        out: dict[str, Any] = {
            "cols": cols, "rows": rows, "renderer": page.evaluate(RENDERER_JS, session),
            "webgl2Available": page.evaluate("!!document.createElement('canvas').getContext('webgl2')"),
        }
        quiet.locator('[data-testid="terminal"]').click()
        out["keys"] = measure_keys(page, keys)
        if keys > 0:
            wait_for(lambda: tty_file.exists() and tty_file.read_text().strip(), what="quiet tty")
            out["ownShareMs"] = own_share(page, quiet_session, tty_file.read_text().strip(),
                                          min(keys, 50))
        out["flood"] = flood(page, cell, session, f"cat {payload}; echo END-$((40+2))-{nonce}",
                             f"END-42-{nonce}", timeout_s)
        if quiet_keys > 0:  # again, typing in the quiet cell meanwhile, then Ctrl+C
            type_in(page, cell, "PS1='PROMPT-OK> '\n")
            out["busy"] = flood(page, cell, session, f"cat {payload}", "PROMPT-OK>", timeout_s, quiet,
                                quiet_keys, interrupt=True, typing_s=out["flood"]["parsedS"] * 0.6)
        return out
    finally:
        app.stop()
        xvfb.stop()
        if keep_log is not None:
            keep_log.write_bytes(app.log_path.read_bytes() if app.log_path.exists() else b"")
