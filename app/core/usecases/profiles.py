"""AI profiles: detection and the app-side `profiles.json` (SPEC C4)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.domain.detection import Detection
from app.core.domain.documents import dump_document, parse_document
from app.core.domain.field_labels import field_refusal
from app.core.domain.profile_rules import (
    FieldProblem,
    is_path,
    profiles_problems,
    shell_misfit_problem,
)
from app.core.domain.profiles import (
    Profile,
    ProfilesDoc,
    builtin_profiles,
    install_hint,
    with_catalogue_defaults,
)
from app.core.errors import INVALID, AppError
from app.core.ports import CommandResolver, FileSystem, ProfileDetector

PROFILES_FILE = "profiles.json"
_PROFILE_FIELD = re.compile(r"profiles\[(\d+)\]\.(.+)")


@dataclass(frozen=True)
class ProfileDetection:
    """What detecting `profile`'s CLI found: `installed`, the version line it printed, the
    whole `detection` (state, executable path, output) and `install`, the command installing
    the CLI when IdeA knows it (`profiles.install_hint`; `None` otherwise)."""

    profile: Profile
    installed: bool
    version: str | None
    detection: Detection = Detection("missing")
    install: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"profile", "installed", "version", "state", "path", "output",
        "exitCode", "install"}`."""
        d = self.detection
        return {"profile": self.profile.to_json(), "installed": self.installed,
                "version": self.version, "state": d.state, "path": d.path, "output": d.output,
                "exitCode": d.exit_code, "install": self.install}


class DetectProfiles:
    """Run each profile's detection command (e.g. `claude --version`).

    `shell` (absolute path of the user's shell) is what a profile with an empty command runs.
    """

    def __init__(self, detector: ProfileDetector, shell: str = "") -> None:
        self._detector, self._shell = detector, shell

    def execute(self, profiles: Sequence[Profile] | None = None) -> list[ProfileDetection]:
        """Detect `profiles` (default: the built-in catalogue), in order (see `one`)."""
        return [self.one(p) for p in (builtin_profiles() if profiles is None else profiles)]

    def one(self, profile: Profile) -> ProfileDetection:
        """Detect one profile (the editor's Test button).

        An empty command (the user's shell) is installed, its shell's path reported when one
        is configured, unless the profile cannot be the shell (`shell_misfit`): then it
        `failed`, its output saying why, as Save refuses it; a profile without `detect` is
        looked up only (nothing is run); else its detection command runs within its timeout.
        """
        misfit = shell_misfit_problem(profile)
        if misfit is not None:
            found = Detection("failed", output=misfit)
        elif not profile.command:
            found = Detection("installed", path=self._shell or None,
                              output=f"uses your shell: {self._shell}" if self._shell else "")
        elif profile.detect is None:
            found = self._detector.detect(profile.command, None, 0)
        else:
            found = self._detector.detect(profile.command, list(profile.detect.args),
                                          profile.detect.timeout_ms)
        return ProfileDetection(profile, found.installed, found.version, found,
                                install_hint(profile))


def _read(fs: FileSystem, data_dir: str) -> ProfilesDoc | None:
    """The file, `None` when missing; raises `AppError(CORRUPT_FILE)`."""
    path = posixpath.join(data_dir, PROFILES_FILE)
    text = fs.read_text(path)
    return None if text is None else parse_document(text, ProfilesDoc, path)


class LoadProfiles:
    """The user's profiles (`<data_dir>/profiles.json`)."""

    def __init__(self, fs: FileSystem, data_dir: str) -> None:
        self._fs, self._data_dir = fs, data_dir

    def execute(self, include_disabled: bool = False) -> list[Profile]:
        """The enabled profiles of the file (all of them with `include_disabled`), or the
        built-in catalogue when it is missing. A built-in profile written by an earlier
        version gets the catalogue's project grant (`with_catalogue_defaults`).

        Raises `AppError(CORRUPT_FILE)` (details `{file, field}`) when it cannot be read.
        """
        found = _read(self._fs, self._data_dir)
        if found is None:
            return builtin_profiles()
        return [with_catalogue_defaults(p) for p in found.profiles
                if include_disabled or p.enabled]


