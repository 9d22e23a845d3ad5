"""Memory of IdeA's own processes (Python + Qt WebEngine, not the sessions' shells or CLIs).

    .venv/bin/python bench/memory.py [--terminals 8] [--lines 10000] [--cycles 200] [--json out.json]

The real app under Xvfb with a grid of `--terminals` cells (seeded in `.ideai/layouts.json`):
RSS/PSS with the cells empty, then with a shell in each that printed `--lines` lines of
scrollback and went idle (per terminal = the difference ÷ terminals); whether a terminal keeps
at most its scrollback setting (10 000 lines) after printing twice that; then `--cycles` shells
opened, filled and closed one after the other in one cell (through the page's bridge, so the
UI mounts and disposes each terminal) and the RSS after, against the RSS before. Before the app,
the engine's floor (`engine_floor`): a bare pywebview Qt window, no IdeA code, showing an empty
page with the Qt and Chromium settings IdeA's window adapter picks. Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from app.adapters.window import chromium_memory, software_gl  # noqa: E402
from bench.idea_grid import memory_kib, seed_grid, wait_cells  # noqa: E402
from e2e.harness import IdeaApp, Xvfb  # noqa: E402
from e2e.ui import cells, open_shell, type_in, wait_for  # noqa: E402

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
    while (!window.__ideaTerminalTail(sid, 40).includes('process exited') && performance.now() - t0 < 20000) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
"""


# The engine alone: pywebview's Qt window (IdeA's size, app/adapters/window/pywebview_window.py)
# showing an empty page; no IdeA module is imported.
BARE_WINDOW = ("import webview; webview.create_window('floor', html='<html><body></body></html>', "
               "width=1400, height=900); webview.start(gui='qt')")


