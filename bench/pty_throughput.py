"""PTY throughput and keystroke echo of an IdeA cell, against plain xterm.js (SPEC §7).

    .venv/bin/python bench/pty_throughput.py [--mb 50] [--keys 200] [--quiet-keys 100] [--json out.json]

1. IdeA: the real app under Xvfb (e2e harness), two cells; in the top one ``cat`` of a file of
   printable lines then ``echo`` of a marker: time from the Enter keydown to the marker in the
   xterm.js buffer (and painted), measured in the page.
2. Reference: the same xterm.js build in headless Chromium fed the same bytes (as the PTY emits
   them: ``\\n`` → ``\\r\\n``) over a local WebSocket, same cols × rows, same renderer.
3. Keystroke → echo: ``x`` at a ``cat > /dev/null`` prompt in the bottom cell, keydown → echoed
   char arrived / parsed / painted, in the page; the reference does the same through a real PTY
   behind a WebSocket. Then the same while the top cell floods again, and Ctrl+C → prompt there.
MB = 10^6 bytes of the file. Figures only: nothing here asserts a budget. Details of each probe
in idea_cell.py, idea_probes.py and reference_page.py.
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

from bench.idea_cell import run_idea  # noqa: E402
from bench.reference_page import run_reference  # noqa: E402

ALPHABET = "".join(chr(c) for c in range(32, 127)) * 3


def payload_text(mb: float, nonce: str) -> str:
    """Printable lines of varied length (20–119 chars + number), then a final marker line
    (``END-OF-PAYLOAD-<nonce>``): about ``mb`` × 10^6 characters, ASCII."""
    target, size, i = int(mb * 1_000_000), 0, 0
    lines: list[str] = []
    while size < target:
        width, start = 20 + (i * 37) % 100, (i * 13) % 95
        lines.append(line := f"{i:07d} {ALPHABET[start:start + width]}\n")
        size, i = size + len(line), i + 1
    lines.append(f"END-OF-PAYLOAD-{nonce}\n")
    return "".join(lines)


def make_payload(path: Path, mb: float, nonce: str) -> int:
    """``payload_text`` written to ``path``; returns its size (bytes)."""
    path.write_text(payload_text(mb, nonce), encoding="ascii", newline="\n")
    return path.stat().st_size


def wire_payload(mb: float, nonce: str = "reference") -> tuple[bytes, int]:
    """``payload_text`` as the PTY emits it (onlcr: ``\\r\\n``), for the reference pages, and
    the size IdeA's throughput counts for it (the file's, without the ``\\r``; bytes): every
    MB/s of a sitting is then of the same lines over the same count."""
    text = payload_text(mb, nonce)
    return text.replace("\n", "\r\n").encode("ascii"), len(text)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def summary(keys: list[dict[str, float]]) -> dict[str, float]:
    out: dict[str, float] = {}
    if not keys:
        return out
    for name in ("arrive", "parsed", "painted", "roundTrip"):
        values = [k[name] for k in keys]
        out[f"{name}P50Ms"], out[f"{name}P99Ms"] = statistics.median(values), pct(values, 99)
    return out


def run(mb: float, keys: int, quiet_keys: int, app_env: dict[str, str] | None = None,
        keep_log: Path | None = None, feed: dict[str, int] | None = None) -> dict[str, Any]:
    nonce, load_before = secrets.token_hex(4), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="idea-bench-") as tmp, sync_playwright() as pw:
        payload = Path(tmp) / "payload.txt"
        size = make_payload(payload, mb, nonce)
        idea = run_idea(pw, Path(tmp), payload, nonce, keys, quiet_keys, 60 + mb * 20, app_env,
                        keep_log, feed)
        wire = payload.read_bytes().replace(b"\n", b"\r\n")  # what the PTY emits (onlcr)
        ref = run_reference(pw, wire, idea["cols"], idea["rows"], idea["renderer"] == "webgl", keys)
    idea["flood"]["mbPerS"] = size / 1e6 / idea["flood"]["parsedS"]
    ref["mbPerS"] = size / 1e6 / ref["parsedS"]
    for side in (idea, ref):
        side["keys"] = summary(side.get("keys", []))
    busy = idea.get("busy")
    if busy:
        quiet = busy.pop("quietKeys")
        idea["busy"] = {"quietKeys": {"count": len(quiet), **summary(quiet)},
                        "ctrlcToPromptMs": busy["ctrlcToPromptMs"], "maxFrameGapMs": busy["maxFrameGapMs"]}
    return {"payloadBytes": size, "cols": idea.pop("cols"), "rows": idea.pop("rows"),
            "host": {"cpus": os.cpu_count(), "loadBefore": load_before, "loadAfter": os.getloadavg()[0]},
            "idea": idea, "reference": ref, "ratio": idea["flood"]["mbPerS"] / ref["mbPerS"]}


def ms(d: dict[str, Any], name: str) -> str:
    return f"{d[name + 'P50Ms']:.1f} / {d[name + 'P99Ms']:.1f}" if name + "P50Ms" in d else ""


def table(r: dict[str, Any]) -> str:
    idea, ref, fl, host = r["idea"], r["reference"], r["idea"]["flood"], r["host"]
    per = fl["charsPerSecond"][:-1] or fl["charsPerSecond"] or [0]  # the last second is partial
    rows = [("payload (MB = 10^6 bytes), cols x rows",
             f"{r['payloadBytes'] / 1e6:.1f} MB, {r['cols']}x{r['rows']}", ""),
            ("renderer", f"{idea['renderer']} (webgl2: {idea['webgl2Available']})", ref["renderer"]),
            ("cat → marker parsed / painted (s)", f"{fl['parsedS']:.2f} / {fl['paintedS']:.2f}",
             f"{ref['parsedS']:.2f} / {ref['paintedS']:.2f}"),
            ("throughput (MB/s)", f"{fl['mbPerS']:.1f}", f"{ref['mbPerS']:.1f}"),
            ("ratio IdeA / reference", f"{r['ratio']:.2f}", ""),
            ("chars arriving per second: min / max (M)", f"{min(per) / 1e6:.2f} / {max(per) / 1e6:.2f}", ""),
            ("frames / max frame gap (ms)", f"{fl['frames']} / {fl['maxFrameGapMs']:.0f}",
             f"{ref['frames']} / {ref['maxFrameGapMs']:.0f}"),
            ("frames with the feed empty, before the marker (page waiting)",
             f"{fl['feedEmptyFrames']} / {fl['floodFrames']}" if fl.get("feedEmptyFrames")
             is not None else "", ""),
            ("pushes / avg chars per push",
             f"{fl['pushes']} / {fl['charsPushed'] / max(1, fl['pushes']):.0f}", ""),
            ("push gap p50 / max (ms)", f"{fl['pushGapP50Ms']:.1f} / {fl['pushGapMaxMs']:.0f}", ""),
            ("acks / ack round trip p50 / max (ms)",
             f"{fl['acks']} / {fl['ackP50Ms']:.1f} / {fl['ackMaxMs']:.0f}", "")]
    labels = (("arrive", "arrives"), ("parsed", "parsed"), ("painted", "painted"),
              ("roundTrip", "Playwright round trip"))
    for name, label in labels if idea["keys"] else ():
        rows.append((f"key → echo {label} p50 / p99 (ms)", ms(idea["keys"], name), ms(ref["keys"], name)))
    if "busy" in idea:
        busy, quiet = idea["busy"], idea["busy"]["quietKeys"]
        rows += [(f"quiet cell echo during flood, n={quiet['count']}", "", ""),
                 ("  arrives p50 / p99 (ms)", ms(quiet, "arrive"), ""),
                 ("  painted p50 / p99 (ms)", ms(quiet, "painted"), ""),
                 ("  max frame gap (ms)", f"{busy['maxFrameGapMs']:.0f}", ""),
                 ("Ctrl+C → prompt arrives (ms)", "n/a (flood over)" if busy["ctrlcToPromptMs"] is None
                  else f"{busy['ctrlcToPromptMs']:.0f}", "")]
    rows.append(("host: cpus / load avg before, after", f"{host['cpus']} / {host['loadBefore']:.1f}",
                 f"{host['loadAfter']:.1f}"))
    lines = [f"{'measure':<48}{'IdeA':>22}{'reference':>22}"]
    lines += [f"{a:<48}{b:>22}{c:>22}" for a, b, c in rows]
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
    parser.add_argument("--keep-log", type=Path, help="copy the app's log here")
    parser.add_argument("--feed", action="append", default=[], metavar="NAME=VALUE",
                        help="the page's feed tuning (ADR 020, FEED_TUNING): taskMs, sliceMs, …")
    args = parser.parse_args()
    result = run(args.mb, args.keys, args.quiet_keys, dict(item.split("=", 1) for item in args.app_env),
                 args.keep_log, {k: int(v) for k, v in (item.split("=", 1) for item in args.feed)})
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
