"""Profiles and app settings (SPEC C4): what the first-run wizard and "Profiles…" use."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from app.core.domain.profiles import Profile
from app.core.errors import CORRUPT_FILE, AppError
from app.core.usecases.profiles import DetectProfiles, LoadProfiles, ProfileDetection, SaveProfiles
from app.core.usecases.project_state import Problem
from app.core.usecases.settings import LoadSettings, MarkFirstRunDone


class ProfileService:
    """Detect, list and save profiles; whether the first run is done."""

    def __init__(self, detect: DetectProfiles, load: LoadProfiles, save: SaveProfiles,
                 settings: LoadSettings, first_run_done: MarkFirstRunDone) -> None:
        self._detect, self._load, self._save = detect, load, save
        self._settings, self._first_run_done = settings, first_run_done

    def detect(self) -> builtins.list[ProfileDetection]:
        """Which built-in CLIs are installed (each detection has a timeout)."""
        return self._detect.execute()

    def list(self) -> list[Profile]:
        """The user's profiles. Raises `CORRUPT_FILE`."""
        return self._load.execute()

    def save(self, profiles: Sequence[Profile]) -> None:
        """Save the profiles and mark the first run done. Errors of `SaveProfiles`."""
        self._save.execute(profiles)
        self._first_run_done.execute()

    def first_run(self) -> tuple[bool, builtins.list[Problem]]:
        """Whether the first-run wizard should show, and the app-wide problems found asking.

        An unreadable `settings.json` is reported (never overwritten) and does not bring the
        wizard back: the user already went through it once.
        """
        try:
            return not self._settings.execute().first_run_done, []
        except AppError as exc:
            if exc.code != CORRUPT_FILE:
                raise
            file = str(exc.details.get("file", "settings.json"))
            return False, [Problem(file, exc.message.removeprefix(f"{file}: "))]
