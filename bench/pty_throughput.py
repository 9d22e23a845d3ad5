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
import secrets
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.idea_cell import RENDERER_JS, flood, keystroke_latency, terminal_size  # noqa: E402
from bench.reference_page import run_reference  # noqa: E402
from e2e.harness import IdeaApp, Xvfb  # noqa: E402
from e2e.ui import cells, open_shell  # noqa: E402

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


def run(mb: float, keys: int) -> dict[str, Any]:
    nonce = secrets.token_hex(4)
    with tempfile.TemporaryDirectory(prefix="idea-bench-") as tmp, sync_playwright() as pw:
        payload_path = Path(tmp) / "payload.txt"
        size = make_payload(payload_path, mb, nonce)
        xvfb = Xvfb()
        app = IdeaApp(pw, xvfb.start(), Path(tmp) / "data", Path(tmp) / "proj")
        try:
            page = app.start()
            cell = cells(page).first
            session = open_shell(page, cell)
            cols, rows = terminal_size(page, cell, session)
            renderer = page.evaluate(RENDERER_JS, session)
            idea_keys = keystroke_latency(page, cell, session, keys) if keys else []
            idea = flood(page, cell, session, str(payload_path), nonce, timeout_s=60 + mb * 20)
        finally:
            app.stop()
            xvfb.stop()
        wire = payload_path.read_bytes().replace(b"\n", b"\r\n")
        ref = run_reference(pw, wire, cols, rows, renderer == "webgl", keys)
    ref_keys = ref.pop("keys", [])
    result: dict[str, Any] = {
        "payloadBytes": size, "cols": cols, "rows": rows,
        "idea": {"renderer": renderer, **idea, "mbPerS": size / 1e6 / idea["parsedS"]},
        "reference": {**ref, "mbPerS": size / 1e6 / ref["parsedS"]},
    }
    result["ratio"] = result["idea"]["mbPerS"] / result["reference"]["mbPerS"]
    if keys:
        result["idea"]["keys"] = summary(idea_keys)
        result["reference"]["keys"] = summary(ref_keys)
    return result


def table(r: dict[str, Any]) -> str:
    idea, ref = r["idea"], r["reference"]
    rows = [("payload", f"{r['payloadBytes'] / 1e6:.1f} MB, {r['cols']}x{r['rows']}", ""),
            ("renderer", idea["renderer"], ref["renderer"]),
            ("cat → marker parsed (s)", f"{idea['parsedS']:.2f}", f"{ref['parsedS']:.2f}"),
            ("cat → marker painted (s)", f"{idea['paintedS']:.2f}", f"{ref['paintedS']:.2f}"),
            ("throughput (MB/s)", f"{idea['mbPerS']:.1f}", f"{ref['mbPerS']:.1f}"),
            ("ratio IdeA / reference", f"{r['ratio']:.2f}", ""),
            ("frames / max frame gap (ms)", f"{idea['frames']} / {idea['maxFrameGapMs']:.0f}",
             f"{ref['frames']} / {ref['maxFrameGapMs']:.0f}"),
            ("pushes / avg chars per push",
             f"{idea['pushes']} / {idea['charsPushed'] / max(1, idea['pushes']):.0f}", "")]
    if "keys" in idea:
        for name, label in (("arrive", "key → echo arrives"), ("parsed", "key → echo parsed"),
                            ("painted", "key → echo painted"), ("roundTrip", "Playwright round trip")):
            ik, rk = idea["keys"], ref["keys"]
            rows.append((f"{label} p50/p99 (ms)", f"{ik[name + 'P50Ms']:.1f} / {ik[name + 'P99Ms']:.1f}",
                         f"{rk[name + 'P50Ms']:.1f} / {rk[name + 'P99Ms']:.1f}"))
    lines = [f"{'measure':<34}{'IdeA':>22}{'reference':>22}"]
    lines += [f"{a:<34}{b:>22}{c:>22}" for a, b, c in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=50, help="payload size in MB (10^6 bytes)")
    parser.add_argument("--keys", type=int, default=200, help="keystrokes for the echo latency (0: skip)")
    parser.add_argument("--json", type=Path, help="also write all figures to this file")
    args = parser.parse_args()
    result = run(args.mb, args.keys)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
