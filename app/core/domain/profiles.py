"""Declarative AI CLI profiles (SPEC C4) and the built-in catalogue.

Adding a CLI is adding data, not code. Optional fields are omitted from JSON when empty; keys
this version does not model (and the less used optional ones: `session`, `mcp`,
`rateLimitPattern`, `liveness`, …) are kept verbatim in `extra`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from app.core.domain.documents import Document, is_none

DEFAULT_DETECT_TIMEOUT_MS = 5000
AGENT_RUN_DIR = "{agentRunDir}"
STRATEGIES = ("conventionFile", "flag", "stdin", "env")
PROFILES_VERSION = 1
Strategy = Literal["conventionFile", "flag", "stdin", "env"]


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


class Profile(Document):
    """An AI CLI profile. `command` empty means the user's shell (`$SHELL`).

    JSON: `{"id", "name", "command", "args", "contextInjection", "detect"?, "cwdTemplate",
    "structuredAdapter"?, "promptReadyPattern"?, "submitSequence"?, "submitDelayMs"?,
    "projector"?, ...unknown}`; the optional keys are left out when `None` (`"detect": null`
    loads as `None`). `projector` names how IdeA's MCP server and hooks are declared to the
    CLI (`claude-code`, `codex`, `gemini`; none = the `idea` command only).
    Keys this version does not model (and the less used optional ones: `session`, `mcp`,
    `rateLimitPattern`, `liveness`, …) are kept verbatim in `extra`.
    """

    id: str
    name: str = ""
    command: str = ""
    args: tuple[str, ...] = ()
    context_injection: ContextInjection = ContextInjection(strategy="conventionFile",
                                                           target="CONTEXT.md")
    detect: DetectSpec | None = Field(default=None, exclude_if=is_none)
    cwd_template: str = AGENT_RUN_DIR
    structured_adapter: str | None = Field(default=None, exclude_if=is_none)
    prompt_ready_pattern: str | None = Field(default=None, exclude_if=is_none)
    submit_sequence: str | None = Field(default=None, exclude_if=is_none)
    submit_delay_ms: StrictInt | None = Field(default=None, exclude_if=is_none)
    projector: str | None = Field(default=None, exclude_if=is_none)


class ProfilesDoc(Document):
    """The app-side `profiles.json`: `{"version", "profiles": [Profile], ...unknown}`."""

    version: StrictInt = PROFILES_VERSION
    profiles: tuple[Profile, ...]


def builtin_profiles() -> list[Profile]:
    """The built-in catalogue: `claude-code`, `codex-cli`, `gemini-cli`, `aider`, `shell`.

    Aider reads no convention file from its cwd by default, so its context goes through
    `--read <run dir>/CONVENTIONS.md` (aider's documented read-only context flag). The shell
    profile runs `$SHELL` (empty command), is never detected (always installed) and gets the
    path of its context file in `IDEA_CONTEXT_FILE`.
    """
    detect = DetectSpec()

    def convention(target: str) -> ContextInjection:
        return ContextInjection(strategy="conventionFile", target=target)

    return [
        Profile(id="claude-code", name="Claude Code", command="claude",
                context_injection=convention("CLAUDE.md"), detect=detect,
                projector="claude-code"),
        Profile(id="codex-cli", name="Codex CLI", command="codex",
                context_injection=convention("AGENTS.md"), detect=detect, projector="codex"),
        Profile(id="gemini-cli", name="Gemini CLI", command="gemini",
                context_injection=convention("GEMINI.md"), detect=detect, projector="gemini"),
        Profile(id="aider", name="Aider", command="aider",
                context_injection=ContextInjection(strategy="flag", target="CONVENTIONS.md",
                                                   flag="--read"),
                detect=detect),
        Profile(id="shell", name="Shell", command="",
                context_injection=ContextInjection(strategy="env", target="CONTEXT.md",
                                                   var="IDEA_CONTEXT_FILE")),
    ]
