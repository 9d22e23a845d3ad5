"""AI profiles: detection and the app-side `profiles.json` (SPEC C4)."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.domain import jsonshape as js
from app.core.domain.profiles import Profile, builtin_profiles
from app.core.errors import CORRUPT_FILE, INVALID, AppError
from app.core.ports import FileSystem, ProfileDetector

PROFILES_FILE = "profiles.json"


@dataclass(frozen=True)
class ProfileDetection:
    """Whether `profile`'s CLI is installed, and the version line it printed."""

    profile: Profile
    installed: bool
    version: str | None

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"profile", "installed", "version"}`."""
        return {"profile": self.profile.to_json(), "installed": self.installed,
                "version": self.version}


class DetectProfiles:
    """Run each profile's detection command (e.g. `claude --version`)."""

    def __init__(self, detector: ProfileDetector) -> None:
        self._detector = detector

    def execute(self, profiles: Sequence[Profile] | None = None) -> list[ProfileDetection]:
        """Detect `profiles` (default: the built-in catalogue), in order.

        An empty command (the user's shell) is always installed; a profile without `detect`
        is reported not installed (nothing is run).
        """
        out = []
        for profile in builtin_profiles() if profiles is None else profiles:
            if not profile.command:
                out.append(ProfileDetection(profile, True, None))
            elif profile.detect is None:
                out.append(ProfileDetection(profile, False, None))
            else:
                version = self._detector.detect(profile.command, list(profile.detect.args),
                                                profile.detect.timeout_ms)
                out.append(ProfileDetection(profile, version is not None, version))
        return out


def _read(fs: FileSystem, data_dir: str) -> tuple[list[Profile], dict[str, Any]] | None:
    path = posixpath.join(data_dir, PROFILES_FILE)
    text = fs.read_text(path)
    if text is None:
        return None
    try:
        obj = js.as_object(js.parse_json(text, path), path)
        raw = js.as_list(obj.get("profiles"), f"{path}: profiles")
        profiles = [Profile.from_json(p, f"{path}: profiles[{i}]") for i, p in enumerate(raw)]
    except AppError as exc:
        raise AppError(CORRUPT_FILE, exc.message, {"file": path}) from exc
    return profiles, js.extra_keys(obj, ("profiles",))


class LoadProfiles:
    """The user's profiles (`<data_dir>/profiles.json`)."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir

    def execute(self) -> list[Profile]:
        """Profiles from the file, or the built-in catalogue when it is missing.

        Raises `AppError(CORRUPT_FILE)` (details `{file}`) when it cannot be read.
        """
        found = _read(self._fs, self._data_dir)
        return builtin_profiles() if found is None else found[0]


class SaveProfiles:
    """Write `<data_dir>/profiles.json` (unknown top-level keys kept)."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir

    def execute(self, profiles: Sequence[Profile]) -> None:
        """Raises `INVALID` (duplicate or empty ids), `CORRUPT_FILE` (existing file unreadable:
        it is never overwritten), `NOT_WRITABLE`."""
        if not profiles:
            raise AppError(INVALID, "choose at least one profile (Shell is always available)")
        ids = [p.id for p in profiles]
        if "" in ids or len(ids) != len(set(ids)):
            raise AppError(INVALID, "profile ids must be unique and non-empty")
        data_dir = self._data_dir
        found = _read(self._fs, data_dir)
        extra = {"version": 1, **(found[1] if found else {})}
        self._fs.make_dirs(data_dir)
        text = js.dump_json({**extra, "profiles": [p.to_json() for p in profiles]})
        self._fs.write_text_atomic(posixpath.join(data_dir, PROFILES_FILE), text)
