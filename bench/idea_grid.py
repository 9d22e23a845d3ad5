"""Shared by the multi-terminal benchmarks: a project whose active layout is a grid of N cells
(written in `.ideai/layouts.json` between two starts of the real app, in the on-disk format),
the RSS of IdeA's own processes, and in-page probes of arrivals and prompts."""

from __future__ import annotations

import json
import math
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright

from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import Grid, GridCell, Leaf
from e2e.harness import IdeaApp
from e2e.ui import cells, wait_for


def seed_grid(pw: Playwright, display: str, data: Path, project: Path, count: int) -> None:
    """Start the app once on `project` (it creates `.ideai/`), stop it, and make the active
    layout a grid of `count` empty cells (columns = ceil(sqrt(count)); the last cell spans
    what is left of its row, a grid must cover all its tracks)."""
    app = IdeaApp(pw, display, data, project)
    try:
        app.start()
    finally:
        app.stop()
    path = project / ".ideai" / "layouts.json"
    doc = LayoutDoc.from_json(json.loads(path.read_text(encoding="utf-8")))
    cols = math.ceil(math.sqrt(count))
    rows = math.ceil(count / cols)
    grid = Grid(id=f"grid-{uuid.uuid4().hex[:8]}", col_weights=(1.0,) * cols,
                row_weights=(1.0,) * rows,
                cells=tuple(GridCell(node=Leaf(id=f"leaf-{i}"), row=i // cols, col=i % cols,
                                     row_span=1,
                                     col_span=cols - i % cols if i == count - 1 else 1)
                            for i in range(count)))
    active = next((lay for lay in doc.layouts if lay.id == doc.active_id), doc.layouts[0])
    layouts = tuple(lay.with_root(grid) if lay.id == active.id else lay for lay in doc.layouts)
    path.write_text(json.dumps(doc.model_copy(update={"layouts": layouts}).to_json(), indent=2),
                    encoding="utf-8")


def wait_cells(page: Page, count: int) -> None:
    wait_for(lambda: cells(page).count() == count, what=f"{count} cells")


# Per session: characters arriving (pushes), and the first arrival of `marker` after `armed`
# (then the frame that showed it).
ARRIVALS_JS = r"""
() => {
  const st = window.__benchArrivals = {chars: {}, total: 0, t0: performance.now(), watch: {}};
  const orig = window.__ideaPush;
  window.__ideaPush = (batch) => {
    const result = orig(batch);
    const out = (typeof batch === 'string' ? JSON.parse(batch) : batch)?.output ?? {};
    const now = performance.now();
    for (const [sid, text] of Object.entries(out)) {
      st.chars[sid] = (st.chars[sid] || 0) + text.length;
      st.total += text.length;
      const w = st.watch[sid];
      if (w && w.arrive === null) {
        const s = w.tail + text;
        w.tail = s.slice(-w.marker.length);
        if (s.includes(w.marker)) {
          w.arrive = now;
          // painted: the first frame after the one whose rows end with the prompt (parsed)
          const shown = () => window.__ideaTerminalTail(sid, 1).trimEnd().endsWith(w.marker.trimEnd());
          const look = () => requestAnimationFrame(() => {
            if (!shown()) return look();
            requestAnimationFrame(() => { w.painted = performance.now(); });
          });
          look();
        }
      }
    }
    return result;
  };
  addEventListener('keydown', (e) => {
    if (!(e.ctrlKey && e.key === 'c')) return;
    const el = e.target.closest?.('[data-session-id]');
    const w = el && st.watch[el.getAttribute('data-session-id')];
    if (w && w.t0 === null) w.t0 = performance.now();
  }, true);
}
"""

# Arms the watch of `sid` for `marker` (keydown of Ctrl+C sets its t0; `painted` follows
# `arrive` once the cursor's row ends with the marker and a frame went by).
WATCH_JS = """([sid, marker]) => {
  window.__benchArrivals.watch[sid] = {marker, tail: '', t0: null, arrive: null, painted: null};
}"""

# Opens a cell's menu by a click and resolves with the ms until it is painted; closes it.
MENU_JS = r"""
async (index) => {
  const cell = document.querySelectorAll('[data-testid="cell"]')[index];
  const button = cell.querySelector('[data-testid="cell-menu"]');
  const t0 = performance.now();
  button.click();
  await new Promise((resolve) => {
    const shown = () => cell.querySelector('[data-testid="split-column"]');
    const look = () => shown() ? resolve() : requestAnimationFrame(look);
    look();
  });
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const ms = performance.now() - t0;
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
  if (cell.querySelector('[data-testid="split-column"]')) button.click();
  return ms;
}
"""


def idea_processes(root_pid: int) -> list[tuple[int, str]]:
    """`(pid, comm)` of IdeA's own processes: the app and its Qt WebEngine processes, not the
    PTY sessions' shells, CLIs and their children."""
    out, todo = [], [root_pid]
    while todo:
        pid = todo.pop()
        try:
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        if pid != root_pid and not comm.startswith("QtWebEngine"):
            continue  # a session's process tree: not IdeA's
        out.append((pid, comm))
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    return out


def process_kind(pid: int, comm: str) -> str:
    """What one of IdeA's processes is: `host` (the Python app, which is also Chromium's
    browser process: Qt WebEngine runs the GPU thread and the network service in it), or a Qt
    WebEngine process by its Chromium `--type` (`zygote`, `gpu-process`, `utility:<sub-type>`…);
    a process a zygote forked keeps the zygote's command line: it is the `renderer`."""
    if not comm.startswith("QtWebEngine"):
        return "host"
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        parent = Path(f"/proc/{ppid}/comm").read_text().strip()
    except (OSError, ValueError, IndexError):
        return comm
    kind = next((a.split("=", 1)[1] for a in args if a.startswith("--type=")), "untyped")
    if kind == "zygote" and parent.startswith("QtWebEngine"):
        return "renderer"
    sub = next((a.split("=", 1)[1] for a in args if a.startswith("--utility-sub-type=")), "")
    return f"{kind}:{sub.rsplit('.', 1)[-1]}" if sub else kind


def memory_kib(root_pid: int) -> dict[str, Any]:
    """RSS and PSS (KiB) of IdeA's own processes, summed and per process name; `processes`:
    per process its kind (`process_kind`), RSS, PSS, USS (private pages), anonymous RSS and
    PSS split into anonymous, file-backed and shared memory, from `/proc/<pid>/smaps_rollup`
    (proc(5)). Summed RSS counts the shared libraries (Qt WebEngine's core) once per process;
    PSS splits each shared page between the processes mapping it."""
    rss = pss = uss = 0
    per: dict[str, int] = {}
    procs: list[dict[str, Any]] = []
    for pid, comm in idea_processes(root_pid):
        try:
            fields = {k: int(v.split()[0]) for k, v in
                      (line.split(":", 1) for line in
                       Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:])}
        except OSError:
            continue
        r, p = fields["Rss"], fields["Pss"]
        u = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
        rss, pss, uss = rss + r, pss + p, uss + u
        per[comm] = per.get(comm, 0) + r
        procs.append({"pid": pid, "kind": process_kind(pid, comm), "rssKiB": r, "pssKiB": p,
                      "ussKiB": u, "anonKiB": fields.get("Anonymous", 0),
                      "pssAnonKiB": fields.get("Pss_Anon", 0),
                      "pssFileKiB": fields.get("Pss_File", 0),
                      "pssShmemKiB": fields.get("Pss_Shmem", 0)})
    return {"rssKiB": rss, "pssKiB": pss, "ussKiB": uss, "perProcessRssKiB": per,
            "processes": procs}
