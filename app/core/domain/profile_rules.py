"""What makes a profile usable (SPEC C4): the rules checked before profiles are saved. Pure.

Each problem names the JSON field it is about (`contextInjection.flag`, `env.MY VAR`,
`profiles[2].command`), so the editor can show it next to that field. Whether a command exists
is not decided here (it needs the file system): `SaveProfiles` asks its `CommandResolver`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.core.domain.profiles import (
    AGENT_RUN_DIR,
    PROJECT_ROOT,
    RESUME_ID,
    Profile,
    shell_misfit,
)

ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Set by IdeA at every launch (contracts §7.6); a profile cannot override them.
RESERVED_ENV = ("PATH",)
RESERVED_ENV_PREFIX = "IDEA_"
CWD_TEMPLATES = (AGENT_RUN_DIR, PROJECT_ROOT)
MIN_DETECT_TIMEOUT_MS, MAX_DETECT_TIMEOUT_MS = 100, 60_000
MAX_SUBMIT_DELAY_MS = 5_000
_Bad = Callable[[str, str], None]


@dataclass(frozen=True)
class FieldProblem:
    """What is wrong (`message`, in the user's words) with which JSON `field` (a path such
    as `session.resumeArgs`, `""` for the whole list)."""

    field: str
    message: str

    def to_json(self) -> dict[str, str]:
        """`{"field", "message"}`."""
        return {"field": self.field, "message": self.message}


def is_path(command: str) -> bool:
    """Whether `command` names a file (holds a path separator) rather than a name on PATH."""
    return "/" in command or "\\" in command


def is_absolute(command: str) -> bool:
    """POSIX `/x`, Windows `C:\\x` or `\\\\server\\x`."""
    return (command.startswith("/") or command.startswith("\\\\")
            or re.match(r"[A-Za-z]:[\\/]", command) is not None)


def _file_name(name: str) -> bool:
    return bool(name) and not is_path(name) and name not in (".", "..")


def shell_misfit_problem(profile: Profile) -> str | None:
    """Why `profile`'s empty command cannot be the user's shell, in the user's words
    (`shell_misfit`), or `None`: what Save refuses and Test reports alike."""
    misfit = shell_misfit(profile)
    if misfit == "arguments":
        # A trial blanked the command of a Claude Code copy: it ran bash with Claude's flags.
        return ("name the CLI's command (e.g. claude): an empty command runs your shell, "
                "which takes none of this profile's arguments")
    if misfit == "cli":
        # A trial saved the Custom CLI template without a command: it launched a plain shell,
        # which neither reads a convention file nor takes a context flag.
        return ("name the CLI's command (e.g. my-cli): an empty command runs your shell, "
                "which is never detected and reads its context only from an environment "
                "variable")
    return None


def profile_problems(profile: Profile) -> list[FieldProblem]:
    """Every rule `profile` breaks, in field order (empty when it is usable)."""
    out: list[FieldProblem] = []

    def bad(field: str, message: str) -> None:
        out.append(FieldProblem(field, message))

    if not profile.id.strip() or any(c.isspace() or c in "/\\" for c in profile.id):
        bad("id", "give an id without spaces or slashes (e.g. my-cli)")
    if not profile.name.strip():
        bad("name", "give the profile a name")
    command = profile.command
    if command != command.strip() or "\n" in command:
        bad("command", "remove the spaces around the command (arguments go in args)")
    elif is_path(command) and not is_absolute(command):
        bad("command", f"'{command}' is a relative path: give the absolute path of the "
                       "executable, or a name found on the PATH")
    elif (misfit := shell_misfit_problem(profile)) is not None:
        bad("command", misfit)
    for key in profile.env:
        field = f"env.{key}"
        if not ENV_NAME.fullmatch(key):
            bad(field, f"'{key}' is not a valid environment variable name "
                       "(letters, digits and _, not starting with a digit)")
        elif key in RESERVED_ENV or key.startswith(RESERVED_ENV_PREFIX):
            bad(field, f"{key} is set by IdeA at launch and cannot be overridden")
    ci = profile.context_injection
    if ci.strategy == "conventionFile" and not _file_name(ci.target or ""):
        bad("contextInjection.target", "name the convention file the CLI reads from its "
                                       "working directory (e.g. CLAUDE.md, AGENTS.md)")
    elif ci.target is not None and not _file_name(ci.target):
        bad("contextInjection.target", f"'{ci.target}' must be a file name, without folders")
    if ci.strategy == "flag" and not (ci.flag or "").strip():
        bad("contextInjection.flag", "name the flag that takes the context file's path "
                                     "(e.g. --read)")
    if ci.strategy == "env" and not ENV_NAME.fullmatch(ci.var or ""):
        bad("contextInjection.var", "name the environment variable that receives the "
                                    "context file's path (e.g. IDEA_CONTEXT_FILE)")
    if profile.detect is not None and not (
            MIN_DETECT_TIMEOUT_MS <= profile.detect.timeout_ms <= MAX_DETECT_TIMEOUT_MS):
        bad("detect.timeoutMs", f"the detection timeout must be between "
                                f"{MIN_DETECT_TIMEOUT_MS} and {MAX_DETECT_TIMEOUT_MS} ms")
    if profile.cwd_template not in CWD_TEMPLATES:
        bad("cwdTemplate", f"the working directory is {AGENT_RUN_DIR} (the agent's run dir) "
                           f"or {PROJECT_ROOT}")
    elif profile.cwd_template == PROJECT_ROOT and ci.strategy == "conventionFile":
        bad("cwdTemplate", "a CLI that reads its convention file from its working directory "
                           "must start in its run dir (agents would overwrite each other's "
                           "file in the project root): grant the project with projectAccess")
    _structured(profile, bad)
    _session(profile, bad)
    if profile.prompt_ready_pattern is not None and not profile.prompt_ready_pattern.strip():
        bad("promptReadyPattern", "leave the prompt-ready pattern out, or give the text the "
                                  "CLI prints when it waits for input")
    if profile.submit_sequence is not None and profile.submit_sequence == "":
        bad("submitSequence", "leave the submit sequence out (default: Enter, \\r), or give "
                              "the keys that submit a line")
    if profile.submit_delay_ms is not None and not (
            0 <= profile.submit_delay_ms <= MAX_SUBMIT_DELAY_MS):
        bad("submitDelayMs", f"the submit delay must be between 0 and {MAX_SUBMIT_DELAY_MS} ms")
    return out


def _structured(profile: Profile, bad: _Bad) -> None:
    structured = profile.structured
    if structured is None:
        return
    command = structured.command
    if command is not None and (not command.strip() or (is_path(command)
                                                        and not is_absolute(command))):
        bad("structured.command", "leave the command out (the profile's is used), or give a "
                                  "name on the PATH or an absolute path")


def _session(profile: Profile, bad: _Bad) -> None:
    session = profile.session
    if session is None:
        return
    for field, flag in (("session.assignFlag", session.assign_flag),
                        ("session.resumeFlag", session.resume_flag)):
        if flag is not None and not flag.strip():
            bad(field, "leave the flag out, or name it (e.g. --resume)")
    if session.resume_args is not None:
        if session.resume_flag is not None:
            bad("session.resumeArgs", "give either a resume flag or resume arguments, not both")
        elif not any(RESUME_ID in arg for arg in session.resume_args):
            bad("session.resumeArgs", f"the resume arguments must hold {RESUME_ID} "
                                      "(e.g. resume {resumeId})")


def profiles_problems(profiles: Sequence[Profile]) -> list[FieldProblem]:
    """Every rule a list of profiles (`profiles.json`) breaks, fields prefixed with
    `profiles[<index>].`: each profile's rules, unique ids, at least one profile enabled."""
    out: list[FieldProblem] = []
    seen: set[str] = set()
    for index, profile in enumerate(profiles):
        where = f"profiles[{index}]"
        if profile.id in seen:
            out.append(FieldProblem(f"{where}.id", f"another profile already has the id "
                                                   f"'{profile.id}'"))
        seen.add(profile.id)
        out += [FieldProblem(f"{where}.{p.field}", p.message) for p in profile_problems(profile)]
    if not any(p.enabled for p in profiles):
        out.append(FieldProblem("profiles", "choose at least one profile (Shell is always "
                                            "available)"))
    return out
