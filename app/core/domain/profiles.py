"""Declarative AI CLI profiles (SPEC C4), the built-in catalogue and its templates.

Adding a CLI is adding data, not code. Optional fields are omitted from JSON when empty; keys
this version does not model (and the less used optional ones: `mcp`, `rateLimitPattern`,
`liveness`, `hooks`, …) are kept verbatim in `extra`. The shape rules (types) are checked when a
profile is read; the meaning rules (a flag strategy names its flag, an environment variable
has a valid name, …) live in `profile_rules` and are checked before a profile is saved, so a
file an earlier version wrote never becomes unreadable because of a new rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, field_validator

from app.core.domain.documents import Document, is_empty, is_none

DEFAULT_DETECT_TIMEOUT_MS = 5000
AGENT_RUN_DIR = "{agentRunDir}"
PROJECT_ROOT = "{projectRoot}"
CONTEXT_FILE = "{contextFile}"
RESUME_ID = "{resumeId}"
#: The placeholders a profile's arguments and environment values may hold (`expand`).
PLACEHOLDERS = (PROJECT_ROOT, AGENT_RUN_DIR, CONTEXT_FILE)
STRATEGIES = ("conventionFile", "flag", "stdin", "env")
PROTOCOLS = ("acp", "claude-stream-json", "codex-exec")
PROFILES_VERSION = 1
Strategy = Literal["conventionFile", "flag", "stdin", "env"]
StructuredProtocol = Literal["acp", "claude-stream-json", "codex-exec"]


class ContextInjection(Document):
    """How the composed context reaches the CLI: `{"strategy", "target"?, "flag"?, "var"?}`.

    `conventionFile`: written as `target` (e.g. `CLAUDE.md`) in the agent run dir, the CLI reads it
    from its cwd. `flag`: written as `target` (default `CONTEXT.md`), its path passed after `flag`.
    `env`: written likewise, its path put in variable `var`. `stdin`: written likewise only.
    `target`/`flag`/`var` are left out of the JSON when `None`; another strategy is invalid.
    """

    strategy: Strategy
    target: str | None = Field(default=None, exclude_if=is_none)
    flag: str | None = Field(default=None, exclude_if=is_none)
    var: str | None = Field(default=None, exclude_if=is_none)


class DetectSpec(Document):
    """Detection: run `command *args` (e.g. `claude --version`) within `timeout_ms`:
    `{"args", "timeoutMs"}`."""

    args: tuple[str, ...] = ("--version",)
    timeout_ms: StrictInt = DEFAULT_DETECT_TIMEOUT_MS


class ProjectAccess(Document):
    """How the CLI, started in its run dir, is granted the project (issue 10, ADR 010):
    `{"args": [...]}`, arguments added to its command line with the placeholders of `expand`
    replaced, e.g. `["--add-dir", "{projectRoot}"]` (Claude Code, Codex CLI) or
    `["--include-directories", "{projectRoot}"]` (Gemini CLI). `{"args": []}` grants nothing
    (and keeps the catalogue's grant from coming back on a built-in profile)."""

    args: tuple[str, ...] = ()


class SessionStrategy(Document):
    """How the CLI is given a conversation id (seed ARCHITECTURE §15):
    `{"assignFlag"?, "resumeFlag"?, "resumeArgs"?}`.

    `assignFlag` starts a new conversation with an id IdeA chose (`--session-id <uuid>`);
    `resumeFlag` resumes one (`--resume <id>`); `resumeArgs` replaces `resumeFlag` when the
    resume is not a flag and its value, e.g. Codex's subcommand `["resume", "{resumeId}"]`.
    A profile without one of them cannot resume (it relaunches fresh, handoff injected).
    """

    assign_flag: str | None = Field(default=None, exclude_if=is_none)
    resume_flag: str | None = Field(default=None, exclude_if=is_none)
    resume_args: tuple[str, ...] | None = Field(default=None, exclude_if=is_none)


class StructuredAdapter(Document):
    """The profile's headless (structured) session, SPEC C8 and contracts §10:
    `{"protocol": "acp"|"claude-stream-json"|"codex-exec", "command"?, "args"?}`.

    `command` defaults to the profile's; `args` are what that command needs to speak the
    protocol (`["--acp"]` for Gemini CLI, `["acp"]` for OpenCode or Goose). Read also from
    the short form `"structured": "acp"`.
    """

    protocol: StructuredProtocol
    command: str | None = Field(default=None, exclude_if=is_none)
    args: tuple[str, ...] = Field(default=(), exclude_if=is_empty)


def _not_enabled(value: Any) -> bool:
    return value is True


class Profile(Document):
    """An AI CLI profile. `command` empty means the user's shell (`$SHELL`).

    JSON: `{"id", "name", "command", "args", "env"?, "contextInjection", "detect"?,
    "cwdTemplate", "projectAccess"?, "session"?, "structured"?, "structuredAdapter"?,
    "promptReadyPattern"?, "submitSequence"?, "submitDelayMs"?, "projector"?, "taskInput"?,
    "waitingScreens"?, "enabled"?, ...unknown}`; the optional keys are left out when
    `None`/empty (`"detect": null` loads as `None`), `enabled` when true. `command` is a name
    looked up on the app's `PATH` or an absolute path. `args` and the values of `env` may hold
    the placeholders of `expand`.
    `cwdTemplate` is `{agentRunDir}` (the default: the CLI reads its convention file from
    there) or `{projectRoot}`. `projector` names how IdeA's MCP server and hooks are declared
    to the CLI (`claude-code`, `codex`, `gemini`; none = the `idea` command only).
    `structuredAdapter` is the original IdeA's spelling of a headless adapter (kept as read;
    `structured_of` reads both). `enabled: false` keeps a profile the user configured but does
    not offer to agents. `taskInput` (`prompt`|`shell`) says how its terminal takes a typed
    task; left out, `shell_input.task_input_of` derives it (a shell for an empty command).
    `waitingScreens`: texts that, on the CLI's screen, mean it waits for its human (a sign-in
    menu, a folder-trust question): no task is typed while one shows (a task typed into such
    a menu picks its options: the digits of the ticket did, in a trial).
    """

    id: str
    name: str = ""
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict, exclude_if=is_empty)
    context_injection: ContextInjection = ContextInjection(strategy="conventionFile",
                                                           target="CONTEXT.md")
    detect: DetectSpec | None = Field(default=None, exclude_if=is_none)
    cwd_template: str = AGENT_RUN_DIR
    project_access: ProjectAccess | None = Field(default=None, exclude_if=is_none)
    session: SessionStrategy | None = Field(default=None, exclude_if=is_none)
    structured: StructuredAdapter | None = Field(default=None, exclude_if=is_none)
    structured_adapter: str | None = Field(default=None, exclude_if=is_none)
    prompt_ready_pattern: str | None = Field(default=None, exclude_if=is_none)
    submit_sequence: str | None = Field(default=None, exclude_if=is_none)
    submit_delay_ms: StrictInt | None = Field(default=None, exclude_if=is_none)
    projector: str | None = Field(default=None, exclude_if=is_none)
    task_input: Literal["prompt", "shell"] | None = Field(default=None, exclude_if=is_none)
    waiting_screens: tuple[str, ...] = Field(default=(), exclude_if=is_empty)
    enabled: StrictBool = Field(default=True, exclude_if=_not_enabled)

    @field_validator("structured", mode="before")
    @classmethod
    def _short_structured(cls, value: Any) -> Any:
        return {"protocol": value} if isinstance(value, str) else value

    @field_validator("waiting_screens")
    @classmethod
    def _no_blank_screen(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if any(not text.strip() for text in value):
            raise ValueError("a waiting screen cannot be blank (it would show on every screen)")
        return value


class ProfilesDoc(Document):
    """The app-side `profiles.json`: `{"version", "profiles": [Profile], ...unknown}`."""

    version: StrictInt = PROFILES_VERSION
    profiles: tuple[Profile, ...]


#: The original IdeA's `structuredAdapter` values (enum spelling not in its diff: both cases).
_LEGACY_ADAPTERS: dict[str, StructuredProtocol] = {
    "acp": "acp", "claude-stream-json": "claude-stream-json", "claude": "claude-stream-json",
    "codex-exec": "codex-exec", "codex": "codex-exec"}


def structured_of(profile: Profile) -> StructuredAdapter | None:
    """The profile's headless adapter: `structured`, else its `structuredAdapter` of the
    original IdeA (`Claude` → `claude-stream-json`, `Codex` → `codex-exec`), else `None`."""
    if profile.structured is not None:
        return profile.structured
    legacy = _LEGACY_ADAPTERS.get((profile.structured_adapter or "").strip().lower())
    return None if legacy is None else StructuredAdapter(protocol=legacy)


def resume_args(profile: Profile, resume_id: str) -> tuple[str, ...] | None:
    """The arguments resuming conversation `resume_id` (e.g. `("--resume", id)`, or Codex's
    `("resume", id)`), or `None` when the profile cannot resume."""
    session = profile.session
    if session is None:
        return None
    if session.resume_args:
        return tuple(a.replace(RESUME_ID, resume_id) for a in session.resume_args)
    return (session.resume_flag, resume_id) if session.resume_flag else None


@dataclass(frozen=True)
class Places:
    """The values of the placeholders: the project root, the agent's run dir and the path of
    its composed context file (all absolute)."""

    project_root: str
    run_dir: str
    context_file: str = ""


def expand(text: str, places: Places) -> str:
    """`text` with `{projectRoot}`, `{agentRunDir}` and `{contextFile}` replaced; other braces
    are left alone (an argument may hold TOML or JSON)."""
    return (text.replace(PROJECT_ROOT, places.project_root)
            .replace(AGENT_RUN_DIR, places.run_dir)
            .replace(CONTEXT_FILE, places.context_file))


#: What the built-in CLIs show while they wait for their human, by profile id. Seen on the
#: screens of the CLIs the tests install, logged out with a fresh HOME: Codex 0.171's sign-in
#: menu, Gemini CLI 0.61's folder trust question (for `--include-directories`) and its
#: authentication wait, Claude Code 2.1's network failure screen; and Claude Code's first-run
#: theme and login menus and folder trust question as its onboarding words them.
WAITING_SCREENS: dict[str, tuple[str, ...]] = {
    "codex-cli": ("Choose how you want to use Codex", "Sign in with ChatGPT"),
    "gemini-cli": ("Do you trust the following folders", "Waiting for authentication",
                   "How would you like to authenticate"),
    "claude-code": ("Choose the text style", "Select login method",
                    "Do you trust the files in this folder", "Unable to connect to Anthropic"),
}


def builtin_profiles() -> list[Profile]:
    """The built-in catalogue: `claude-code`, `codex-cli`, `gemini-cli`, `aider`, `shell`.

    Each CLI runs in the agent's run dir and is granted the project root by `projectAccess`:
    Claude Code `--add-dir` ("More directories Claude can access", `claude --help` 2.1),
    Codex CLI `--add-dir` ("Additional directories that should be writable alongside the
    primary workspace", `codex --help` 0.171), Gemini CLI `--include-directories`
    ("Additional directories to include in the workspace", `gemini --help` 0.61). Aider reads
    no convention file from its cwd by default, so its context goes through
    `--read <run dir>/CONVENTIONS.md` (aider's documented read-only context flag); it finds the
    project's git repository from its run dir, which lies inside the project. The shell
    profile runs `$SHELL` (empty command) in the project root, is never detected (always
    installed) and gets the path of its context file in `IDEA_CONTEXT_FILE`.
    """
    detect = DetectSpec()

    def convention(target: str) -> ContextInjection:
        return ContextInjection(strategy="conventionFile", target=target)

    def grant(flag: str) -> ProjectAccess:
        return ProjectAccess(args=(flag, PROJECT_ROOT))

    return [
        Profile(id="claude-code", name="Claude Code", command="claude",
                context_injection=convention("CLAUDE.md"), detect=detect,
                project_access=grant("--add-dir"), waiting_screens=WAITING_SCREENS["claude-code"],
                session=SessionStrategy(assign_flag="--session-id", resume_flag="--resume"),
                structured=StructuredAdapter(protocol="claude-stream-json"),
                projector="claude-code"),
        Profile(id="codex-cli", name="Codex CLI", command="codex",
                context_injection=convention("AGENTS.md"), detect=detect,
                project_access=grant("--add-dir"), waiting_screens=WAITING_SCREENS["codex-cli"],
                session=SessionStrategy(resume_args=("resume", RESUME_ID)),
                structured=StructuredAdapter(protocol="codex-exec"), projector="codex"),
        Profile(id="gemini-cli", name="Gemini CLI", command="gemini",
                context_injection=convention("GEMINI.md"), detect=detect,
                project_access=grant("--include-directories"),
                waiting_screens=WAITING_SCREENS["gemini-cli"],
                session=SessionStrategy(resume_flag="--resume"),
                structured=StructuredAdapter(protocol="acp", args=("--acp",)),
                projector="gemini"),
        Profile(id="aider", name="Aider", command="aider",
                context_injection=ContextInjection(strategy="flag", target="CONVENTIONS.md",
                                                   flag="--read"),
                detect=detect),
        Profile(id="shell", name="Shell", command="", cwd_template=PROJECT_ROOT,
                context_injection=ContextInjection(strategy="env", target="CONTEXT.md",
                                                   var="IDEA_CONTEXT_FILE")),
    ]


#: How each built-in CLI is installed, as its vendor documents it (README "Installation"/"Quick
#: start" sections: github.com/anthropics/claude-code, github.com/openai/codex,
#: github.com/google-gemini/gemini-cli, aider.chat/docs/install.html), by built-in profile id.
_INSTALL_COMMANDS: dict[str, str] = {
    "claude-code": "npm install -g @anthropic-ai/claude-code",
    "codex-cli": "npm install -g @openai/codex",
    "gemini-cli": "npm install -g @google/gemini-cli",
    "aider": "python -m pip install aider-install && aider-install",
}


def install_hint(profile: Profile) -> str | None:
    """The command installing `profile`'s CLI (e.g. `npm install -g @openai/codex`), for a
    built-in profile that still runs the catalogue's command; `None` otherwise (the shell, a
    custom profile, a built-in whose command the user changed: IdeA cannot know how that one
    is installed)."""
    hint = _INSTALL_COMMANDS.get(profile.id)
    if hint is None:
        return None
    builtin = next((p for p in builtin_profiles() if p.id == profile.id), None)
    return hint if builtin is not None and builtin.command == profile.command else None


def missing_command_message(command: str, profile: Profile, aside: str = "") -> str:
    """`command not found: <command>[ (<aside>)]`, then `. Install it with: <command>` when
    IdeA knows how (`install_hint`): what a launch or a profile swap reports when the CLI is
    not on PATH (an empty `command` is the user's shell, `$SHELL`)."""
    hint = install_hint(profile)
    text = f"command not found: {command or '$SHELL'}" + (f" ({aside})" if aside else "")
    return f"{text}. Install it with: {hint}" if hint else text


@dataclass(frozen=True)
class ProfileTemplate:
    """A starting point for a custom profile ("Add profile"): an `id`, a `name`, a one-line
    `description` and the `profile` it fills in (its id is replaced by the editor's)."""

    id: str
    name: str
    description: str
    profile: Profile

    def to_json(self) -> dict[str, Any]:
        """`{"id", "name", "description", "profile"}`."""
        return {"id": self.id, "name": self.name, "description": self.description,
                "profile": self.profile.to_json()}


def profile_templates() -> list[ProfileTemplate]:
    """Templates for custom profiles: a generic ACP agent and a blank CLI.

    The ACP agent is any CLI speaking the Agent Client Protocol (agentclientprotocol.com),
    declared by data: its command, the arguments starting its ACP mode, `structured: "acp"`.
    Examples: OpenCode (`opencode`, `acp`), Goose (`goose`, `acp`), Qwen Code (`qwen`,
    `--experimental-acp`). It reads the cross-vendor `AGENTS.md` from its run dir.
    """
    acp = Profile(id="acp-agent", name="ACP agent", command="opencode",
                  context_injection=ContextInjection(strategy="conventionFile",
                                                     target="AGENTS.md"),
                  detect=DetectSpec(),
                  structured=StructuredAdapter(protocol="acp", args=("acp",)))
    blank = Profile(id="custom", name="Custom CLI", command="", detect=DetectSpec(),
                    context_injection=ContextInjection(strategy="conventionFile",
                                                       target="AGENTS.md"))
    return [
        ProfileTemplate("acp-agent", "ACP agent",
                        "Any agent speaking the Agent Client Protocol: OpenCode (opencode, "
                        "ACP args: acp), Goose (goose, acp), Qwen Code (qwen, "
                        "--experimental-acp)…", acp),
        ProfileTemplate("custom", "Custom CLI", "Any other command-line tool.", blank),
    ]


def shell_misfit(profile: Profile) -> Literal["arguments", "cli"] | None:
    """Why `profile`'s empty command cannot be the user's shell (`$SHELL`): `arguments` when
    it gives a CLI's arguments, which a shell takes none of (`args`, a session flag, a
    project grant); `cli` when it is detected or reads its context from a convention file or
    a flag (a shell is never detected and reads its context only from an environment
    variable). `None` when its command is not empty, or when the shell fits."""
    if profile.command:
        return None
    if profile.args or profile.session is not None or (
            profile.project_access is not None and profile.project_access.args):
        return "arguments"
    if profile.detect is not None or profile.context_injection.strategy in ("conventionFile",
                                                                           "flag"):
        return "cli"
    return None


def with_catalogue_defaults(profile: Profile) -> Profile:
    """A built-in profile saved by an earlier version, given what the catalogue added since:
    its `projectAccess` and `waitingScreens` when the file has none (`"waitingScreens": []`
    opts out), and the catalogue's command (`claude`) for an empty one that cannot be the
    user's shell (`shell_misfit`: an earlier version saved such a profile, which ran
    `$SHELL` with Claude's flags and which the editor now refuses). Other profiles are
    returned as they are; the file itself is not changed (a save writes what the editor
    shows)."""
    builtin = next((p for p in builtin_profiles() if p.id == profile.id), None)
    if builtin is None:
        return profile
    update: dict[str, Any] = {}
    if profile.project_access is None and builtin.project_access is not None:
        update["project_access"] = builtin.project_access
    if "waiting_screens" not in profile.model_fields_set:  # `[]` in the file: none wanted
        update["waiting_screens"] = builtin.waiting_screens
    completed = profile.model_copy(update=update) if update else profile
    if builtin.command and shell_misfit(completed) is not None:
        completed = completed.model_copy(update={"command": builtin.command})
    return completed