def engine_floor(display: str, settle_s: float = 8.0) -> dict[str, Any]:
    """`memory_kib` of a bare pywebview Qt WebEngine window with an empty page, `settle_s`
    seconds after it started: what Python + Qt WebEngine cost before IdeA adds anything. Its
    environment is IdeA's: the same `software_gl.apply` and `chromium_memory.apply` the window
    adapter runs, `--no-sandbox` as root as the e2e harness does (KiB, as `memory_kib`)."""
    env = dict(os.environ, DISPLAY=display)
    env.pop("WAYLAND_DISPLAY", None)
    if os.geteuid() == 0:
        env["QTWEBENGINE_CHROMIUM_FLAGS"] = (env.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
                                             + " --no-sandbox").strip()
    software_gl.apply(env)
    chromium_memory.apply(env)
    proc = subprocess.Popen([sys.executable, "-c", BARE_WINDOW], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # the renderer exists once the page loaded; then let the engine settle
        wait_for(lambda: any(p["kind"] == "renderer" for p in memory_kib(proc.pid)["processes"]),
                 timeout_s=30, what="the bare window's renderer")
        return settle(proc.pid, settle_s)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def settle(pid: int, seconds: float = 3.0) -> dict[str, Any]:
    time.sleep(seconds)
    return memory_kib(pid)


def page_memory(page: Page, collect: bool = False) -> dict[str, Any]:
    """Inside the renderer, over CDP: V8's heap (`Runtime.getHeapUsage`: used/total bytes,
    embedder and backing-store bytes where this Chromium reports them), the page's metrics
    (`Performance.getMetrics`: JSHeapUsedSize, Nodes, LayoutObjects…), DOM counters
    (`Memory.getDOMCounters`), and per terminal its buffer lines, size, renderer and WebGL atlas
    (`window.__ideaTerminalStats`). `collect`: then force a full GC
    (`HeapProfiler.collectGarbage`) and read the heap again (`heapAfterGc`)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Performance.enable")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        out: dict[str, Any] = {
            "heap": cdp.send("Runtime.getHeapUsage"),
            "metrics": {k: metrics[k] for k in ("JSHeapUsedSize", "JSHeapTotalSize", "Nodes",
                                                "LayoutObjects", "JSEventListeners", "Documents")
                        if k in metrics},
            "dom": cdp.send("Memory.getDOMCounters"),
            "terminals": page.evaluate(
                "() => window.__ideaTerminalStats ? window.__ideaTerminalStats() : null"),
        }
        if collect:
            cdp.send("HeapProfiler.enable")
            cdp.send("HeapProfiler.collectGarbage")
            out["heapAfterGc"] = cdp.send("Runtime.getHeapUsage")
        return out
    finally:
        cdp.detach()


def fill(page: Page, index: int, lines: int) -> str:
    cell = cells(page).nth(index)
    session = open_shell(page, cell)
    type_in(page, cell, f"seq -f 'scrollback-line-%g-padded-to-look-like-agent-output' 1 {lines}; "
                        f"echo FILLED-$((1+1))\n")
    wait_for(lambda: "FILLED-2" in tail(page, session), timeout_s=120, what="filled")
    return session


def tail(page: Page, session: str, lines: int = 40) -> str:
    """The buffer's last lines: polling the whole text (`e2e.ui.terminal_text`, 10 000 lines copied
    and sent over CDP ten times a second) leaves the page's heap full of the probe's garbage."""
    return str(page.evaluate("([s, n]) => window.__ideaTerminalTail(s, n)", [session, lines]))


def buffer_lines(page: Page, session: str) -> int:
    return int(page.evaluate("(s) => window.__ideaTerminalText(s).split('\\n').length", session))


# WebGL in IdeA's window under Xvfb: Qt's GL compositing (not the software scene graph, which
# turns the GPU off) and Mesa's llvmpipe past Chromium's blocklist.
WEBGL_ENV = {"IDEA_SOFTWARE_RENDERING": "0"}
WEBGL_FLAGS = "--ignore-gpu-blocklist"


def truecolor_flood(folder: Path, lines: int, cols: int = 80, per_part: int = 20) -> Path:
    """`lines` lines of `cols` cells, each cell its own 24-bit foreground and background (SGR
    38;2 / 48;2): every cell is a new glyph for the WebGL atlas (character x fg x bg). Written
    in parts of `per_part` lines (`part-00000.txt`…) that the check prints with a pause between
    them, so every part is painted whatever the machine's speed: the atlas only caches glyphs
    it draws, and an unpaced flood skips frames (the count would follow the CPU load)."""
    folder.mkdir(parents=True, exist_ok=True)
    n = 0
    for part in range(0, lines, per_part):
        out = []
        for _ in range(min(per_part, lines - part)):
            row = []
            for _ in range(cols):
                fg, bg = n * 2654435761 & 0xFFFFFF, n * 40503 & 0xFFFFFF
                row.append(f"\x1b[38;2;{fg >> 16};{fg >> 8 & 255};{fg & 255}m"
                           f"\x1b[48;2;{bg >> 16};{bg >> 8 & 255};{bg & 255}m{chr(0x21 + n % 94)}")
                n += 1
            out.append("".join(row) + "\x1b[0m\n")
        (folder / f"part-{part // per_part:05d}.txt").write_text("".join(out), encoding="utf-8")
    return folder


def atlas_check(pw: Any, display: str, tmp: Path, lines: int) -> dict[str, Any]:
    """One terminal on the WebGL renderer (`WEBGL_ENV`) printing `truecolor_flood(lines)`: the
    shared glyph atlas read from the page (`__ideaTerminalStats().atlas`: pages, bytes, budget,
    clears, recycles), the JS heap after a forced GC, and the RSS/PSS of IdeA's processes
    before and after. Without WebGL in the window
    the check says so (`renderer: dom`) and measures nothing."""
    flood = truecolor_flood(tmp / "truecolor", lines)
    flags = WEBGL_FLAGS + (" --no-sandbox" if os.geteuid() == 0 else "")
    app = IdeaApp(pw, display, tmp / "atlas-data", tmp / "atlas-proj",
                  extra_env={**WEBGL_ENV, "QTWEBENGINE_CHROMIUM_FLAGS":
                             (os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "") + " " + flags).strip()})
    (tmp / "atlas-proj").mkdir(parents=True, exist_ok=True)
    try:
        page = app.start()
        assert app.proc is not None
        cell = cells(page).first
        session = open_shell(page, cell)
        type_in(page, cell, "echo READY-$((3+3))\n")
        wait_for(lambda: "READY-6" in tail(page, session), what="shell ready")
        before = settle(app.proc.pid, 2.0)
        first = page.evaluate("() => window.__ideaTerminalStats()")
        renderer = next((t["renderer"] for t in first["terminals"] if t["sessionId"] == session),
                        "none")
        peak = {"pages": 0, "bytes": 0}
        type_in(page, cell, f"for f in {flood}/part-*; do cat $f; sleep 0.05; done; "
                            "echo ATLAS-$((2+2))\n")
        deadline = time.monotonic() + 300
        while "ATLAS-4" not in tail(page, session) and time.monotonic() < deadline:
            atlas = page.evaluate("() => window.__ideaTerminalStats().atlas")
            peak = {k: max(peak[k], atlas[k]) for k in peak}
            time.sleep(0.2)
        time.sleep(1.0)
        last = page.evaluate("() => window.__ideaTerminalStats()")
        after = settle(app.proc.pid, 3.0)
        heap = page_memory(page, collect=True)
        after_gc = settle(app.proc.pid, 2.0)
    finally:
        app.stop()
    return {"renderer": renderer, "floodLines": lines, "floodCells": lines * 80,
            "atlasBefore": first["atlas"], "atlasAfter": last["atlas"], "atlasPeakSeen": peak,
            "beforeKiB": before, "afterKiB": after, "afterGcKiB": after_gc, "page": heap,
            "bounded": renderer == "webgl"
            and max(peak["bytes"], last["atlas"]["bytes"]) <= last["atlas"]["maxBytes"] * 2}


def run(terminals: int, lines: int, cycles: int, app_env: dict[str, str] | None = None,
        idle_s: float = 30.0, atlas_lines: int = 6000) -> dict[str, Any]:
    """`idle_s`: a second reading that long after the first (5 s after the last fill), before
    the page's garbage is collected by force (`afterGcKiB`); `atlas_lines`: the WebGL atlas
    check's truecolor flood (`atlas_check`; 0: skipped)."""
    with tempfile.TemporaryDirectory(prefix="idea-mem-") as tmp_s, sync_playwright() as pw:
        tmp = Path(tmp_s)
        xvfb = Xvfb()
        display = xvfb.start()
        try:
            floor = engine_floor(display)
            seed_grid(pw, display, tmp / "data", tmp / "proj", terminals)
            app = IdeaApp(pw, display, tmp / "data", tmp / "proj", extra_env=app_env)
            try:
                page = app.start()
                assert app.proc is not None
                pid = app.proc.pid
                wait_cells(page, terminals)
                empty = settle(pid)
                empty_page = page_memory(page)
                sessions = [fill(page, i, lines) for i in range(terminals)]
                idle = settle(pid, 5.0)
                idle_page = page_memory(page)
                late = settle(pid, idle_s) if idle_s > 0 else None
                late_page = page_memory(page) if idle_s > 0 else None
                gc_page = page_memory(page, collect=True)
                after_gc = settle(pid, 2.0)
                type_in(page, cells(page).first,
                        f"seq -f 'more-line-%g' 1 {2 * SCROLLBACK_LINES}; echo MORE-$((2+2))\n")
                wait_for(lambda: "MORE-4" in tail(page, sessions[0]), timeout_s=120,
                         what="more lines")
                kept = buffer_lines(page, sessions[0])
                stats = page.evaluate("() => window.__ideaTerminalStats()")
                rows = int(page.evaluate("""(s) => { const el = document.querySelector(
                    `[data-testid="terminal"][data-session-id="${s}"] .xterm-rows`);
                    return el ? el.children.length : 0; }""", sessions[0]))
                cycle_before = after_cycles = None
                if cycles > 0:
                    root = str((tmp / "proj").resolve())
                    leaf = "leaf-0"
                    type_in(page, cells(page).first, "exit\n")
                    page.evaluate(CYCLE_JS, [root, leaf, min(20, cycles), 2000])  # warm-up
                    cycle_before = settle(pid, 5.0)  # past the page's quiet collection (3 s)
                    page.evaluate(CYCLE_JS, [root, leaf, cycles, 2000])
                    after_cycles = settle(pid, 5.0)
            finally:
                app.stop()
            atlas = atlas_check(pw, display, tmp, atlas_lines) if atlas_lines > 0 else None
        finally:
            xvfb.stop()
    per_terminal = (idle["rssKiB"] - empty["rssKiB"]) / terminals
    return {
        "terminals": terminals, "lines": lines, "floorKiB": floor,
        "emptyKiB": empty, "idleKiB": idle, "idleLateKiB": late, "idleS": idle_s,
        "afterGcKiB": after_gc, "idleLatePage": late_page,
        "emptyPage": empty_page, "idlePage": idle_page, "gcPage": gc_page,
        "perTerminalRssKiB": per_terminal,
        "scrollback": {"setting": SCROLLBACK_LINES, "bufferLines": kept, "rows": rows,
                       "bounded": kept <= SCROLLBACK_LINES + max(rows, 100),
                       # xterm's own buffer of every terminal: scrollback + screen rows at most
                       "terminals": stats["terminals"],
                       "allBounded": all(t["bufferLines"] <= t["scrollback"] + t["rows"]
                                         and t["scrollback"] == SCROLLBACK_LINES
                                         for t in stats["terminals"])},
        "cycles": cycles, "atlas": atlas,
        "beforeCyclesKiB": cycle_before, "afterCyclesKiB": after_cycles,
        "cycleGrowthRssKiB": (after_cycles["rssKiB"] - cycle_before["rssKiB"])
        if after_cycles and cycle_before else None,
        # the "before" reading may still hold uncollected garbage (the page collects after
        # 1 M characters and 3 s of quiet); against the idle grid both sides are collected
        "cycleVsIdleRssKiB": after_cycles["rssKiB"] - idle["rssKiB"] if after_cycles else None,
        "host": {"cpus": os.cpu_count(), "load": os.getloadavg()[0]},
    }


