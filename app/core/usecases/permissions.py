"""Project permissions (`.ideai/permissions.json`, digest §2.1): loading. Deciding is
`app/core/domain/permission_rules.py`, the OS sandbox plan `sandbox_compile.py` (contracts §9)."""

from __future__ import annotations

from app.core.domain.permissions import PermissionsDoc
from app.core.ports import FileSystem
from app.core.usecases.project_files import read_json
from app.core.usecases.project_state import ideai_path

PERMISSIONS_FILE = "permissions.json"


def load_permissions(fs: FileSystem, root: str) -> PermissionsDoc | None:
    """`<root>/.ideai/permissions.json`, or `None` when the file is missing (nothing posed).

    Raises `AppError(CORRUPT_FILE)` (details `{file, field}`) when it does not parse; the file
    is never written here.
    """
    return read_json(fs, ideai_path(root, PERMISSIONS_FILE), PermissionsDoc)
