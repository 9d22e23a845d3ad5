"""`app/core` stays pure: no adapter, bridge, GUI, PTY, MCP, process, network, thread or os
imports (SPEC §2)."""

import ast
import pathlib

import pytest

CORE = pathlib.Path(__file__).resolve().parents[2] / "app" / "core"
FORBIDDEN = ("app.adapters", "app.bridge", "webview", "ptyprocess", "winpty", "mcp", "qtpy",
             "PyQt6", "subprocess", "socket", "threading", "os", "shutil")


def _imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def _is_forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)


MODULES = sorted(CORE.rglob("*.py"))


def test_core_has_modules() -> None:
    assert len(MODULES) > 10


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(CORE)))
def test_module_imports_nothing_impure(path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = [name for name in _imported(tree) if _is_forbidden(name)]
    assert not bad, f"{path} imports {bad}"


def test_checker_catches_forbidden_forms() -> None:
    src = "import os.path\nfrom subprocess import run\nfrom app.adapters.pty import X\n"
    assert [n for n in _imported(ast.parse(src)) if _is_forbidden(n)] == [
        "os.path", "subprocess", "subprocess.run", "app.adapters.pty", "app.adapters.pty.X"]
    assert not [n for n in _imported(ast.parse("import posixpath\nimport osx")) if
                _is_forbidden(n)]