def table(r: dict[str, Any]) -> str:
    mib = 1024
    rows = [
        ("engine floor: bare pywebview Qt window, empty page: RSS / PSS / USS (MiB)",
         f"{r['floorKiB']['rssKiB'] / mib:.0f} / {r['floorKiB']['pssKiB'] / mib:.0f} / "
         f"{r['floorKiB']['ussKiB'] / mib:.0f}"),
        *breakdown(r["floorKiB"], uss=False),
        ("IdeA RSS / PSS, empty grid (MiB)",
         f"{r['emptyKiB']['rssKiB'] / mib:.0f} / {r['emptyKiB']['pssKiB'] / mib:.0f}"),
        (f"IdeA RSS / PSS, {r['terminals']} idle terminals x {r['lines']} lines (MiB)",
         f"{r['idleKiB']['rssKiB'] / mib:.0f} / {r['idleKiB']['pssKiB'] / mib:.0f}"),
        ("  per terminal RSS (MiB)", f"{r['perTerminalRssKiB'] / mib:.1f}"),
        ("  per process RSS (MiB)", ", ".join(f"{k} {v / mib:.0f}" for k, v in
                                              r["idleKiB"]["perProcessRssKiB"].items())),
        *breakdown(r["idleKiB"]),
        *([(f"  {r['idleS']:.0f} s later: RSS / PSS (MiB)",
             f"{r['idleLateKiB']['rssKiB'] / mib:.0f} / {r['idleLateKiB']['pssKiB'] / mib:.0f}")]
          if r.get("idleLateKiB") else []),
        ("  after a forced GC in the page: RSS / PSS (MiB)",
         f"{r['afterGcKiB']['rssKiB'] / mib:.0f} / {r['afterGcKiB']['pssKiB'] / mib:.0f}"),
        ("  JS heap used/total: empty, idle, later, after GC (MiB)",
         ", ".join(f"{h['usedSize'] / mib / mib:.0f}/{h['totalSize'] / mib / mib:.0f}" for h in
                   (r["emptyPage"]["heap"], r["idlePage"]["heap"],
                    (r["idleLatePage"] or r["idlePage"])["heap"], r["gcPage"]["heapAfterGc"]))),
        ("  array buffers (backing store), idle / after GC (MiB)",
         f"{r['idlePage']['heap'].get('backingStorageSize', 0) / mib / mib:.0f} / "
         f"{r['gcPage']['heapAfterGc'].get('backingStorageSize', 0) / mib / mib:.0f}"),
        ("  DOM nodes, empty -> idle",
         f"{r['emptyPage']['dom']['nodes']} -> {r['idlePage']['dom']['nodes']}"),
        ("scrollback kept after 20k lines (lines / setting)",
         f"{r['scrollback']['bufferLines']} / {r['scrollback']['setting']}"),
        ("  every terminal's xterm buffer <= scrollback + rows",
         f"{r['scrollback']['allBounded']} (max "
         f"{max(t['bufferLines'] for t in r['scrollback']['terminals'])} lines)"),
    ]
    a = r.get("atlas")
    if a:
        rows.append((f"WebGL atlas, {a['floodCells']} truecolor cells ({a['renderer']}): "
                     "pages / MiB", f"{a['atlasAfter']['pages']} / "
                     f"{a['atlasAfter']['bytes'] / mib / mib:.0f} (peak seen "
                     f"{a['atlasPeakSeen']['bytes'] / mib / mib:.0f}, budget "
                     f"{a['atlasAfter']['maxBytes'] / mib / mib:.0f})"))
        rows.append(("  atlas clears / recycles; IdeA RSS / PSS growth (MiB)",
                     f"{a['atlasAfter'].get('clears', 0)} / {a['atlasAfter']['recycles']}; "
                     f"{(a['afterKiB']['rssKiB'] - a['beforeKiB']['rssKiB']) / mib:+.0f} / "
                     f"{(a['afterKiB']['pssKiB'] - a['beforeKiB']['pssKiB']) / mib:+.0f}"))
        rows.append(("  after a forced GC: RSS / PSS growth (MiB)",
                     f"{(a['afterGcKiB']['rssKiB'] - a['beforeKiB']['rssKiB']) / mib:+.0f} / "
                     f"{(a['afterGcKiB']['pssKiB'] - a['beforeKiB']['pssKiB']) / mib:+.0f}"))
    if r["cycleGrowthRssKiB"] is not None:
        rows.append((f"{r['cycles']} shells opened and closed: RSS growth (MiB)",
                     f"{r['cycleGrowthRssKiB'] / mib:+.1f}"))
        rows.append(("  RSS after them - RSS of the idle grid (MiB)",
                     f"{r['cycleVsIdleRssKiB'] / mib:+.1f}"))
    return "\n".join(f"{a:<58}{b:>30}" for a, b in rows)


