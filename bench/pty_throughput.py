"""PTY throughput and keystroke echo of an IdeA cell, against plain xterm.js (SPEC §7).

    .venv/bin/python bench/pty_throughput.py [--mb 50] [--keys 200] [--json out.json]

1. IdeA: the real app under Xvfb (e2e harness), a shell in the first cell, ``cat`` of a file of
   printable lines then ``echo`` of a marker; time from the Enter keydown to the marker in the
   xterm.js buffer (and painted), measured in the page.
2. Reference: the same xterm.js build in headless Chromium fed the same bytes (as the PTY emits
   them: ``\\n`` → ``\\r\\n``) over a local WebSocket, same cols × rows, same renderer if possible.
3. Keystroke → echo: ``x`` at a ``cat > /dev/null`` prompt, keydown → echoed char parsed and
   painted, in the page; the reference does the same through a real PTY behind a WebSocket.
MB = 10^6 bytes of the file. Figures only: nothing here asserts a budget.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.idea_cell import flood, measure_keys, start_quiet_cat, terminal_size  # noqa: E402
from bench.idea_probes import RENDERER_JS  # noqa: E402
from bench.reference_page import run_reference  # noqa: E402
from e2e.harness import IdeaApp, Xvfb  # noqa: E402
from e2e.ui import cell_menu, cells, open_shell, wait_for  # noqa: E402

ALPHABET = "".join(chr(c) for c in range(32, 127)) * 3


def make_payload(path: Path, mb: float, nonce: str) -> int:
    """Printable lines of varied length (20–119 chars + number), then a final marker line."""
    target, size, i = int(mb * 1_000_000), 0, 0
    with open(path, "w", encoding="ascii", newline="\n") as f:
        while size < target:
            lines = []
            while size < target and len(lines) < 10_000:
                width, start = 20 + (i * 37) % 100, (i * 13) % 95
                lines.append(line := f"{i:07d} {ALPHABET[start:start + width]}\n")
                size, i = size + len(line), i + 1
            f.write("".join(lines))
        f.write(f"END-OF-PAYLOAD-{nonce}\n")
    return path.stat().st_size


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def summary(keys: list[dict[str, float]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for name in ("arrive", "parsed", "painted", "roundTrip"):
        values = [k[name] for k in keys]
        out[f"{name}P50Ms"], out[f"{name}P99Ms"] = statistics.median(values), pct(values, 99)
    return out


def run(mb: float, keys: int, quiet_keys: int, app_env: dict[str, str] | None = None) -> dict[str, Any]:
    nonce, load_before = secrets.token_hex(4), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="idea-bench-") as tmp, sync_playwright() as pw:
        payload_path = Path(tmp) / "payload.txt"
        size = make_payload(payload_path, mb, nonce)
        xvfb = Xvfb()
        app = IdeaApp(pw, xvfb.start(), Path(tmp) / "data", Path(tmp) / "proj", extra_env=app_env)
        try:
            page = app.start()
            cell = cells(page).first  # floods; a second cell below it stays quiet (cat > /dev/null)
            session = open_shell(page, cell)
            cell_menu(cell, "split-column")
            wait_for(lambda: cells(page).count() == 2, what="two cells")
            quiet = cells(page).nth(1)
            start_quiet_cat(page, quiet, open_shell(page, quiet))
            cols, rows = terminal_size(page, cell, session)
            renderer = page.evaluate(RENDERER_JS, session)
            webgl2 = page.evaluate("!!document.createElement('canvas').getContext('webgl2')")
            quiet.locator('[data-testid="terminal"]').click()
            idea_keys = measure_keys(page, keys)
            idea = flood(page, cell, session, str(payload_path), nonce, 60 + mb * 20, quiet, quiet_keys)
        finally:
            app.stop()
            xvfb.stop()
        wire = payload_path.read_bytes().replace(b"\n", b"\r\n")
        ref = run_reference(pw, wire, cols, rows, renderer == "webgl", keys)
    ref_keys, flood_keys = ref.pop("keys", []), idea.pop("quietKeys")
    result: dict[str, Any] = {
        "payloadBytes": size, "cols": cols, "rows": rows,
        "host": {"cpus": os.cpu_count(), "loadBefore": load_before, "loadAfter": os.getloadavg()[0]},
        "idea": {"renderer": renderer, "webgl2Available": webgl2, **idea,
                 "mbPerS": size / 1e6 / idea["parsedS"]},
        "reference": {**ref, "mbPerS": size / 1e6 / ref["parsedS"]},
    }
    result["ratio"] = result["idea"]["mbPerS"] / result["reference"]["mbPerS"]
    if keys:
        result["idea"]["keys"] = summary(idea_keys)
        result["reference"]["keys"] = summary(ref_keys)
    if flood_keys:
        result["idea"]["keysDuringFlood"] = {"count": len(flood_keys), **summary(flood_keys)}
    return result


def table(r: dict[str, Any]) -> str:
    idea, ref = r["idea"], r["reference"]
    rows = [("payload", f"{r['payloadBytes'] / 1e6:.1f} MB, {r['cols']}x{r['rows']}", ""),
            ("renderer", f"{idea['renderer']} (webgl2: {idea['webgl2Available']})", ref["renderer"]),
            ("cat → marker parsed (s)", f"{idea['parsedS']:.2f}", f"{ref['parsedS']:.2f}"),
            ("cat → marker painted (s)", f"{idea['paintedS']:.2f}", f"{ref['paintedS']:.2f}"),
            ("throughput (MB/s)", f"{idea['mbPerS']:.1f}", f"{ref['mbPerS']:.1f}"),
            ("ratio IdeA / reference", f"{r['ratio']:.2f}", ""),
            ("frames / max frame gap (ms)", f"{idea['frames']} / {idea['maxFrameGapMs']:.0f}",
             f"{ref['frames']} / {ref['maxFrameGapMs']:.0f}"),
            ("pushes / avg chars per push",
             f"{idea['pushes']} / {idea['charsPushed'] / max(1, idea['pushes']):.0f}", ""),
            ("push gap p50/max (ms)", f"{idea['pushGapP50Ms']:.1f} / {idea['pushGapMaxMs']:.0f}", ""),
            ("time inside __ideaPush (s)", f"{idea['insidePushS']:.2f}", ""),
            ("acks / ack round trip p50/max (ms)",
             f"{idea['acks']} / {idea['ackP50Ms']:.1f} / {idea['ackMaxMs']:.0f}", "")]
    if "keys" in idea:
        for name, label in (("arrive", "key → echo arrives"), ("parsed", "key → echo parsed"),
                            ("painted", "key → echo painted"), ("roundTrip", "Playwright round trip")):
            ik, rk = idea["keys"], ref["keys"]
            rows.append((f"{label} p50/p99 (ms)", f"{ik[name + 'P50Ms']:.1f} / {ik[name + 'P99Ms']:.1f}",
                         f"{rk[name + 'P50Ms']:.1f} / {rk[name + 'P99Ms']:.1f}"))
    if "keysDuringFlood" in idea:
        fk = idea["keysDuringFlood"]
        for name in ("arrive", "painted"):
            rows.append((f"quiet cell {name}, flooding p50/p99 (ms)",
                         f"{fk[name + 'P50Ms']:.1f} / {fk[name + 'P99Ms']:.1f}", ""))
    if "keysDuringFlood" in idea:
        rows.append(("quiet cell keystrokes during flood", str(idea["keysDuringFlood"]["count"]), ""))
    host = r["host"]
    rows.append(("host: cpus / load avg before, after", f"{host['cpus']} / {host['loadBefore']:.1f}",
                 f"{host['loadAfter']:.1f}"))
    lines = [f"{'measure':<42}{'IdeA':>22}{'reference':>22}"]
    lines += [f"{a:<42}{b:>22}{c:>22}" for a, b, c in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=50, help="payload size in MB (10^6 bytes)")
    parser.add_argument("--keys", type=int, default=200, help="keystrokes for the echo latency (0: skip)")
    parser.add_argument("--quiet-keys", type=int, default=100,
                        help="most keystrokes typed in the quiet cell during the flood (0: skip)")
    parser.add_argument("--json", type=Path, help="also write all figures to this file")
    parser.add_argument("--app-env", action="append", default=[], metavar="NAME=VALUE",
                        help="extra environment for the app (experiments), repeatable")
    args = parser.parse_args()
    result = run(args.mb, args.keys, args.quiet_keys, dict(item.split("=", 1) for item in args.app_env))
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
