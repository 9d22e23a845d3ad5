"""How `permissions.json` decides (SPEC C10, digest §2.1): an agent's effective permissions and
the decision for one path or command. Pure.

- **Resolution.** `resolve_permissions(doc, agent_id, root)` is `None` when the project poses
  nothing (no `permissions.json`): no projection, no sandbox, the CLI keeps its own prompting.
  Otherwise the agent's policy (`agents.<id>`) overrides the project defaults *capability by
  capability*: when it has a rule for a capability, its rules replace the project's for that
  capability; its `fallback` replaces the project's. Each capability's rules therefore come
  from one policy, which keeps the vendor projections exact (their rule lists have no layers).
- **Decision.** Among a capability's rules that match the target, the strictest effect wins
  (`deny` > `ask` > `allow`; between equals, the first rule); when none matches, the fallback.
  A rule whose list is empty matches every target of its capability. Globs only match inside
  the project (a path outside it is matched by those whole-capability rules, else the
  fallback). A command line is split at `&&`, `||`, `;`, `|`, `&` and newlines; each part is
  decided and the strictest part decides, as Claude Code does.
- **Command patterns** (`fnmatch`): `*` matches anything, spaces included; a pattern ending in
  ` *` also matches the bare command (`git push *` matches `git push`), like Claude Code.
"""

from __future__ import annotations

import fnmatch
import posixpath
import shlex
from dataclasses import dataclass, field
from typing import Literal

from pathspec import PathSpec
from pathspec.pattern import Pattern

from app.core.domain.permissions import (
    CAPABILITIES,
    Capability,
    Effect,
    PermissionPolicy,
    PermissionRule,
    PermissionsDoc,
    compile_globs,
)
from app.core.errors import INVALID, AppError

Origin = Literal["project", "agent"]
STRICTNESS: dict[Effect, int] = {"allow": 0, "ask": 1, "deny": 2}
_OPERATORS = frozenset({"&&", "||", ";", "|", "&", ";;", "|&", "\n"})


@dataclass(frozen=True)
class EffectiveRule:
    """One rule of the effective permissions: the rule, the policy it comes from (`origin`) and
    its position there (`index`, for messages and the editor)."""

    rule: PermissionRule
    origin: Origin
    index: int
    agent_id: str = ""
    spec: PathSpec[Pattern] | None = field(default=None, compare=False, repr=False)

    @property
    def capability(self) -> Capability:
        return self.rule.capability

    @property
    def effect(self) -> Effect:
        return self.rule.effect

    @property
    def patterns(self) -> tuple[str, ...]:
        """Its globs (file capabilities) or command patterns (`executeBash`)."""
        return self.rule.commands if self.capability == "executeBash" else self.rule.paths

    @property
    def whole(self) -> bool:
        """Whether it matches every target of its capability (empty list)."""
        return not self.patterns

    @property
    def where(self) -> str:
        """Its JSON path in `permissions.json`: `projectDefaults.rules[2]`,
        `agents.<id>.rules[0]`."""
        base = "projectDefaults" if self.origin == "project" else f"agents.{self.agent_id}"
        return f"{base}.rules[{self.index}]"

    def describe(self) -> str:
        """`write deny secrets/**, *.env (agent rule agents.<id>.rules[0])`."""
        what = ", ".join(self.patterns) if self.patterns else "everything"
        return f"{self.capability} {self.effect} {what} ({self.origin} rule {self.where})"


@dataclass(frozen=True)
class EffectivePermissions:
    """What applies to one agent of the project at `project_root` (absolute, POSIX).

    `rules`: every capability's rules, each capability's from one policy, in file order;
    `fallback`: the effect when no rule matches, from `fallback_origin`.
    """

    project_root: str
    agent_id: str
    rules: tuple[EffectiveRule, ...]
    fallback: Effect
    fallback_origin: Origin

    def rules_for(self, capability: Capability) -> tuple[EffectiveRule, ...]:
        """The rules of `capability`, in order."""
        return tuple(r for r in self.rules if r.capability == capability)

    def posed(self, capability: Capability) -> bool:
        """Whether any rule speaks of `capability` (only those are OS-enforced)."""
        return any(r.capability == capability for r in self.rules)

    def default(self, capability: Capability) -> Decision:
        """The decision for a target no glob or command pattern matches: the strictest
        whole-capability rule, else the fallback."""
        return _strictest([r for r in self.rules_for(capability) if r.whole], self)


@dataclass(frozen=True)
class Decision:
    """The outcome of `decide`: the `effect` and the rule that decided (`None`: the
    fallback of `origin`)."""

    effect: Effect
    rule: EffectiveRule | None
    origin: Origin

    def explain(self) -> str:
        """One line for the editor: `deny — write deny secrets/** (project rule …)` or
        `ask — no rule matches: the agent's fallback`."""
        if self.rule is None:
            whose = "the project's" if self.origin == "project" else "the agent's"
            return f"{self.effect} — no rule matches: {whose} fallback"
        return f"{self.effect} — {self.rule.describe()}"


