"""IdeA side of the PTY benchmark: flood and keystroke echo in a real cell of the real window.

The UI does not expose its xterm.js instances, so everything is observed from the page without
changing the UI: ``window.__ideaPush`` (the pump's entry point, looked up on every push) is
wrapped to see when bytes *arrive*, ``window.__ideaTerminalText`` tells when xterm.js has
*parsed* them, and the next ``requestAnimationFrame`` after that is taken as *painted* (xterm.js
registers its render frame while parsing, so ours runs after it in the same frame).
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Locator, Page

from e2e.ui import type_in, wait_terminal

# Flood: t0 = keydown of Enter; arrival = the marker seen in a push; parsed = the buffer text
# contains it (checked when the page is idle, since one textOf over 10k lines costs ms).
FLOOD_JS = r"""
({sid, marker}) => {
  const st = window.__benchFlood = {t0: null, arrive: null, parsed: null, painted: null,
    frames: 0, maxGap: 0, chars: 0, pushes: 0, textCostMs: null};
  const orig = window.__benchOrigPush ??= window.__ideaPush;
  let tail = '';
  const frame = (last) => requestAnimationFrame((t) => {
    st.frames++; st.maxGap = Math.max(st.maxGap, t - last);
    if (st.painted === null) frame(t);
  });
  addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && st.t0 === null) { st.t0 = performance.now(); frame(st.t0); }
  }, true);
  const check = () => requestIdleCallback(() => {
    const t = performance.now();
    const seen = window.__ideaTerminalText(sid).includes(marker);
    st.textCostMs = performance.now() - t;
    if (!seen) return check();
    st.parsed = t;
    requestAnimationFrame(() => { st.painted = performance.now(); });
  }, {timeout: 20});
  window.__ideaPush = (batch) => {
    const result = orig(batch);
    const text = (typeof batch === 'string' ? JSON.parse(batch) : batch)?.output?.[sid];
    if (text && st.t0 !== null && st.arrive === null) {
      st.chars += text.length; st.pushes++;
      const s = tail + text;
      tail = s.slice(-marker.length);
      if (s.includes(marker)) { st.arrive = performance.now(); check(); }
    }
    return result;
  };
}
"""

# Keystrokes at a `cat > /dev/null` prompt: t0 = keydown of `x`; arrival = a push with an `x`;
# parsed = the last buffer line is n x's (checked right after xterm's own parse task).
KEYS_JS = r"""
({sid}) => {
  const k = window.__benchKey = {active: true, n: 0, t0: 0, arrive: null, results: [], waiters: []};
  const orig = window.__benchOrigPush ??= window.__ideaPush;
  addEventListener('keydown', (e) => {
    if (k.active && e.key === 'x') { k.n++; k.t0 = performance.now(); k.arrive = null; }
  }, true);
  const lastLine = () => {
    const t = window.__ideaTerminalText(sid);
    return t.slice(t.lastIndexOf('\n') + 1);
  };
  const check = (n) => setTimeout(() => {
    if (k.n !== n) return;
    const line = lastLine();
    if (!(/^x+$/.test(line) && line.length >= n)) return check(n);
    const parsed = performance.now();
    requestAnimationFrame(() => {
      const painted = performance.now();
      k.results.push({arrive: k.arrive - k.t0, parsed: parsed - k.t0, painted: painted - k.t0});
      k.waiters.splice(0).forEach((w) => w());
    });
  }, 0);
  window.__ideaPush = (batch) => {
    const result = orig(batch);
    const text = (typeof batch === 'string' ? JSON.parse(batch) : batch)?.output?.[sid];
    if (k.active && text && k.arrive === null && text.includes('x')) {
      k.arrive = performance.now(); check(k.n);
    }
    return result;
  };
}
"""

# Resolves once the page recorded ``n`` keystroke results (shared with the reference page).
WAIT_KEY_JS = """(n) => new Promise((resolve, reject) => {
  const k = window.__benchKey;
  if (k.results.length >= n) return resolve();
  k.waiters.push(resolve);
  setTimeout(() => reject(new Error('no echo for keystroke ' + n)), 10000);
})"""

RENDERER_JS = """(sid) => {
  const el = document.querySelector(`[data-testid="terminal"][data-session-id="${sid}"]`);
  if (el.querySelector('.xterm-rows')) return 'dom';
  return el.querySelector('.xterm-screen canvas') ? 'webgl' : 'unknown';
}"""


def terminal_size(page: Page, cell: Locator, session: str) -> tuple[int, int]:
    """(cols, rows) of the cell's PTY, read with ``stty size`` (it follows the xterm size)."""
    type_in(page, cell, "clear; stty size | sed 's/^/SIZE=/'\n")
    text = wait_terminal(page, session, "\nSIZE=")
    rows, cols = text.rsplit("SIZE=", 1)[1].split()[:2]
    type_in(page, cell, "clear\n")
    return int(cols), int(rows)


def measure_keys(page: Page, count: int, gap_s: float = 0.03) -> list[dict[str, float]]:
    """Press ``x`` ``count`` times (after KEYS_JS or the reference page set ``__benchKey`` up);
    returns the in-page timings plus ``roundTrip`` (Python → CDP → page → Python) in ms."""
    out: list[dict[str, float]] = []
    for i in range(1, count + 1):
        t = time.perf_counter()
        page.keyboard.press("x")
        page.evaluate(WAIT_KEY_JS, i)
        trip = (time.perf_counter() - t) * 1000
        out.append({**page.evaluate("(i) => window.__benchKey.results[i]", i - 1), "roundTrip": trip})
        time.sleep(gap_s)
    return out


def keystroke_latency(page: Page, cell: Locator, session: str, count: int) -> list[dict[str, float]]:
    type_in(page, cell, "clear; cat > /dev/null\n")
    time.sleep(0.5)  # let cat start reading; the tty echoes either way
    page.evaluate(KEYS_JS, {"sid": session})
    try:
        return measure_keys(page, count)
    finally:
        page.evaluate("window.__benchKey.active = false")
        page.keyboard.press("Control+c")
        type_in(page, cell, "clear\n")


def flood(page: Page, cell: Locator, session: str, path: str, nonce: str, timeout_s: float) -> dict[str, Any]:
    """``cat path; echo END-42-nonce`` and wait, in the page, until the marker is in the buffer."""
    marker = f"END-42-{nonce}"
    type_in(page, cell, f"cat {path}; echo END-$((40+2))-{nonce}")
    time.sleep(0.3)  # let the typed command's echo settle before arming
    page.evaluate(FLOOD_JS, {"sid": session, "marker": marker})
    t = time.perf_counter()
    page.keyboard.press("Enter")
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
        "charsPushed": st["chars"], "textOfCostMs": st["textCostMs"],
    }
