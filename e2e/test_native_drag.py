"""A tab dragged with the real mouse (issue 9; ADR 013): the X pointer is driven with `xdotool`
under the e2e Xvfb, so the drag is Qt's own XDND drag between two real IdeA windows of one
process, not DOM events dispatched by the test (`e2e/windows_ui.drag_tab`).

One test, four drags: a tab dropped at the end of its own tab bar goes last (it used to be
refused, "tab index 2 is out of 0..1"); a tab dropped on the other window's tab bar moves
there while its shell prints (no line lost, the same session); a tab dropped on the empty
desktop opens a new window at the pointer (Qt WebEngine's `dragend` only knows the last point
the drag crossed its own page, so the backend asks Qt where the pointer is); and a fourth, out of
every window again but cancelled with Escape, opens nothing (the button is still held when the
drag ends: the backend asks the X server).

The e2e X server has no window manager: a window's page starts at its `window.screenX/Y`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page

from e2e.ui import cells, open_shell, terminal_text, type_in, wait_for, wait_terminal
from e2e.windows_ui import pages_by_window, saved_workspace, tab_roots, workspace_state

LINES = 150

#: Records the drag events a page sees (the test waits for the native drag to start).
_WATCH = """() => {
  const first = window.__e2eDrag === undefined;
  window.__e2eDrag = [];
  if (first)
    for (const type of ['dragstart', 'drop', 'dragend'])
      window.addEventListener(type, () => window.__e2eDrag.push(type), true);
}"""


#: The X pointer is driven with xdotool under Xvfb: Linux only (no X server elsewhere).
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason=f"drives the X pointer (xdotool, Xvfb): not on {sys.platform}")


@pytest.fixture
def xdotool() -> None:
    """xdotool drives the X pointer. On Linux it is a test dependency (`scripts/bootstrap.sh`
    installs it with the other Debian test packages): missing is a failure, never a skip."""
    if shutil.which("xdotool") is None:
        pytest.fail("xdotool is not installed: ./run-tests installs it as root "
                    "(scripts/bootstrap.sh), or apt-get install xdotool")


class Pointer:
    """The X pointer of `display`, moved and pressed as a user's mouse."""

    def __init__(self, display: str) -> None:
        self._env = dict(os.environ, DISPLAY=display)

    def _do(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self._env, check=True, timeout=10)

    def move(self, x: int, y: int) -> None:
        self._do("mousemove", str(x), str(y))

    def drag(self, pace: Page, source: Page, start: tuple[int, int], end: tuple[int, int],
             over_target: Page | None = None, escape: bool = False) -> None:
        """Press at `start`, move in steps to `end` and release there. Waits (polling with
        `pace.wait_for_timeout`) until `source` started the native drag and, when given,
        until `over_target`'s tab bar shows where the tab would land. `escape`: Escape is
        pressed at `end` with the button still down, and the button released once `source`
        saw the drag end (the user cancelled the drag)."""
        source.evaluate(_WATCH)
        if over_target is not None and over_target is not source:
            over_target.evaluate(_WATCH)
        x0, y0 = start
        self.move(x0, y0)
        self._do("mousedown", "1")
        try:
            step = 0
            # Qt starts a drag after a few pixels of motion with the button down.
            while "dragstart" not in source.evaluate("() => window.__e2eDrag"):
                step += 1
                assert step < 60, "the native drag never started"
                self.move(x0 + 2 * (step % 10) + 2, y0)
                pace.wait_for_timeout(50)
            steps = 12
            x1, y1 = x0 + 2 * (step % 10) + 2, y0
            for i in range(1, steps + 1):
                self.move(x1 + (end[0] - x1) * i // steps, y1 + (end[1] - y1) * i // steps)
                pace.wait_for_timeout(60)
            if over_target is not None:
                for wiggle in range(60):  # XDND positions are sent on motion
                    if over_target.evaluate(
                            "() => document.querySelector('[data-testid=tabbar]')"
                            ".classList.contains('drop-target')"):
                        break
                    self.move(end[0] + wiggle % 2, end[1])
                    pace.wait_for_timeout(50)
                else:
                    raise AssertionError("the tab bar under the pointer never showed the drop")
            if escape:
                pace.wait_for_timeout(200)
                self._do("key", "Escape")
                for _ in range(60):
                    if "dragend" in source.evaluate("() => window.__e2eDrag"):
                        break
                    pace.wait_for_timeout(50)
                else:
                    raise AssertionError("Escape did not end the drag")
                pace.wait_for_timeout(300)  # the page's dragEnd reaches the backend, held
        finally:
            self._do("mouseup", "1")


def screen_point(page: Page, selector: str, dx: float = 0.5) -> tuple[int, int]:
    """A point of `selector`'s box on the screen (`dx`: fraction of its width)."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    left, top = page.evaluate("() => [window.screenX, window.screenY]")
    return int(left + box["x"] + box["width"] * dx), int(top + box["y"] + box["height"] / 2)


def numbered(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^line-(\d+)$", text, re.MULTILINE)]


def tabs_of(page: Page) -> dict[str, list[str]]:
    windows = workspace_state(page)["windows"]
    assert isinstance(windows, list)
    return {str(w["id"]): list(w["tabs"]) for w in windows}


def test_a_tab_dragged_with_the_mouse_reorders_moves_to_another_window_and_opens_a_new_one(
        xdotool: None, launch, tmp_path: Path) -> None:
    project, other = tmp_path / "proj", tmp_path / "other"
    data = tmp_path / "data"
    root = str(project)
    (other / ".ideai").mkdir(parents=True)
    saved_workspace(data, [[str(other), root], []])  # w1 at (0, 0), w2 at (800, 0), 780x480
    app = launch(project=project, data_dir=data)
    pages = pages_by_window(app, 2)
    first, second = pages["w1"], pages["w2"]
    wait_for(lambda: tab_roots(first) == [str(other), root], what="two tabs in w1")
    pointer = Pointer(app.display)

    # (3) On its own tab bar, past the last tab: it goes last, nothing is lost.
    pointer.drag(first, first, screen_point(first, f'[data-tab-root="{other}"]'),
                 screen_point(first, '[data-testid="tab-home"]', 0.5), over_target=first)
    wait_for(lambda: tab_roots(first) == [root, str(other)], what="the tab moved last")
    assert tabs_of(first)["w1"] == [root, str(other)]
    assert "Could not move the tab" not in first.inner_text("body")

    first.locator(f'[data-tab-root="{root}"]').click()
    cell = first.locator('[data-testid="cell"]:visible').first
    session = open_shell(first, cell)
    type_in(first, cell, "PS1='$ '; echo ready-$((6*7))\n")
    wait_terminal(first, session, "ready-42")
    type_in(first, cell, f"for i in $(seq 1 {LINES}); do echo line-$i; sleep 0.02; done; "
                         "echo loop-$((1+1))-done\n")
    wait_for(lambda: len(numbered(terminal_text(first, session))) > 10, what="output flowing")

    # (1) Onto the other window's tab bar, while the shell prints.
    pointer.drag(first, first, screen_point(first, f'[data-tab-root="{root}"]'),
                 screen_point(second, '[data-testid="tabbar"]', 0.4), over_target=second)
    wait_for(lambda: tab_roots(second) == [root], what="the tab shown in w2")
    wait_for(lambda: tab_roots(first) == [str(other)], what="the tab gone from w1")
    assert tabs_of(first) == {"w1": [str(other)], "w2": [root]}
    shown = cells(second).first.locator('[data-testid="terminal"]')
    wait_for(lambda: shown.get_attribute("data-session-id") == session,
             what="the same session re-attached in w2")
    text = wait_terminal(second, session, "loop-2-done", timeout_s=60)
    assert numbered(text) == list(range(1, LINES + 1)), "a line was lost or doubled"
    assert "ready-42" in text, "the scrollback came with it"

    # (2) Out of every window, onto the empty desktop below them.
    pointer.drag(first, second, screen_point(second, f'[data-tab-root="{root}"]'), (400, 760))
    third = pages_by_window(app, 3)["w3"]
    wait_for(lambda: tabs_of(first).get("w3") == [root], what="the tab in a new window w3")
    assert tabs_of(first) == {"w1": [str(other)], "w2": [], "w3": [root]}
    wait_for(lambda: tab_roots(third) == [root], what="the tab shown in w3")
    wait_for(lambda: tab_roots(second) == [], what="the tab gone from w2")
    moved = third.locator('[data-testid="cell"]:visible [data-testid="terminal"]').first
    wait_for(lambda: moved.get_attribute("data-session-id") == session,
             what="the session re-attached in w3")
    type_in(third, third.locator('[data-testid="cell"]:visible').first, "echo w3-$((3*3))\n")
    text = wait_terminal(third, session, "w3-9")
    assert numbered(text) == list(range(1, LINES + 1))
    new = json.loads((data / "workspace.json").read_text())["windows"][2]
    # The window hangs from the pointer (80, 16 px: on its first tab) at the drop point, but
    # moved up to lie whole on the 1600x1000 screen: 744 + 480 would pass its bottom edge.
    assert new["id"] == "w3" and (new["bounds"]["x"], new["bounds"]["y"]) == (320, 520)
    assert [t["root"] for t in new["tabs"]] == [root]

    # (4) Out of every window again, but Escape cancels the drag: nothing opens, nothing moves.
    pointer.drag(first, third, screen_point(third, f'[data-tab-root="{root}"]'), (1200, 900),
                 escape=True)
    third.wait_for_timeout(500)  # a wrong new window would be opened by now
    assert tabs_of(first) == {"w1": [str(other)], "w2": [], "w3": [root]}
    assert tab_roots(third) == [root]
    assert len(json.loads((data / "workspace.json").read_text())["windows"]) == 3
