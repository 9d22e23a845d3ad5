"""AI profiles: detection and the app-side `profiles.json` (SPEC C4)."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.domain.documents import dump_document, parse_document
from app.core.domain.profiles import Profile, ProfilesDoc, builtin_profiles
from app.core.errors import INVALID, AppError
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


def _read(fs: FileSystem, data_dir: str) -> ProfilesDoc | None:
    """The file, `None` when missing; raises `AppError(CORRUPT_FILE)`."""
    path = posixpath.join(data_dir, PROFILES_FILE)
    text = fs.read_text(path)
    return None if text is None else parse_document(text, ProfilesDoc, path)


class LoadProfiles:
    """The user's profiles (`<data_dir>/profiles.json`)."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir

    def execute(self) -> list[Profile]:
        """Profiles from the file, or the built-in catalogue when it is missing.

        Raises `AppError(CORRUPT_FILE)` (details `{file, field}`) when it cannot be read.
        """
        found = _read(self._fs, self._data_dir)
        return builtin_profiles() if found is None else list(found.profiles)


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
        doc = (ProfilesDoc(profiles=tuple(profiles)) if found is None
               else found.model_copy(update={"profiles": tuple(profiles)}))
        self._fs.make_dirs(data_dir)
        self._fs.write_text_atomic(posixpath.join(data_dir, PROFILES_FILE), dump_document(doc))
