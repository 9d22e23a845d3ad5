"""When the window composites in software (ADR 008)."""

from __future__ import annotations

from app.adapters.window.software_gl import apply, wants_software


def none() -> list[str]:
    return []


def gpu() -> list[str]:
    return ["/dev/dri/renderD128"]


def test_no_render_node_means_software() -> None:
    env = {"QTWEBENGINE_CHROMIUM_FLAGS": "--no-sandbox"}
    assert apply(env, none)
    assert env == {"QT_QUICK_BACKEND": "software",
                   "QTWEBENGINE_CHROMIUM_FLAGS": "--no-sandbox --disable-gpu"}
    assert apply(env, none) and env["QTWEBENGINE_CHROMIUM_FLAGS"].count("--disable-gpu") == 1


def test_a_gpu_is_left_alone_unless_mesa_is_told_to_use_software() -> None:
    env: dict[str, str] = {}
    assert not apply(env, gpu) and env == {}
    assert wants_software({"LIBGL_ALWAYS_SOFTWARE": "1"}, gpu)


def test_the_user_and_the_override_win() -> None:
    assert not wants_software({"QT_QUICK_BACKEND": "rhi"}, none)
    assert not wants_software({"IDEA_SOFTWARE_RENDERING": "0"}, none)
    assert wants_software({"IDEA_SOFTWARE_RENDERING": "1"}, gpu)
