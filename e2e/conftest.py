"""Fixtures for the end-to-end tests on the real window (see e2e/harness.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Playwright, sync_playwright

from e2e.harness import IdeaApp, Xvfb


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    xvfb = Xvfb()
    yield xvfb.start()
    xvfb.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture
def launch(playwright: Playwright, display: str, tmp_path: Path,
           request: pytest.FixtureRequest) -> Iterator[Callable[..., IdeaApp]]:
    """``launch(project=..., first_run=..., data_dir=..., command=...)`` starts the real app (or
    ``command``, e.g. a packaged ``AppRun``); stopped after."""
    started: list[IdeaApp] = []

    def _launch(project: Path | None = None, first_run: bool = False,
                data_dir: Path | None = None, extra_env: dict[str, str] | None = None,
                command: list[str] | None = None,
                page_url: Callable[[str], bool] | None = None) -> IdeaApp:
        app = IdeaApp(playwright, display, data_dir or tmp_path / "data", project, first_run,
                      extra_env, command, page_url)
        started.append(app)
        app.start()
        return app

    yield _launch
    failed = getattr(request.node, "rep_call", None)
    for app in started:
        if failed is not None and failed.failed:
            print(f"--- app log ({app.data_dir}) ---\n{app.log()}")
            if app.page is not None:
                try:
                    out = Path(__file__).parent.parent / ".e2e-artifacts"
                    out.mkdir(exist_ok=True)
                    app.page.screenshot(path=str(out / f"{request.node.name}.png"))
                except Exception:  # noqa: BLE001
                    pass
        app.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
