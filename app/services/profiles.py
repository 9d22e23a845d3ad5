"""Profiles and app settings (SPEC C4): what the first-run wizard and "Profiles…" use."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.domain.profiles import Profile
from app.core.usecases.profiles import DetectProfiles, LoadProfiles, ProfileDetection, SaveProfiles
from app.core.usecases.settings import LoadSettings, MarkFirstRunDone


class ProfileService:
    """Detect, list and save profiles; whether the first run is done."""

    def __init__(self, detect: DetectProfiles, load: LoadProfiles, save: SaveProfiles,
                 settings: LoadSettings, first_run_done: MarkFirstRunDone) -> None:
        self._detect, self._load, self._save = detect, load, save
        self._settings, self._first_run_done = settings, first_run_done

    def detect(self) -> list[ProfileDetection]:
        """Which built-in CLIs are installed (each detection has a timeout)."""
        return self._detect.execute()

    def list(self) -> list[Profile]:
        """The user's profiles. Raises `CORRUPT_FILE`."""
        return self._load.execute()

    def save(self, profiles: Sequence[Profile]) -> None:
        """Save the profiles and mark the first run done. Errors of `SaveProfiles`."""
        self._save.execute(profiles)
        self._first_run_done.execute()

    def first_run_done(self) -> bool:
        """Whether the first-run wizard was completed. Raises `CORRUPT_FILE`."""
        return self._settings.execute().first_run_done
