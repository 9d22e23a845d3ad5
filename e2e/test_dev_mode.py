"""`idea dev` (issue 3): the window loads the Vite dev server and restarts on Python changes."""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page

from app.adapters.stores.filesystem import LocalFileSystem
from e2e.cdp_proxy import CdpProxy
from e2e.harness import free_port
from e2e.ui import cells, open_shell, type_in, wait_for, wait_terminal

pytestmark = pytest.mark.slow


def devtools_pages(port: int) -> list[dict[str, str]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as r:
        return [p for p in json.load(r) if p.get("type") == "page"]


def test_dev_mode_serves_the_window_from_vite_and_restarts_on_change(
        launch, tmp_path: Path) -> None:
    port = free_port()
    vite = f"http://127.0.0.1:{port}/"
    watch = tmp_path / "watched-app"
    watch.mkdir()
    app = launch(project=tmp_path / "proj", command=[sys.executable, "-m", "app", "dev"],
                 page_url=lambda url: url.startswith(vite),
                 extra_env={"IDEA_DEV_PORT": str(port), "IDEA_DEV_WATCH_DIR": str(watch)})
    page = app.page
    assert page.url.startswith(vite)
    # Vite serves sources as ES modules (no built bundle): this is the dev server, not dist/.
    assert page.evaluate("() => [...document.scripts].some(s => s.src.includes('/src/main.ts'))")
    cell = cells(page).first
    session = open_shell(page, cell)  # the pywebview bridge works over http:// too
    type_in(page, cell, "echo dev-$((6*7))\n")
    wait_terminal(page, session, "dev-42")

    before = {p["id"] for p in devtools_pages(app.devtools_port)}
    (watch / "changed.py").write_text("x = 1\n")

    def restarted_page() -> bool:
        try:
            pages = devtools_pages(app.devtools_port)
        except OSError:
            return False
        return any(p["url"].startswith(vite) and p["id"] not in before for p in pages)

    wait_for(restarted_page, timeout_s=60, what="the window restarted on the Vite URL")

    # The restarted window re-opened the same project (same --project arguments).
    with urllib.request.urlopen(f"http://127.0.0.1:{app.devtools_port}/json/version", timeout=5) as r:
        ws_url = str(json.load(r)["webSocketDebuggerUrl"])
    proxy = CdpProxy(app.devtools_port)
    proxy_port = proxy.start()
    try:
        browser = app.playwright.chromium.connect_over_cdp(
            ws_url.replace(f":{app.devtools_port}/", f":{proxy_port}/"), timeout=30_000)
        fresh = wait_for(lambda: next((pg for ctx in browser.contexts for pg in ctx.pages
                                       if pg.url.startswith(vite)), None), what="new page")
        fresh.wait_for_function("window.__ideaReady === true", timeout=30_000)
        fresh.locator('[data-testid="tab-proj"]').wait_for(timeout=20_000)
        browser.close()
    finally:
        proxy.stop()
    app.stop()
    # Dev mode stopped its children: nothing answers on the Vite port any more.
    time.sleep(0.5)
    with pytest.raises(OSError):
        urllib.request.urlopen(vite, timeout=2)


REPO = Path(__file__).resolve().parent.parent
PANEL = REPO / "web" / "src" / "features" / "agents" / "AgentsPanel.svelte"
EMPTY_TEXT = "No agents yet."


def save_as_an_editor_does(path: Path, text: str) -> None:
    """Write `text` to a sibling file and rename it over `path` (IdeA's own atomic write), so
    Vite's watcher never reads the file truncated or half written."""
    LocalFileSystem().write_text_atomic(str(path), text)


def vite_errors(page: Page) -> list[str]:
    """The text of Vite's error overlays in `page` (a compile error during a hot update)."""
    return [str(text) for text in page.evaluate(
        "() => [...document.querySelectorAll('vite-error-overlay')]"
        ".map(o => (o.shadowRoot || o).textContent.trim().slice(0, 2000))")]


def test_svelte_hot_update_keeps_the_app_state(launch, tmp_path: Path) -> None:
    """Editing a component under `idea dev` updates it in place: no page reload, the open
    project, its layout and a live terminal with its output all stay."""
    port = free_port()
    vite = f"http://127.0.0.1:{port}/"
    app = launch(project=tmp_path / "proj", command=[sys.executable, "-m", "app", "dev"],
                 page_url=lambda url: url.startswith(vite),
                 extra_env={"IDEA_DEV_PORT": str(port),
                            "IDEA_DEV_WATCH_DIR": str(tmp_path)})
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "echo before-hmr-$((1+1))\n")
    wait_terminal(page, session, "before-hmr-2")
    page.evaluate("() => { window.__sameDocument = 'yes'; }")
    updates: list[str] = []
    page.on("console", lambda msg: updates.append(msg.text))

    original = PANEL.read_text()
    assert EMPTY_TEXT in original
    try:
        save_as_an_editor_does(PANEL, original.replace(EMPTY_TEXT, "No agents yet (hot-updated)."))
        page.get_by_text("No agents yet (hot-updated).").wait_for(timeout=30_000)
    finally:
        save_as_an_editor_does(PANEL, original)
    wait_for(lambda: page.get_by_text(EMPTY_TEXT).count() > 0 or vite_errors(page),
             timeout_s=30, what="the restored file hot-updated back")
    assert not vite_errors(page)
    assert page.evaluate("() => window.__sameDocument") == "yes"  # not reloaded
    assert any("hot updated" in line for line in updates), updates
    page.locator('[data-testid="tab-proj"]').wait_for()
    assert session in [t.get_attribute("data-session-id")
                       for t in page.locator('[data-testid="terminal"]').all()]
    type_in(page, cells(page).first, "echo after-hmr-$((2+2))\n")
    text = wait_terminal(page, session, "after-hmr-4")
    assert "before-hmr-2" in text
