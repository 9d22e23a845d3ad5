"""The Chromium memory flags the window adapter adds (ADR 016)."""

from __future__ import annotations

from app.adapters.window.chromium_memory import MEMORY_FLAGS, apply


def test_adds_the_flags_after_the_users_own() -> None:
    env = {"QTWEBENGINE_CHROMIUM_FLAGS": "--no-sandbox"}
    assert apply(env) == list(MEMORY_FLAGS)
    assert env["QTWEBENGINE_CHROMIUM_FLAGS"] == " ".join(["--no-sandbox", *MEMORY_FLAGS])


def test_never_repeats_a_flag_and_starts_from_nothing() -> None:
    env: dict[str, str] = {}
    apply(env)
    assert apply(env) == []
    assert env["QTWEBENGINE_CHROMIUM_FLAGS"].split() == list(MEMORY_FLAGS)


def test_can_be_turned_off() -> None:
    env = {"IDEA_CHROMIUM_MEMORY_FLAGS": "0", "QTWEBENGINE_CHROMIUM_FLAGS": "--no-sandbox"}
    assert apply(env) == []
    assert env["QTWEBENGINE_CHROMIUM_FLAGS"] == "--no-sandbox"


def test_the_users_own_js_flags_win() -> None:
    env = {"QTWEBENGINE_CHROMIUM_FLAGS": "--js-flags=--max-old-space-size=512"}
    assert apply(env) == []
    assert env["QTWEBENGINE_CHROMIUM_FLAGS"] == "--js-flags=--max-old-space-size=512"
