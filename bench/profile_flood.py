"""Where the time of a flood goes in the real IdeA window: a CPU profile of the page (CDP
``Profiler``) and, optionally, a ``py-spy`` sampling of the app process, during ``cat`` of a file.

    .venv/bin/python bench/profile_flood.py [--mb 10] [--out /tmp/flood] [--py-spy] [--top 25]

Writes ``<out>.cpuprofile`` (open it in Chrome DevTools → Performance) and prints the page's
self time per function (top ``--top``) and per category: idle, xterm.js parsing/rendering, the
push receiver, the bridge (``pywebview``/QWebChannel), GC. With ``--py-spy``, writes
``<out>.pyspy.txt`` (collapsed stacks of all app threads, idle included) and prints the most
sampled leaf frames per thread. Figures only: nothing is asserted. Needs ``py-spy`` for that
option (``.venv/bin/pip install py-spy``) and permission to attach to the app's pid; with it
installed, the per-thread CPU table also names the app's Python threads (PTY readers, pump).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.pty_throughput import make_payload  # noqa: E402
from e2e.harness import IdeaApp, Xvfb  # noqa: E402
from e2e.ui import cells, open_shell, type_in  # noqa: E402


def self_times(profile: dict[str, Any]) -> dict[tuple[str, str], float]:
    """Self time (ms) per (function name, url:line) of a CDP ``Profiler.stop`` profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    deltas = profile.get("timeDeltas", [])
    out: dict[tuple[str, str], float] = collections.defaultdict(float)
    for sample, delta in zip(profile.get("samples", []), deltas[1:] + [0], strict=False):
        frame = nodes[sample]["callFrame"]
        where = f"{frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber']}"
        out[(frame["functionName"] or "(anonymous)", where)] += delta / 1000
    return out


def python_thread_names(pid: int) -> dict[int, str]:
    """Native thread id → Python thread name of ``pid`` (``py-spy dump``; empty without py-spy).
    The kernel names every Python thread ``python``: this tells the PTY readers, the push pump
    and Qt's GUI thread (``MainThread``) apart."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    try:
        dump = subprocess.run([exe, "dump", "--pid", str(pid)], capture_output=True, text=True,
                              timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    return {int(tid): name for tid, name in re.findall(r'Thread (\d+) \(\w+\): "([^"]+)"', dump)}


def thread_cpu(root: int, names: dict[int, str] | None = None) -> dict[str, float]:
    """CPU seconds (user + system) per ``process/thread`` name of ``root`` and its descendants;
    a thread in ``names`` (native id → Python name) is reported as ``process/py:name`` (digits
    and hex ids dropped, so the PTY readers of several sessions add up)."""
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    out: dict[str, float] = collections.defaultdict(float)
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            proc = Path(f"/proc/{pid}/comm").read_text().strip()
            for task in Path(f"/proc/{pid}/task").glob("*"):
                stat = (task / "stat").read_text()
                name = stat[stat.index("(") + 1:stat.rindex(")")]
                if names and int(task.name) in names:
                    name = "py:" + re.sub(r"[-_]?[0-9a-f]{4,}$|-\d+$", "", names[int(task.name)])
                fields = stat[stat.rindex(")") + 2:].split()
                out[f"{proc}[{pid}]/{name}"] += (int(fields[11]) + int(fields[12])) / tick
        except OSError:
            pass
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=10)
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "idea-flood")
    parser.add_argument("--py-spy", action="store_true", help="also sample the app with py-spy")
    parser.add_argument("--native", action="store_true", help="py-spy: C/C++ frames too")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--app-env", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    nonce = secrets.token_hex(4)
    with tempfile.TemporaryDirectory(prefix="idea-prof-") as tmp_s, sync_playwright() as pw:
        tmp = Path(tmp_s)
        payload = tmp / "payload.txt"
        make_payload(payload, args.mb, nonce)
        xvfb = Xvfb()
        app = IdeaApp(pw, xvfb.start(), tmp / "data", tmp / "proj",
                      extra_env=dict(item.split("=", 1) for item in args.app_env))
        spy: subprocess.Popen[bytes] | None = None
        try:
            page = app.start()
            cell = cells(page).first
            session = open_shell(page, cell)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            # Done once the marker arrived in a push (polling the buffer would skew the profile).
            page.evaluate("""([sid, marker]) => {
              const orig = window.__ideaPush; let tail = '';
              window.__ideaPush = (batch) => {
                const text = (typeof batch === 'string' ? JSON.parse(batch) : batch)?.output?.[sid] ?? '';
                const s = tail + text; tail = s.slice(-marker.length);
                if (s.includes(marker)) window.__profileDone = true;
                return orig(batch);
              };
            }""", [session, f"END-42-{nonce}"])
            type_in(page, cell, f"cat {payload}; echo END-$((40+2))-{nonce}")
            time.sleep(0.3)
            if args.py_spy:
                assert app.proc is not None
                exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
                spy = subprocess.Popen([exe, "record", "--pid", str(app.proc.pid), "--idle", "--threads",
                                        "--rate", "250", "--format", "raw", "--duration", "60",
                                        *(["--native"] if args.native else []),
                                        "--output", f"{args.out}.pyspy.txt"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(1.0)
            cdp.send("Profiler.start")
            assert app.proc is not None
            names = python_thread_names(app.proc.pid)
            cpu_before = thread_cpu(app.proc.pid, names)
            t = time.perf_counter()
            page.keyboard.press("Enter")
            page.wait_for_function("window.__profileDone === true", polling=250,
                                   timeout=(60 + args.mb * 20) * 1000)
            wall = time.perf_counter() - t
            cpu_after = thread_cpu(app.proc.pid, names)
            profile = cdp.send("Profiler.stop")["profile"]
            if spy is not None:
                spy.send_signal(2)  # SIGINT: py-spy writes what it has
                spy.wait(30)
        finally:
            app.stop()
            xvfb.stop()
    Path(f"{args.out}.cpuprofile").write_text(json.dumps(profile))
    times = self_times(profile)
    total = sum(times.values())
    print(f"flood of {args.mb} MB: {wall:.2f} s wall, {args.mb / wall:.1f} MB/s; page profile {total:.0f} ms")
    for (name, where), ms in sorted(times.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{ms:9.1f} ms {100 * ms / total:5.1f}%  {name}  {where}")
    print(f"\nCPU per thread during the flood (% of {wall:.2f} s wall, 100% = one core; ms of CPU "
          "per MB, comparable across runs of different speed; py: names need py-spy):")
    used = {k: v - cpu_before.get(k, 0.0) for k, v in cpu_after.items()}
    for name, sec in sorted(used.items(), key=lambda kv: -kv[1])[:args.top]:
        if sec > 0:
            print(f"  {100 * sec / wall:5.1f}%  {1000 * sec / args.mb:6.1f} ms/MB  {name}")
    print(f"  all: {1000 * sum(used.values()) / args.mb:.0f} ms of CPU per MB")
    if spy is not None:
        by_thread: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for line in Path(f"{args.out}.pyspy.txt").read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            thread = re.sub(r"\(\d+\)|-\d+", "", frames[0])  # one row per thread kind, not per tid
            by_thread[thread][" < ".join(reversed(frames[-3:]))] += int(count)
        for thread, leaves in by_thread.items():
            n = sum(leaves.values())
            print(f"\n{thread}: {n} samples")
            for leaf, c in leaves.most_common(6):
                print(f"  {100 * c / n:5.1f}%  {leaf}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
