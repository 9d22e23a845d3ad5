"""e2e helpers for several IdeA windows: each OS window is one Playwright page of the same CDP
connection. `drag_tab` moves a tab between them with DOM drag events dispatched in each page
(the backend holds what is dragged); `e2e/test_native_drag.py` drags with the real X pointer."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page

from e2e.harness import IdeaApp
from e2e.ui import wait_for


def page_targets(app: IdeaApp) -> int:
    """How many IdeA pages (OS windows) the DevTools endpoint lists."""
    with urllib.request.urlopen(f"http://127.0.0.1:{app.devtools_port}/json/list",
                                timeout=5) as r:
        return sum(1 for t in json.load(r) if t.get("type") == "page"
                   and app.page_url(str(t.get("url", ""))))


def window_id(page: Page) -> str | None:
    """The IdeA window id a page belongs to (`windows.state()`), once its UI is ready."""
    try:
        reply = page.evaluate(
            "() => window.__ideaReady === true && window.pywebview.api.windows.state()")
    except Exception:  # noqa: BLE001 - a page still loading
        return None
    return str(reply["ok"]["windowId"]) if isinstance(reply, dict) and "ok" in reply else None


def saved_workspace(data_dir: Path, windows: list[list[str]]) -> None:
    """Write `workspace.json` with one window per entry (its tabs), in a 2×2 grid that does
    not overlap (an occluded page is not painted by Chromium)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    doc = {"version": 1, "windows": [
        {"id": f"w{i + 1}", "bounds": {"x": 800 * (i % 2), "y": 500 * (i // 2), "width": 780,
                                       "height": 480},
         "tabs": [{"root": r} for r in roots], **({"activeRoot": roots[-1]} if roots else {})}
        for i, roots in enumerate(windows)]}
    (data_dir / "workspace.json").write_text(json.dumps(doc, indent=2))


def pages_by_window(app: IdeaApp, count: int, timeout_s: float = 60) -> dict[str, Page]:
    """The pages of `count` IdeA windows, by window id, once each one's UI is ready.

    Polls with `wait_for_timeout` on the first page: the sync Playwright client handles the
    connection's events (a new page) only inside its own calls, never during `time.sleep`."""
    assert app.browser is not None and app.page is not None
    deadline = time.monotonic() + timeout_s
    found: dict[str, Page] = {}
    while time.monotonic() < deadline and len(found) < count:
        for page in [p for c in app.browser.contexts for p in c.pages if app.page_url(p.url)]:
            if page not in found.values() and (wid := window_id(page)) is not None:
                found[wid] = page
        app.page.wait_for_timeout(300)
    assert len(found) == count, f"{len(found)} of {count} windows ready:\n{app.log()}"
    return dict(sorted(found.items()))


def workspace_state(page: Page) -> dict[str, object]:
    reply = page.evaluate("() => window.pywebview.api.windows.state()")
    return dict(reply["ok"])


def open_window_from_menu(page: Page) -> None:
    page.locator('[data-testid="window-menu"]').click()
    page.locator('[data-testid="menu-new-window"]').click()


def tab_roots(page: Page) -> list[str]:
    return [str(r) for r in page.locator("[data-tab-root]").evaluate_all(
        "els => els.map(e => e.dataset.tabRoot)")]


_DRAG_START = """([root]) => {
  const tab = document.querySelector(`[data-tab-root="${CSS.escape(root)}"]`);
  const dt = new DataTransfer();
  tab.dispatchEvent(new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt}));
  window.__ideaDrag = {tab, dt};
}"""

_DROP = """([root, index]) => {
  const bar = document.querySelector('[data-testid="tabbar"]');
  const tabs = [...bar.querySelectorAll('[data-tab-root]')];
  const box = index < tabs.length ? tabs[index].getBoundingClientRect() : bar.getBoundingClientRect();
  const x = index < tabs.length ? box.left + 2 : box.right - 2;
  const y = box.top + box.height / 2;
  const dt = new DataTransfer();
  dt.setData('application/x-idea-tab', root);
  for (const type of ['dragenter', 'dragover', 'drop']) {
    bar.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: dt,
                                           clientX: x, clientY: y}));
  }
}"""

_DRAG_END = """([screenX, screenY, effect]) => {
  const {tab, dt} = window.__ideaDrag;
  dt.dropEffect = effect;
  tab.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: dt, screenX, screenY}));
}"""


def drag_tab(source: Page, target: Page, root: str, index: int = 0) -> None:
    """Drag `root`'s tab from `source` and drop it on `target`'s tab bar at `index`.

    The source's `dragend` is dispatched once the drop was taken: the backend reads the real
    pointer at `dragEnd`, which these events do not move (outside every window, a `dragEnd`
    still pending would open a new window there)."""
    source.evaluate(_DRAG_START, [root])
    wait_for(lambda: source.evaluate("() => !!window.__ideaDrag"), what="drag started")
    time.sleep(0.3)  # the dragStart call reaches the backend before the drop's (two windows)
    target.evaluate(_DROP, [root, index])
    holder = window_id(target)
    wait_for(lambda: root in next(w["tabs"] for w in workspace_state(source)["windows"]
                                  if w["id"] == holder), what="the drop taken")
    source.evaluate(_DRAG_END, [0, 0, "move"])
