"""Profiles and app settings (SPEC C4): what the first-run wizard and "Profiles…" use."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from app.core.domain.profiles import Profile, ProfileTemplate, profile_templates
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

    def test(self, profile: Profile) -> ProfileDetection:
        """Run `profile`'s detection as the editor has it (not saved)."""
        return self._detect.one(profile)

    def templates(self) -> builtins.list[ProfileTemplate]:
        """Starting points for a custom profile (the generic ACP agent, a blank CLI)."""
        return profile_templates()

    def list(self) -> list[Profile]:
        """Every profile of `profiles.json`, disabled ones too (the editor's list).
        Raises `CORRUPT_FILE`."""
        return self._load.execute(include_disabled=True)

    def save(self, profiles: Sequence[Profile]) -> builtins.list[Profile]:
        """Save the profiles and mark the first run done; returns what was saved. Errors of
        `SaveProfiles`."""
        saved = self._save.execute(profiles)
        self._first_run_done.execute()
        return saved

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
