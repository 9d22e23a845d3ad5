"""Sixteen terminals flooding at once in one IdeA window, plus one quiet terminal (issue 11).

    .venv/bin/python bench/flood16.py [--floods 16] [--keys 60] [--menus 10] [--json out.json]
        [--feed chunkChars=65536 --feed maxOutstanding=4]

The real app under Xvfb with a grid of floods + 1 cells (seeded in `.ideai/layouts.json`). Each
flooding cell runs ``while :; do cat payload; done``; once all stream, measured in the page:
keystroke → echo in the quiet cell (``cat > /dev/null``: arrives / painted), a cell menu opened
by a click until painted (the window's responsiveness), characters arriving per second over all
terminals, then Ctrl+C in each flooding cell → its prompt arriving, then painted. Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.idea_cell import measure_keys, start_quiet_cat  # noqa: E402
from bench.idea_grid import ARRIVALS_JS, MENU_JS, WATCH_JS, seed_grid, wait_cells  # noqa: E402
from bench.pty_throughput import make_payload, pct  # noqa: E402
from e2e.harness import IdeaApp, Xvfb  # noqa: E402
from e2e.ui import cells, open_shell, type_in  # noqa: E402

PROMPT = "PROMPT-OK> "


def stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {}
    return {"n": len(values), "p50Ms": statistics.median(values), "p99Ms": pct(values, 99),
            "maxMs": max(values), "valuesMs": [round(v, 1) for v in values]}


def run(floods: int, keys: int, menus: int, settle_s: float,
        app_env: dict[str, str] | None = None, feed: dict[str, int] | None = None) -> dict[str, Any]:
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="idea-flood16-") as tmp_s, sync_playwright() as pw:
        tmp = Path(tmp_s)
        payload = tmp / "payload.txt"
        make_payload(payload, 5, "flood16")
        xvfb = Xvfb()
        display = xvfb.start()
        try:
            seed_grid(pw, display, tmp / "data", tmp / "proj", floods + 1)
            app = IdeaApp(pw, display, tmp / "data", tmp / "proj", extra_env=app_env)
            try:
                page = app.start()
                wait_cells(page, floods + 1)
                if feed:
                    page.evaluate("(t) => window.__ideaFeed.tune(t)", feed)
                sessions = [open_shell(page, cells(page).nth(i)) for i in range(floods + 1)]
                quiet_cell, quiet = cells(page).nth(floods), sessions[floods]
                start_quiet_cat(page, quiet_cell, quiet)
                for i in range(floods):
                    type_in(page, cells(page).nth(i), f"PS1='{PROMPT}'\n")
                page.evaluate(ARRIVALS_JS)
                for i in range(floods):
                    type_in(page, cells(page).nth(i), f"while :; do cat {payload}; done\n")
                time.sleep(settle_s)
                before = page.evaluate("({...window.__benchArrivals, now: performance.now()})")
                quiet_cell.locator('[data-testid="terminal"]').click()
                key_results = measure_keys(page, keys)
                menu_ms = [float(page.evaluate(MENU_JS, i % (floods + 1))) for i in range(menus)]
                after = page.evaluate("({...window.__benchArrivals, now: performance.now()})")
                span_s = (after["now"] - before["now"]) / 1000
                per_session = [(after["chars"].get(s, 0) - before["chars"].get(s, 0)) / span_s
                               for s in sessions[:floods]]
                ctrlc: list[float] = []
                ctrlc_painted: list[float] = []
                for i in range(floods):
                    page.evaluate(WATCH_JS, [sessions[i], PROMPT])
                    cells(page).nth(i).locator('[data-testid="terminal"]').click()
                    page.keyboard.press("Control+c")
                    page.wait_for_function(
                        "(s) => window.__benchArrivals.watch[s].painted !== null", arg=sessions[i],
                        timeout=30_000, polling=50)
                    w = page.evaluate("(s) => window.__benchArrivals.watch[s]", sessions[i])
                    ctrlc.append(w["arrive"] - w["t0"])
                    ctrlc_painted.append(w["painted"] - w["t0"])
            finally:
                app.stop()
        finally:
            xvfb.stop()
    return {
        "floods": floods,
        "feed": feed or {},
        "quietEcho": {"arrive": stats([k["arrive"] for k in key_results]),
                      "painted": stats([k["painted"] for k in key_results])},
        "menuOpenPaintedMs": stats(menu_ms),
        "ctrlcToPromptMs": stats(ctrlc),
        "ctrlcToPromptPaintedMs": stats(ctrlc_painted),
        "aggregateMBps": sum(per_session) / 1e6,
        "perSessionMBps": {"min": min(per_session) / 1e6, "max": max(per_session) / 1e6,
                           "each": [round(v / 1e6, 3) for v in per_session]},
        "host": {"cpus": os.cpu_count(), "loadBefore": load_before,
                 "loadAfter": os.getloadavg()[0]},
    }


def table(r: dict[str, Any]) -> str:
    def ms(d: dict[str, float]) -> str:
        return f"{d['p50Ms']:.0f} / {d['p99Ms']:.0f}" if d else "n/a"

    rows = [
        (f"{r['floods']} floods: chars arriving, all (M/s)", f"{r['aggregateMBps']:.2f}"),
        ("  per terminal min / max (M/s)",
         f"{r['perSessionMBps']['min']:.2f} / {r['perSessionMBps']['max']:.2f}"),
        ("quiet cell echo arrives p50 / p99 (ms)", ms(r["quietEcho"]["arrive"])),
        ("quiet cell echo painted p50 / p99 (ms)", ms(r["quietEcho"]["painted"])),
        ("menu open → painted p50 / p99 (ms)", ms(r["menuOpenPaintedMs"])),
        ("Ctrl+C → prompt arrives p50 / max (ms)",
         f"{r['ctrlcToPromptMs']['p50Ms']:.0f} / {r['ctrlcToPromptMs']['maxMs']:.0f}"),
        ("Ctrl+C → prompt painted p50 / max (ms)",
         f"{r['ctrlcToPromptPaintedMs']['p50Ms']:.0f} / "
         f"{r['ctrlcToPromptPaintedMs']['maxMs']:.0f}"),
        ("host: cpus / load before, after",
         f"{r['host']['cpus']} / {r['host']['loadBefore']:.1f}, {r['host']['loadAfter']:.1f}"),
    ]
    return "\n".join(f"{a:<48}{b:>22}" for a, b in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--floods", type=int, default=16)
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument("--menus", type=int, default=10)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds of flood before measuring")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--app-env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--feed", action="append", default=[], metavar="NAME=VALUE",
                        help="the page's feed tuning (ADR 020, FEED_TUNING): taskMs, sliceMs, …")
    args = parser.parse_args()
    result = run(args.floods, args.keys, args.menus, args.settle,
                 dict(item.split("=", 1) for item in args.app_env),
                 {k: int(v) for k, v in (item.split("=", 1) for item in args.feed)})
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
