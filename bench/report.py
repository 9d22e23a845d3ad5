"""Every terminal benchmark of issue 11 in one sitting, one table next to the targets, and JSON.

    .venv/bin/python bench/report.py [--mb 50] [--runs 2] [--quick] [--json bench-report.json]

Runs, alternating so the references bracket IdeA on a shared machine:
  1. the bare-Qt reference (bench/qt_reference.py: the same xterm.js page over a WebSocket in a
     plain pywebview Qt window), with Qt's default compositing and with the software backend
     IdeA picks without a GPU;
  2. IdeA and headless Chromium (bench/pty_throughput.py: `cat` of `--mb` MB, keystroke echo
     idle and in a quiet cell during the flood, IdeA's own share of an echo, Ctrl+C → prompt);
  3. sixteen floods at once (bench/flood16.py);
  4. memory (bench/memory.py: 8 idle terminals × 10 000 lines, per terminal, 200 shells);
  5. the renderer: the reference page in headless Chromium with the DOM and the WebGL renderer
     (software GL: SwiftShader), and whether IdeA's window has WebGL2 at all;
  6. start-up to an interactive window, cold (page cache dropped, as root) and warm, medians of
     3: from source, and packaged (bench/frozen_startup.py: build/linux/build.sh into a temp
     dir, then its AppRun);
  7. an `idea_ask_agent` round trip's cost to IdeA (bench/ask_overhead.py, SPEC §7).
Throughput ratios are IdeA ÷ the medians of the reference runs of the same sitting. Figures
only: nothing here asserts a budget (tests never assert timings).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench import ask_overhead, flood16, frozen_startup, memory, pty_throughput  # noqa: E402
from bench.qt_reference import payload as qt_payload  # noqa: E402
from bench.qt_reference import qt_flood  # noqa: E402
from bench.reference_page import run_reference  # noqa: E402
from e2e.harness import Xvfb  # noqa: E402


def machine() -> dict[str, Any]:
    cpu = ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in
                   Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem_kib = 0
    try:
        mem_kib = int(Path("/proc/meminfo").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        pass
    return {"cpu": cpu, "cpus": os.cpu_count(), "memGiB": round(mem_kib / 2**20, 1),
            "kernel": platform.release(), "python": platform.python_version(),
            "load": os.getloadavg()}


def qt_reference(mb: float, software: bool) -> float:
    data, size = qt_payload(mb)
    xvfb = Xvfb()
    display = xvfb.start()
    try:
        with sync_playwright() as pw:
            result = qt_flood(pw, data, 142, 22, display, software)
    finally:
        xvfb.stop()
    return size / 1e6 / float(result["parsedS"])


def renderers(mb: float) -> dict[str, Any]:
    """The reference page in headless Chromium: DOM renderer vs WebGL under SwiftShader."""
    data, size = qt_payload(mb)
    out: dict[str, Any] = {}
    with sync_playwright() as pw:
        for name, webgl in (("dom", False), ("webgl", True)):
            r = run_reference(pw, data, 142, 22, webgl, 0,
                              extra_args=["--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
                              if webgl else None)
            out[name] = {"renderer": r["renderer"], "mbPerS": size / 1e6 / r["parsedS"],
                         "frames": r["frames"], "maxFrameGapMs": r["maxFrameGapMs"]}
    return out


def startup(runs: int = 3) -> dict[str, Any]:
    """Start-ups from source (`python -m app`) to an interactive window, cold and warm."""
    with sync_playwright() as pw:
        return frozen_startup.start_ups(pw, frozen_startup.SOURCE, runs)


def packaged(runs: int = 3) -> dict[str, Any]:
    """The packaged app built afresh (`build/linux/build.sh` into a temp dir), then its
    `AppRun`'s start-ups to an interactive window, cold and warm."""
    with tempfile.TemporaryDirectory(prefix="idea-report-build-") as out, sync_playwright() as pw:
        apprun = frozen_startup.build(Path(out))
        return frozen_startup.start_ups(pw, [str(apprun)], runs)


