"""The window's page keeps nothing in browser storage (ADR 014): each window runs in a private,
in-memory web profile, so anything kept there would vanish at quit. State lives in Python."""

from __future__ import annotations

import re
from pathlib import Path

WEB_SRC = Path(__file__).resolve().parents[2] / "web" / "src"
BROWSER_STORAGE = re.compile(r"\b(localStorage|sessionStorage|indexedDB|document\.cookie)\b")


def test_the_page_source_uses_no_browser_storage() -> None:
    sources = [p for p in WEB_SRC.rglob("*") if p.suffix in {".ts", ".svelte", ".js"}
               and ".spec." not in p.name]
    assert sources, "no web sources found"
    offenders = [f"{p.relative_to(WEB_SRC)}: {m.group(0)}" for p in sources
                 for m in BROWSER_STORAGE.finditer(p.read_text(encoding="utf-8"))]
    assert offenders == []