def breakdown(m: dict[str, Any], uss: bool = True) -> list[tuple[str, str]]:
    """One row per process kind: RSS / PSS / USS (private) in MiB; `uss`: then a row of the
    summed USS."""
    kinds: dict[str, list[int]] = {}
    for proc in m.get("processes", []):
        k = kinds.setdefault(proc["kind"], [0, 0, 0, 0])
        k[0] += proc["rssKiB"]
        k[1] += proc["pssKiB"]
        k[2] += proc["ussKiB"]
        k[3] += 1
    rows = [(f"  {kind} x{k[3]}: RSS / PSS / USS (MiB)",
             f"{k[0] / 1024:.0f} / {k[1] / 1024:.0f} / {k[2] / 1024:.0f}")
            for kind, k in sorted(kinds.items(), key=lambda kv: -kv[1][0])]
    if uss:
        rows.append(("  all: USS (MiB)", f"{m.get('ussKiB', 0) / 1024:.0f}"))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--terminals", type=int, default=8)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--idle-s", type=float, default=30.0,
                        help="second idle reading this many seconds after the first (0: none)")
    parser.add_argument("--atlas-lines", type=int, default=6000,
                        help="lines of the WebGL atlas check's truecolor flood (0: skip it)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--app-env", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    result = run(args.terminals, args.lines, args.cycles,
                 dict(item.split("=", 1) for item in args.app_env), args.idle_s,
                 args.atlas_lines)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