def git_head() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


STAGES = ("flood16", "memory", "renderers", "startup", "packaged", "ask")


def collect(mb: float, runs: int, quick: bool, partial: Path | None = None,
            skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Run everything; each stage's figures (or its error) land in the result as they come, and
    in `partial` (JSON) after each stage, so a late failure loses nothing."""
    started = time.time()
    r: dict[str, Any] = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started)),
                         "commit": git_head(), "machine": machine(), "shared": True, "mb": mb,
                         "runs": runs, "qtReferenceMBps": {"default": [], "software": []},
                         "idea": [], "errors": {}}

    def stage(name: str, work: Any) -> Any:
        try:
            return work()
        except Exception as exc:  # noqa: BLE001 - reported in the table, the others still run
            r["errors"][name] = f"{type(exc).__name__}: {exc}"
            return None
        finally:
            if partial is not None:
                partial.write_text(json.dumps(r, indent=2) + "\n")

    ref_mb = min(mb, 20)

    def references() -> None:
        for software, key in ((False, "default"), (True, "software")):
            value = stage(f"qt-{key}", lambda s=software: qt_reference(ref_mb, s))
            if value is not None:
                r["qtReferenceMBps"][key].append(value)

    for i in range(runs):
        references()
        got = stage(f"idea-{i}", lambda: pty_throughput.run(mb, 100 if quick else 200,
                                                            60 if quick else 100))
        if got is not None:
            r["idea"].append(got)
    references()
    work = {"flood16": lambda: flood16.run(16, 30 if quick else 100, 5 if quick else 10, 3.0),
            "memory": lambda: memory.run(8, 10_000, 50 if quick else 200),
            "renderers": lambda: renderers(min(mb, 10)),
            "startup": lambda: startup(1 if quick else 3),
            "packaged": lambda: packaged(1 if quick else 3),
            "ask": lambda: ask_overhead.run(50 if quick else 200, 0)}
    for name in STAGES:
        if name not in skip:
            r[name] = stage(name, work[name])
    r["durationS"] = time.time() - started
    r["machine"]["loadAfter"] = os.getloadavg()
    return r


def rows(r: dict[str, Any]) -> list[tuple[str, str, str, bool | None]]:
    """(measure, target, figure, met) for the table (a stage that failed is left out)."""
    med = statistics.median
    if not r["idea"] or not r["qtReferenceMBps"]["default"]:
        return [("throughput", "", "not measured (see errors)", None)]
    idea_mbps = med([x["idea"]["flood"]["mbPerS"] for x in r["idea"]])
    headless = med([x["reference"]["mbPerS"] for x in r["idea"]])
    qt_def = med(r["qtReferenceMBps"]["default"])
    qt_sw = med(r["qtReferenceMBps"]["software"] or [float("nan")])
    last = r["idea"][-1]["idea"]
    keys, busy = last["keys"], last.get("busy", {})
    quiet = busy.get("quietKeys", {})
    own = last.get("ownShareMs") or [float("nan")]
    f16, mem = r.get("flood16"), r.get("memory")

    def le(value: float, limit: float) -> bool:
        return value <= limit

    out: list[tuple[str, str, str, bool | None]] = [
        (f"cat {r['mb']:g} MB: IdeA MB/s (median)", ">= 20", f"{idea_mbps:.1f}", idea_mbps >= 20),
        ("  / bare-Qt reference, default compositing", ">= 0.8",
         f"{idea_mbps / qt_def:.2f} ({qt_def:.1f} MB/s)", idea_mbps / qt_def >= 0.8),
        ("  / bare-Qt reference, same software backend", ">= 0.8",
         f"{idea_mbps / qt_sw:.2f} ({qt_sw:.1f} MB/s)", idea_mbps / qt_sw >= 0.8),
        ("  / headless Chromium", ">= 0.8", f"{idea_mbps / headless:.2f} ({headless:.1f} MB/s)",
         idea_mbps / headless >= 0.8),
        ("flood: frame gap p99 (ms)", "<= 50", f"{last['flood']['frameGapP99Ms']:.0f}",
         le(last["flood"]["frameGapP99Ms"], 50)),
    ]
    if quiet:
        out += [("flood: quiet-cell echo painted p50 (ms)", "<= 30",
                 f"{quiet['paintedP50Ms']:.0f}", le(quiet["paintedP50Ms"], 30)),
                ("flood: quiet-cell echo painted p99 (ms)", "<= 60",
                 f"{quiet['paintedP99Ms']:.0f}", le(quiet["paintedP99Ms"], 60))]
    ctrlc = busy.get("ctrlcToPromptMs")
    out.append(("flood: Ctrl+C → prompt in the flooding cell (ms)", "<= 200",
                "n/a" if ctrlc is None else f"{ctrlc:.0f}", None if ctrlc is None else ctrlc <= 200))
    if keys:
        out += [("idle: echo painted p50 (ms)", "<= 30", f"{keys['paintedP50Ms']:.0f}",
                 le(keys["paintedP50Ms"], 30)),
                ("idle: echo painted p99 (ms)", "<= 50", f"{keys['paintedP99Ms']:.0f}",
                 le(keys["paintedP99Ms"], 50))]
    own50 = statistics.median(own)
    out.append(("idle: IdeA's own share, PTY → page p50 (ms)", "<= 2", f"{own50:.1f}",
                None if own50 != own50 else own50 <= 2))
    if f16:
        out += [
        ("16 floods: quiet echo painted p99 (ms)", "<= 100",
         f"{f16['quietEcho']['painted']['p99Ms']:.0f}", le(f16["quietEcho"]["painted"]["p99Ms"], 100)),
        # painted since sitting 15 (it was the arrival in the page, which comes sooner)
        ("16 floods: Ctrl+C → prompt painted, worst (ms)", "<= 200",
         f"{f16['ctrlcToPromptPaintedMs']['maxMs']:.0f}",
         le(f16["ctrlcToPromptPaintedMs"]["maxMs"], 200)),
        ("16 floods: Ctrl+C → prompt arrives, worst (ms)", "",
         f"{f16['ctrlcToPromptMs']['maxMs']:.0f}", None),
        ("16 floods: menu open → painted, p99 (ms)", "<= 100",
         f"{f16['menuOpenPaintedMs']['p99Ms']:.0f}", le(f16["menuOpenPaintedMs"]["p99Ms"], 100)),
        ("16 floods: chars arriving, all terminals (M/s)", "", f"{f16['aggregateMBps']:.1f}", None)]
    if mem:
        out += [
        ("memory: 8 idle terminals x 10k lines, RSS (MiB)", "<= 400",
         f"{mem['idleKiB']['rssKiB'] / 1024:.0f} (PSS {mem['idleKiB']['pssKiB'] / 1024:.0f})",
         mem["idleKiB"]["rssKiB"] / 1024 <= 400),
        ("memory: same, PSS / USS (shared pages split / private only) (MiB)", "",
         f"{mem['idleKiB']['pssKiB'] / 1024:.0f} / {mem['idleKiB'].get('ussKiB', 0) / 1024:.0f}",
         None),
        *([("memory: engine floor, bare Qt window + empty page, RSS (PSS) (MiB)", "",
            f"{mem['floorKiB']['rssKiB'] / 1024:.0f} (PSS {mem['floorKiB']['pssKiB'] / 1024:.0f})",
            None)] if mem.get("floorKiB") else []),
        ("memory: per terminal RSS (MiB)", "", f"{mem['perTerminalRssKiB'] / 1024:.1f}", None),
        ("memory: scrollback kept after 20k lines", "<= 10000 + rows",
         f"{mem['scrollback']['bufferLines']}", bool(mem["scrollback"]["bounded"])),
    ]
    atlas = mem.get("atlas") if mem else None
    if atlas:
        out.append((f"memory: WebGL atlas after {atlas['floodCells']} truecolor cells (MiB)",
                     "bounded", f"{atlas['atlasAfter']['bytes'] / 2**20:.0f} (peak "
                     f"{atlas['atlasPeakSeen']['bytes'] / 2**20:.0f}; {atlas['renderer']})",
                     bool(atlas["bounded"])))
    if mem and mem["cycleGrowthRssKiB"] is not None:
        out.append((f"memory: {mem['cycles']} shells opened+closed, RSS growth (MiB)", "~0",
                     f"{mem['cycleGrowthRssKiB'] / 1024:+.1f}", None))
    out.append(("renderer: IdeA's window", "",
                f"{last['renderer']} (webgl2: {last['webgl2Available']})", None))
    rend = r.get("renderers")
    if rend:
        out.append(("renderer: reference DOM / WebGL (SwiftShader) MB/s", "",
                    f"{rend['dom']['mbPerS']:.1f} / {rend['webgl']['mbPerS']:.1f} "
                    f"({rend['webgl']['renderer']})", None))
    for key, name, limit in (("startup", "from source", 2.5), ("packaged", "packaged (AppRun)", 4.0)):
        runs = r.get(key)
        if not runs:
            continue
        cold = runs["cold_median_s"]
        out.append((f"start-up {name} → interactive, cold (s, median)", f"<= {limit:g}",
                    "n/a (page cache not dropped: not root)" if cold is None else f"{cold:.2f}",
                    None if cold is None else cold <= limit))
        out.append((f"start-up {name} → interactive, warm (s, median)", "",
                    f"{runs['warm_median_s']:.2f}", None))
    ask = r.get("ask")
    if ask:
        out.append(("MCP idea_ask_agent: IdeA's own share p50 (ms)", "<= 20",
                    f"{ask['idea_own_p50_ms']:.1f} (round trip {ask['idea_ask_agent']['p50_ms']:.1f})",
                    ask["idea_own_p50_ms"] <= 20))
    return out


def table(r: dict[str, Any]) -> str:
    m = r["machine"]
    head = [f"IdeA terminal benchmarks — {r['when']}, commit {r['commit']}, {r['runs']} run(s)",
            f"machine: {m['cpu']}, {m['cpus']} cpus, {m['memGiB']} GiB, Linux {m['kernel']}, "
            f"load {m['load'][0]:.1f} (SHARED with other jobs: absolute figures are noisy, "
            "read the ratios)", ""]
    lines = [f"{'measure':<54}{'target':>16}{'figure':>34}  met"]
    for measure, target, figure, met in rows(r):
        mark = "" if met is None else ("yes" if met else "NO")
        lines.append(f"{measure:<54}{target:>16}{figure:>34}  {mark}")
    lines += [f"error in {name}: {message}" for name, message in r.get("errors", {}).items()]
    return "\n".join(head + lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=50)
    parser.add_argument("--runs", type=int, default=2,
                        help="IdeA throughput runs (references bracket them)")
    parser.add_argument("--quick", action="store_true", help="fewer keystrokes, cycles and start-ups")
    parser.add_argument("--json", type=Path, default=Path("bench-report.json"))
    parser.add_argument("--skip", default="", help=f"comma-separated stages to skip: {', '.join(STAGES)}")
    args = parser.parse_args()
    skip = frozenset(filter(None, args.skip.split(",")))
    if skip - set(STAGES):
        parser.error(f"--skip: unknown stage(s) {', '.join(sorted(skip - set(STAGES)))}")
    result = collect(args.mb, args.runs, args.quick, args.json, skip)
    result["table"] = table(result)
    print(result["table"])
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nJSON: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