def resolve_permissions(doc: PermissionsDoc | None, agent_id: str,
                        project_root: str) -> EffectivePermissions | None:
    """Agent `agent_id`'s effective permissions in the project at `project_root` (absolute), or
    `None` when nothing is posed (`doc` is `None`: no `permissions.json`).

    Raises `AppError(INVALID)` when `project_root` is not absolute.
    """
    if doc is None:
        return None
    if not project_root.startswith("/"):
        raise AppError(INVALID, f"project root must be an absolute path: {project_root!r}",
                       {"field": "projectRoot"})
    own: PermissionPolicy | None = (doc.agents or {}).get(agent_id)
    project = _tagged(doc.project_defaults, "project", "")
    agent = _tagged(own, "agent", agent_id) if own is not None else ()
    overridden = {r.capability for r in agent}
    rules = tuple(r for cap in CAPABILITIES
                  for r in (agent if cap in overridden else project) if r.capability == cap)
    origin: Origin = "agent" if own is not None else "project"
    fallback = own.fallback if own is not None else doc.project_defaults.fallback
    return EffectivePermissions(project_root=posixpath.normpath(project_root),
                                agent_id=agent_id, rules=rules, fallback=fallback,
                                fallback_origin=origin)


def decide(effective: EffectivePermissions, capability: Capability, target: str) -> Decision:
    """The effect of `capability` on `target` and the rule that decided.

    `target`: for `read`/`write`/`delete` a path, absolute or relative to the project root
    (normalised; `..` may lead outside the project); for `executeBash` a command line. Raises
    `AppError(INVALID)` for an unknown capability.
    """
    if capability not in CAPABILITIES:
        raise AppError(INVALID, f"unknown capability {capability!r} (expected one of "
                                f"{', '.join(CAPABILITIES)})", {"field": "capability"})
    rules = effective.rules_for(capability)
    if capability == "executeBash":
        parts = command_parts(target) or [target.strip()]
        return max((_strictest([r for r in rules if _matches_command(r, p)], effective)
                    for p in parts), key=lambda d: STRICTNESS[d.effect])
    rel = project_relative(effective.project_root, target)
    return _strictest([r for r in rules if _matches_path(r, rel)], effective)


def project_relative(project_root: str, target: str) -> str | None:
    """`target` relative to `project_root` (`.` for the root itself), or `None` when it lies
    outside the project."""
    path = posixpath.normpath(target if target.startswith("/")
                              else posixpath.join(project_root, target or "."))
    root = posixpath.normpath(project_root)
    if path == root:
        return "."
    if root == "/":
        return path[1:]
    return path[len(root) + 1:] if path.startswith(root + "/") else None


def command_parts(command: str) -> list[str]:
    """The simple commands of a command line (split at `&&`, `||`, `;`, `|`, `&`, newlines),
    each with its words joined by one space; `[]` when it does not tokenize (an unclosed
    quote)."""
    lexer = shlex.shlex(command.replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    parts: list[list[str]] = [[]]
    try:
        for token in lexer:
            if token in _OPERATORS:
                parts.append([])
            else:
                parts[-1].append(token)
    except ValueError:
        return []
    return [" ".join(words) for words in parts if words]


def command_matches(pattern: str, command: str) -> bool:
    """Whether one simple `command` matches a command `pattern` (see the module doc)."""
    pattern = " ".join(pattern.split())
    command = " ".join(command.split())
    if fnmatch.fnmatchcase(command, pattern):
        return True
    return pattern.endswith(" *") and command == pattern[:-2]


def _tagged(policy: PermissionPolicy, origin: Origin, agent_id: str) -> tuple[EffectiveRule, ...]:
    return tuple(
        EffectiveRule(rule=rule, origin=origin, index=i, agent_id=agent_id,
                      spec=compile_globs(rule.paths) if rule.paths else None)
        for i, rule in enumerate(policy.rules))


def _matches_path(rule: EffectiveRule, rel: str | None) -> bool:
    if rule.whole:
        return True
    return rel is not None and rule.spec is not None and rule.spec.match_file(rel)


def _matches_command(rule: EffectiveRule, command: str) -> bool:
    return rule.whole or any(command_matches(p, command) for p in rule.rule.commands)


def _strictest(matching: list[EffectiveRule], effective: EffectivePermissions) -> Decision:
    if not matching:
        return Decision(effective.fallback, None, effective.fallback_origin)
    best = max(matching, key=lambda r: STRICTNESS[r.effect])  # first among equals
    return Decision(best.effect, best, best.origin)
