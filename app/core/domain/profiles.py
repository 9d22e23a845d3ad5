"""Declarative AI CLI profiles (SPEC C4) and the built-in catalogue.

Adding a CLI is adding data, not code. Optional fields are omitted from JSON when empty; keys
this version does not model (and the less used optional ones: `session`, `mcp`,
`rateLimitPattern`, `liveness`, …) are kept verbatim in `extra`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.core.domain import jsonshape as js
from app.core.errors import INVALID, AppError

DEFAULT_DETECT_TIMEOUT_MS = 5000
AGENT_RUN_DIR = "{agentRunDir}"
STRATEGIES = ("conventionFile", "flag", "stdin", "env")
_KEYS = ("id", "name", "command", "args", "contextInjection", "detect", "cwdTemplate",
         "structuredAdapter", "promptReadyPattern", "submitSequence", "submitDelayMs")


def _empty() -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class ContextInjection:
    """How the composed context reaches the CLI.

    `conventionFile`: written as `target` (e.g. `CLAUDE.md`) in the agent run dir, the CLI reads it
    from its cwd. `flag`: written as `target` (default `CONTEXT.md`), its path passed after `flag`.
    `env`: written likewise, its path put in variable `var`. `stdin`: written likewise only.
    """

    strategy: str
    target: str | None = None
    flag: str | None = None
    var: str | None = None
    extra: Mapping[str, Any] = field(default_factory=_empty)

    @staticmethod
    def from_json(value: Any, where: str) -> ContextInjection:
        """Decode; raises `AppError(INVALID)` on an unknown strategy."""
        obj = js.as_object(value, where)
        strategy = js.req_str(obj, "strategy", where)
        if strategy not in STRATEGIES:
            raise AppError(INVALID, f"{where}: unknown strategy '{strategy}'")
        return ContextInjection(strategy, js.opt_str(obj, "target", where),
                                js.opt_str(obj, "flag", where), js.opt_str(obj, "var", where),
                                js.extra_keys(obj, ("strategy", "target", "flag", "var")))

    def to_json(self) -> dict[str, Any]:
        """Encode; `target`/`flag`/`var` omitted when `None`."""
        out: dict[str, Any] = {"strategy": self.strategy}
        for key, value in (("target", self.target), ("flag", self.flag), ("var", self.var)):
            if value is not None:
                out[key] = value
        return {**out, **self.extra}


@dataclass(frozen=True)
class DetectSpec:
    """Detection: run `command *args` (e.g. `claude --version`) within `timeout_ms`."""

    args: tuple[str, ...] = ("--version",)
    timeout_ms: int = DEFAULT_DETECT_TIMEOUT_MS
    extra: Mapping[str, Any] = field(default_factory=_empty)

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"args", "timeoutMs", ...unknown}`."""
        return {"args": list(self.args), "timeoutMs": self.timeout_ms, **self.extra}


@dataclass(frozen=True)
class Profile:
    """An AI CLI profile. `command` empty means the user's shell (`$SHELL`)."""

    id: str
    name: str
    command: str
    args: tuple[str, ...] = ()
    context_injection: ContextInjection = ContextInjection("conventionFile", "CONTEXT.md")
    detect: DetectSpec | None = None
    cwd_template: str = AGENT_RUN_DIR
    structured_adapter: str | None = None
    prompt_ready_pattern: str | None = None
    submit_sequence: str | None = None
    submit_delay_ms: int | None = None
    extra: Mapping[str, Any] = field(default_factory=_empty)

    @staticmethod
    def from_json(value: Any, where: str = "profile") -> Profile:
        """Decode a profile; `detect: null` loads as `None`; raises `AppError(INVALID)`."""
        obj = js.as_object(value, where)
        detect = None
        if obj.get("detect") is not None:
            raw = js.as_object(obj["detect"], f"{where}.detect")
            detect = DetectSpec(
                tuple(js.str_list(raw.get("args", []), f"{where}.detect.args")),
                js.opt_int(raw, "timeoutMs", where) or DEFAULT_DETECT_TIMEOUT_MS,
                js.extra_keys(raw, ("args", "timeoutMs")))
        return Profile(
            id=js.req_str(obj, "id", where),
            name=js.opt_str(obj, "name", where) or "",
            command=js.opt_str(obj, "command", where) or "",
            args=tuple(js.str_list(obj.get("args", []), f"{where}.args")),
            context_injection=ContextInjection.from_json(
                obj.get("contextInjection"), f"{where}.contextInjection"),
            detect=detect,
            cwd_template=js.opt_str(obj, "cwdTemplate", where) or AGENT_RUN_DIR,
            structured_adapter=js.opt_str(obj, "structuredAdapter", where),
            prompt_ready_pattern=js.opt_str(obj, "promptReadyPattern", where),
            submit_sequence=js.opt_str(obj, "submitSequence", where),
            submit_delay_ms=js.opt_int(obj, "submitDelayMs", where),
            extra=js.extra_keys(obj, _KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        """Encode in camelCase; `None` optional fields are omitted."""
        out: dict[str, Any] = {
            "id": self.id, "name": self.name, "command": self.command, "args": list(self.args),
            "contextInjection": self.context_injection.to_json(),
        }
        if self.detect is not None:
            out["detect"] = self.detect.to_json()
        out["cwdTemplate"] = self.cwd_template
        optional = (("structuredAdapter", self.structured_adapter),
                    ("promptReadyPattern", self.prompt_ready_pattern),
                    ("submitSequence", self.submit_sequence),
                    ("submitDelayMs", self.submit_delay_ms))
        out.update({key: value for key, value in optional if value is not None})
        return {**out, **self.extra}


def builtin_profiles() -> list[Profile]:
    """The built-in catalogue: `claude-code`, `codex-cli`, `gemini-cli`, `aider`, `shell`.

    Aider reads no convention file from its cwd by default, so its context goes through
    `--read <run dir>/CONVENTIONS.md` (aider's documented read-only context flag). The shell
    profile runs `$SHELL` (empty command), is never detected (always installed) and gets the
    path of its context file in `IDEA_CONTEXT_FILE`.
    """
    detect = DetectSpec()
    return [
        Profile("claude-code", "Claude Code", "claude",
                context_injection=ContextInjection("conventionFile", "CLAUDE.md"), detect=detect),
        Profile("codex-cli", "Codex CLI", "codex",
                context_injection=ContextInjection("conventionFile", "AGENTS.md"), detect=detect),
        Profile("gemini-cli", "Gemini CLI", "gemini",
                context_injection=ContextInjection("conventionFile", "GEMINI.md"), detect=detect),
        Profile("aider", "Aider", "aider",
                context_injection=ContextInjection("flag", "CONVENTIONS.md", flag="--read"),
                detect=detect),
        Profile("shell", "Shell", "",
                context_injection=ContextInjection("env", "CONTEXT.md", var="IDEA_CONTEXT_FILE")),
    ]
