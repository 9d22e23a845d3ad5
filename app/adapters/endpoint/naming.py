"""What names a project's endpoint, on every platform (a socket file, a pipe)."""

from __future__ import annotations

import hashlib

from app.core.usecases.project_state import clean_root


def project_digest(root: str) -> str:
    """16 hex chars of sha256(clean root) (the root as UTF-8, surrogates kept)."""
    return hashlib.sha256(clean_root(root).encode("utf-8", "surrogatepass")).hexdigest()[:16]
