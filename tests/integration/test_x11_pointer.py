"""`X11Pointer` against a real X server (Xvfb) whose pointer xdotool presses, as a user's
mouse: the button state the window adapter reads when a tab drag ends (a cancel leaves it
held). Linux only: there is no X server elsewhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator

import pytest

from app.adapters.window.x11_pointer import X11Pointer
from e2e.harness import Xvfb

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason=f"an X server (Xvfb): not on {sys.platform}")


@pytest.fixture
def x_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if shutil.which("xdotool") is None:
        pytest.fail("xdotool is not installed: ./run-tests installs it (scripts/bootstrap.sh)")
    xvfb = Xvfb("800x600x24")
    display = xvfb.start()
    monkeypatch.setenv("DISPLAY", display)
    yield display
    xvfb.stop()


def xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], env=dict(os.environ), check=True, timeout=10)


def test_the_primary_button_reads_held_while_pressed_and_released_after(x_display: str) -> None:
    pointer = X11Pointer()
    xdotool("mousemove", "100", "100")
    assert pointer.primary_held() is False
    xdotool("mousedown", "1")
    try:
        assert pointer.primary_held() is True
        xdotool("mousedown", "3")  # another button: still the primary's state
        assert pointer.primary_held() is True
    finally:
        xdotool("mouseup", "3")
        xdotool("mouseup", "1")
    assert pointer.primary_held() is False


def test_no_x_server_is_unknown_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", ":239")  # nothing listens there
    pointer = X11Pointer()
    assert pointer.primary_held() is None
    assert pointer.primary_held() is None  # asked once, then remembered
