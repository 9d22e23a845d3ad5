"""Memory of IdeA's own processes (Python + Qt WebEngine, not the sessions' shells or CLIs).

    .venv/bin/python bench/memory.py [--terminals 8] [--lines 10000] [--cycles 200] [--json out.json]

The real app under Xvfb with a grid of `--terminals` cells (seeded in `.ideai/layouts.json`):
RSS/PSS with the cells empty, then with a shell in each that printed `--lines` lines of
scrollback and went idle (per terminal = the difference ÷ terminals); whether a terminal keeps
at most its scrollback setting (10 000 lines) after printing twice that; then `--cycles` shells
opened, filled and closed one after the other in one cell (through the page's bridge, so the
UI mounts and disposes each terminal) and the RSS after, against the RSS before. Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from bench.idea_grid import memory_kib, seed_grid, wait_cells  # noqa: E402
from e2e.harness import IdeaApp, Xvfb  # noqa: E402
from e2e.ui import cells, open_shell, terminal_text, type_in, wait_for  # noqa: E402

SCROLLBACK_LINES = 10_000  # the xterm.js setting (terminal-hub.svelte.ts)

# Opens a shell in the leaf through the page's bridge, fills it, waits for its end; `n` times.
CYCLE_JS = r"""
async ([root, leaf, n, lines]) => {
  const api = window.pywebview.api.terminals;
  const ok = async (p) => {
    const r = await p;
    if (r && r.error) throw new Error(JSON.stringify(r.error));
    return r?.ok;
  };
  for (let i = 0; i < n; i++) {
    const opened = await ok(api.openShell(root, leaf, 80, 24));
    const sid = opened.sessionId;
    await ok(api.attach(sid));
    await ok(api.write(sid, 0, `seq -f 'cycle-line-%g' 1 ${lines}; exit\n`));
    const t0 = performance.now();
    while (!window.__ideaTerminalText(sid).includes('process exited') && performance.now() - t0 < 20000) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
"""


def settle(pid: int, seconds: float = 3.0) -> dict[str, Any]:
    time.sleep(seconds)
    return memory_kib(pid)


def fill(page: Page, index: int, lines: int) -> str:
    cell = cells(page).nth(index)
    session = open_shell(page, cell)
    type_in(page, cell, f"seq -f 'scrollback-line-%g-padded-to-look-like-agent-output' 1 {lines}; "
                        f"echo FILLED-$((1+1))\n")
    wait_for(lambda: "FILLED-2" in terminal_text(page, session), timeout_s=120, what="filled")
    return session


def buffer_lines(page: Page, session: str) -> int:
    return int(page.evaluate("(s) => window.__ideaTerminalText(s).split('\\n').length", session))


def run(terminals: int, lines: int, cycles: int, app_env: dict[str, str] | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="idea-mem-") as tmp_s, sync_playwright() as pw:
        tmp = Path(tmp_s)
        xvfb = Xvfb()
        display = xvfb.start()
        try:
            seed_grid(pw, display, tmp / "data", tmp / "proj", terminals)
            app = IdeaApp(pw, display, tmp / "data", tmp / "proj", extra_env=app_env)
            try:
                page = app.start()
                assert app.proc is not None
                pid = app.proc.pid
                wait_cells(page, terminals)
                empty = settle(pid)
                sessions = [fill(page, i, lines) for i in range(terminals)]
                idle = settle(pid, 5.0)
                type_in(page, cells(page).first,
                        f"seq -f 'more-line-%g' 1 {2 * SCROLLBACK_LINES}; echo MORE-$((2+2))\n")
                wait_for(lambda: "MORE-4" in terminal_text(page, sessions[0]), timeout_s=120,
                         what="more lines")
                kept = buffer_lines(page, sessions[0])
                rows = int(page.evaluate("""(s) => { const el = document.querySelector(
                    `[data-testid="terminal"][data-session-id="${s}"] .xterm-rows`);
                    return el ? el.children.length : 0; }""", sessions[0]))
                cycle_before = after_cycles = None
                if cycles > 0:
                    root = str((tmp / "proj").resolve())
                    leaf = "leaf-0"
                    type_in(page, cells(page).first, "exit\n")
                    page.evaluate(CYCLE_JS, [root, leaf, min(20, cycles), 2000])  # warm-up
                    cycle_before = settle(pid)
                    page.evaluate(CYCLE_JS, [root, leaf, cycles, 2000])
                    after_cycles = settle(pid, 5.0)
            finally:
                app.stop()
        finally:
            xvfb.stop()
    per_terminal = (idle["rssKiB"] - empty["rssKiB"]) / terminals
    return {
        "terminals": terminals, "lines": lines,
        "emptyKiB": empty, "idleKiB": idle,
        "perTerminalRssKiB": per_terminal,
        "scrollback": {"setting": SCROLLBACK_LINES, "bufferLines": kept, "rows": rows,
                       "bounded": kept <= SCROLLBACK_LINES + max(rows, 100)},
        "cycles": cycles,
        "beforeCyclesKiB": cycle_before, "afterCyclesKiB": after_cycles,
        "cycleGrowthRssKiB": (after_cycles["rssKiB"] - cycle_before["rssKiB"])
        if after_cycles and cycle_before else None,
        "host": {"cpus": os.cpu_count(), "load": os.getloadavg()[0]},
    }


def table(r: dict[str, Any]) -> str:
    mib = 1024
    rows = [
        ("IdeA RSS / PSS, empty grid (MiB)",
         f"{r['emptyKiB']['rssKiB'] / mib:.0f} / {r['emptyKiB']['pssKiB'] / mib:.0f}"),
        (f"IdeA RSS / PSS, {r['terminals']} idle terminals x {r['lines']} lines (MiB)",
         f"{r['idleKiB']['rssKiB'] / mib:.0f} / {r['idleKiB']['pssKiB'] / mib:.0f}"),
        ("  per terminal RSS (MiB)", f"{r['perTerminalRssKiB'] / mib:.1f}"),
        ("  per process RSS (MiB)", ", ".join(f"{k} {v / mib:.0f}" for k, v in
                                              r["idleKiB"]["perProcessRssKiB"].items())),
        ("scrollback kept after 20k lines (lines / setting)",
         f"{r['scrollback']['bufferLines']} / {r['scrollback']['setting']}"),
    ]
    if r["cycleGrowthRssKiB"] is not None:
        rows.append((f"{r['cycles']} shells opened and closed: RSS growth (MiB)",
                     f"{r['cycleGrowthRssKiB'] / mib:+.1f}"))
    return "\n".join(f"{a:<58}{b:>30}" for a, b in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--terminals", type=int, default=8)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--app-env", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    result = run(args.terminals, args.lines, args.cycles,
                 dict(item.split("=", 1) for item in args.app_env))
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
