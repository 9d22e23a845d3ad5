"""The dependency rule (SPEC §2): `app/core` is pure; `app/services` and the doors
(`app/bridge`, `app/mcp`, `app/commands`) import no adapter and no technology but their own —
they get ports from the bootstrap. Checked on the import statements of every module."""

import ast
import pathlib

import pytest

APP = pathlib.Path(__file__).resolve().parents[2] / "app"
TECHNOLOGY = ("webview", "ptyprocess", "winpty", "qtpy", "PyQt6", "subprocess", "socket")
RULES = {
    "core": ("app.adapters", "app.bridge", "app.services", "app.bootstrap", "mcp", "threading",
             "os", "shutil", *TECHNOLOGY),
    "services": ("app.adapters", "app.bridge", "app.bootstrap", "os", "shutil", *TECHNOLOGY),
    "bridge": ("app.adapters", "app.bootstrap", *TECHNOLOGY),
    # Doors 2 and 3: their technology is the endpoint's wire (the `mcp` SDK server side, a
    # socket on the client side), never an adapter.
    "mcp": ("app.adapters", "app.bootstrap", "app.bridge", "app.services", "webview",
            "ptyprocess", "winpty", "qtpy", "PyQt6", "subprocess"),
    "commands": ("app.adapters", "app.bootstrap", "app.bridge", "app.services", "webview",
                 "ptyprocess", "winpty", "qtpy", "PyQt6", "subprocess"),
}


def _imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def _is_forbidden(name: str, forbidden: tuple[str, ...]) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in forbidden)


CASES = [(layer, path) for layer in RULES for path in sorted((APP / layer).rglob("*.py"))]


def test_every_layer_has_modules() -> None:
    assert all(any(layer == lay for lay, _ in CASES) for layer in RULES)
    assert len([p for lay, p in CASES if lay == "core"]) > 10


@pytest.mark.parametrize(("layer", "path"), CASES, ids=lambda v: str(v).split("/app/")[-1])
def test_module_imports_nothing_its_layer_forbids(layer: str, path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = [name for name in _imported(tree) if _is_forbidden(name, RULES[layer])]
    assert not bad, f"{path} imports {bad}"


def test_checker_catches_forbidden_forms() -> None:
    src = "import os.path\nfrom subprocess import run\nfrom app.adapters.pty import X\n"
    found = [n for n in _imported(ast.parse(src)) if _is_forbidden(n, RULES["core"])]
    assert found == ["os.path", "subprocess", "subprocess.run", "app.adapters.pty",
                     "app.adapters.pty.X"]
    assert not [n for n in _imported(ast.parse("import posixpath\nimport osx")) if
                _is_forbidden(n, RULES["core"])]