def profiles_to_store(profiles: Sequence[Profile]) -> list[Profile]:
    """What `profiles.json` keeps of the editor's list: every enabled profile, and the
    disabled ones the user configured (custom, or a built-in changed from the catalogue's);
    a disabled built-in left as the catalogue has it is not written (the catalogue has it)."""
    catalogue = {p.id: p for p in builtin_profiles()}
    kept = []
    for profile in profiles:
        builtin = catalogue.get(profile.id)
        untouched = (builtin is not None
                     and profile.model_copy(update={"enabled": True}) == builtin)
        if profile.enabled or not untouched:
            kept.append(profile)
    return kept


class SaveProfiles:
    """Write `<data_dir>/profiles.json` (unknown top-level keys kept)."""

    def __init__(self, fs: FileSystem, data_dir: str, resolver: CommandResolver) -> None:
        self._fs, self._data_dir, self._resolver = fs, data_dir, resolver

    def execute(self, profiles: Sequence[Profile]) -> list[Profile]:
        """Check and save the editor's list (see `profiles_to_store`); returns what was saved.

        Raises `INVALID` naming the first field at fault by its profile and its label in the
        editor (`Claude Code: Command: 'claude' was not found on the PATH …`; details
        `{field: "profiles[2].command", label, problems: [{field, message}]}`): the rules of
        `profiles_problems`, and an enabled profile whose command is not found;
        `CORRUPT_FILE` (existing file unreadable: it is never overwritten); `NOT_WRITABLE`.
        """
        problems = profiles_problems(profiles)
        known = {p.field for p in problems}
        problems += [p for p in self._missing_commands(profiles) if p.field not in known]
        if problems:
            problems.sort(key=lambda p: _order(p.field))
            raise _refusal(problems, profiles)
        data_dir = self._data_dir
        found = _read(self._fs, data_dir)
        stored = tuple(profiles_to_store(profiles))
        doc = (ProfilesDoc(profiles=stored) if found is None
               else found.model_copy(update={"profiles": stored}))
        self._fs.make_dirs(data_dir)
        self._fs.write_text_atomic(posixpath.join(data_dir, PROFILES_FILE), dump_document(doc))
        return list(stored)

    def _missing_commands(self, profiles: Sequence[Profile]) -> list[FieldProblem]:
        out = []
        for index, profile in enumerate(profiles):
            command = profile.command
            if not profile.enabled or not command or self._resolver.which(command) is not None:
                continue
            where = "does not exist or is not executable" if is_path(command) else \
                "was not found on the PATH"
            out.append(FieldProblem(
                f"profiles[{index}].command",
                f"'{command}' {where}: give the absolute path of the executable (Test shows "
                "what IdeA finds), or untick the profile"))
        return out


def _refusal(problems: Sequence[FieldProblem], profiles: Sequence[Profile]) -> AppError:
    """`INVALID` for the first of `problems`, said as the editor shows it: the profile's name
    (its id when it has none), then the field's label (`field_labels`)."""
    first, listed = problems[0], [p.to_json() for p in problems]
    at = _PROFILE_FIELD.fullmatch(first.field)
    if at is None:  # the whole list ("choose at least one profile")
        return AppError(INVALID, first.message, {"field": first.field, "problems": listed})
    profile = profiles[int(at[1])]
    refusal = field_refusal("profile", at[2], first.message, path=first.field,
                            details={"problems": listed})
    return AppError(INVALID, f"{profile.name.strip() or profile.id}: {refusal.message}",
                    refusal.details)


def _order(field: str) -> tuple[int, str]:
    """Problems sorted by profile index, then as found (a list-wide problem last)."""
    if field.startswith("profiles["):
        return int(field[len("profiles["):field.index("]")]), ""
    return 1 << 30, field
