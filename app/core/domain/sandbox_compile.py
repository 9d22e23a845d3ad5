"""From an agent's effective permissions to the OS sandbox plan (SPEC C10, digest §2.2). Pure.

Landlock is an allowlist: a confined access class is refused everywhere but beneath granted
paths, and a grant cannot have holes. The OS enforces what is *denied*; *asking* is the CLI's
job (its prompt), so an `ask` counts as allowed for the OS: an approved write must succeed.
Per file access class (`read`, `write`, `delete`):

- a class no rule speaks of stays open (reads stay open unless a read rule restricts them; a
  bash-only policy confines nothing);
- a class whose default (strictest whole-capability rule, else the fallback) is `allow` or
  `ask` stays open: its `deny` rules cannot be cut out of an open class and are advisory;
- a class whose default is `deny` is confined, fail-closed (the user asked for refusal, so
  running unconfined is no fallback): each `allow`/`ask` glob grants its literal folder prefix
  (`src/**` → `<root>/src`, `docs/*.md` → `<root>/docs`, `*.env` → the root, since it matches
  at any depth) unless a `deny` covers that whole folder; a `deny` inside a grant is advisory.

Grants of open classes are kept (informational): an all-allow policy grants read and write on
the project root and confines nothing. When something is confined, the run dir (all classes)
and the CLI's needs are granted too. Command rules are always advisory.

Landlock only adds rights: a need granting a confined class on a folder holding the project
(a project under `/tmp`, which every CLI may write as its scratch space) opens that class on
the whole project whatever its rules, and a need covering a confined deny rule's folder opens
that folder. The plan says so in `exposed` (`exposed_by_needs`), which the editor and the
cell's badge show ("partly sandboxed"); the test box's verdict names the need that grants.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable

from app.core.domain.permission_rules import EffectivePermissions, EffectiveRule, decide
from app.core.domain.sandbox import (
    ACCESS_CLASSES,
    AccessClass,
    CliNeed,
    PathGrant,
    SandboxContext,
    SandboxPlan,
)

#: A name no sensible rule targets: "an ordinary file deep beneath this folder".
PROBE = "idea-sandbox-probe"
_MAGIC = frozenset("*?[\\")
_Grant = Callable[[str, Iterable[AccessClass], str], None]


def literal_prefix(pattern: str) -> str:
    """The folder (or file) an allow glob can be granted as, relative to the project root
    (`""` = the root). A pattern without an inner `/` matches at any depth (`.gitignore`
    rules), so its prefix is the root."""
    body = pattern.rstrip("/")
    if "/" not in body:
        return ""
    prefix: list[str] = []
    for part in body.lstrip("/").split("/"):
        if _MAGIC & set(part):
            break
        prefix.append(part)
    return "/".join(p for p in prefix if p not in ("", "."))


def sample_path(pattern: str) -> str:
    """A project-relative path `pattern` matches, made of `PROBE` names (`docs/*.md` →
    `docs/idea-sandbox-probe.md`); used to see whether a deny overrides an allow."""
    body = pattern.rstrip("/")
    if "/" not in body:
        body = f"**/{body}"
    parts = []
    for part in body.lstrip("/").split("/"):
        if part == "**":
            parts.append(PROBE)
        elif part not in ("", "."):
            part = re.sub(r"\[[^\]]*\]", "x", part)
            parts.append(part.replace("*", PROBE).replace("?", "x").replace("\\", ""))
    return "/".join(parts) or PROBE


def compile_sandbox_plan(effective: EffectivePermissions | None,
                         ctx: SandboxContext) -> SandboxPlan | None:
    """The plan confining an agent launched with `effective` permissions, or `None` when
    nothing is posed (`effective` is `None`). See the module doc for the rules."""
    if effective is None:
        return None
    root = posixpath.normpath(ctx.project_root)
    grants: dict[str, tuple[set[AccessClass], list[str]]] = {}
    create: set[str] = set()
    restrict: set[AccessClass] = set()
    advisory: list[str] = []

    def grant(path: str, classes: Iterable[AccessClass], why: str) -> None:
        have, whys = grants.setdefault(posixpath.normpath(path), (set(), []))
        have.update(classes)
        if why and why not in whys:
            whys.append(why)

    for access in ACCESS_CLASSES:
        cls = access
        rules = effective.rules_for(cls)
        default = effective.default(cls)
        if not rules:
            if default.effect == "deny":
                advisory.append(f"{cls}: no rule speaks of it, so the OS leaves it open; the "
                                "fallback (deny) binds only the CLI's own checks")
            continue
        confined = default.effect == "deny"
        if confined:
            restrict.add(access)
        elif default.effect == "ask":
            advisory.append(f"{cls}: the default is ask, which is the CLI's prompt: the OS "
                            "leaves it open")
        for rule in rules:
            if rule.effect != "deny" and not rule.whole:
                for pattern in rule.patterns:
                    _grant_allowed(effective, access, rule, pattern, root, grant, advisory)
        granted = [p for p, (have, _) in grants.items() if access in have]
        for rule in rules:
            if rule.effect != "deny" or rule.whole:
                continue
            if not confined:
                advisory.append(f"{rule.describe()}: {cls} is open by default, so only the "
                                "CLI's own settings can refuse it")
                continue
            for pattern in rule.patterns:
                path = posixpath.join(root, literal_prefix(pattern)).rstrip("/") or "/"
                if any(_beneath(path, g) or _beneath(g, path) for g in granted):
                    advisory.append(f"{rule.describe()}: {pattern} lies in a granted folder, "
                                    "so only the CLI's own settings can refuse it")
    if effective.posed("executeBash"):
        advisory.append("executeBash: command rules are advisory (the CLI's own settings "
                        "enforce them; the OS sandbox confines files only)")
    if restrict:
        grant(ctx.run_dir, ACCESS_CLASSES, "the agent's run dir")
        for need in ctx.cli_needs:
            grant(need.path, need.access, need.why or "needed by the CLI")
            if need.create:
                create.add(posixpath.normpath(need.path))
    return SandboxPlan(
        restrict=frozenset(restrict),
        grants=tuple(PathGrant(path=p, access=frozenset(have), why="; ".join(whys),
                               create=p in create)
                     for p, (have, whys) in sorted(grants.items())),
        fail_closed=bool(restrict), advisory=tuple(advisory),
        exposed=exposed_by_needs(effective, root, frozenset(restrict), ctx.cli_needs))


_VERBS: dict[AccessClass, str] = {"read": "read", "write": "write", "delete": "delete"}


def exposed_by_needs(effective: EffectivePermissions | None, root: str,
                     restrict: frozenset[AccessClass],
                     needs: Iterable[CliNeed]) -> tuple[str, ...]:
    """What the CLI's `needs` open that the rules confine (Landlock only adds rights), one line
    each: the project root (absolute, normalised) lying beneath a need granting a class of
    `restrict` (`/tmp`, "temporary files"), else each confined `deny` rule whose folder lies
    beneath such a need (`effective` None: the root only). Empty when the needs leave the rules
    enforceable. Pure."""
    out: list[str] = []
    root, needs = posixpath.normpath(root), tuple(needs)
    by_path: dict[str, tuple[list[AccessClass], str]] = {}
    for need in needs:
        path = posixpath.normpath(need.path)
        hit = [c for c in ACCESS_CLASSES if c in restrict and c in need.access]
        if hit and _beneath(root, path):
            classes, _ = by_path.setdefault(path, ([], need.why or "needed by the CLI"))
            classes.extend(c for c in hit if c not in classes)
    for path, (classes, why) in sorted(by_path.items()):
        verbs = ", ".join(_VERBS[c] for c in classes)
        out.append(f"the project lies in {path}, which every CLI may {verbs} ({why}): the OS "
                   f"cannot enforce {verbs} rules inside this project — move the project out of "
                   f"{path}, or accept that these rules are advisory")
    exposed_classes = {c for classes, _ in by_path.values() for c in classes}
    for access in ACCESS_CLASSES:
        if effective is None or access not in restrict or access in exposed_classes:
            continue
        for rule in effective.rules_for(access):
            if rule.effect != "deny" or rule.whole:
                continue
            for pattern in rule.patterns:
                folder = posixpath.join(root, literal_prefix(pattern)).rstrip("/") or "/"
                opener = next((n for n in needs if access in n.access
                               and _beneath(folder, posixpath.normpath(n.path))), None)
                if opener is not None:
                    out.append(f"{rule.describe()}: {pattern} lies in {opener.path}, which "
                               f"every CLI may {_VERBS[access]} "
                               f"({opener.why or 'needed by the CLI'}): the OS cannot refuse it")
    return tuple(out)


def _grant_allowed(effective: EffectivePermissions, access: AccessClass,
                   rule: EffectiveRule, pattern: str, root: str, grant: _Grant,
                   advisory: list[str]) -> None:
    prefix = literal_prefix(pattern)
    path = posixpath.join(root, prefix) if prefix else root
    probes = [posixpath.join(path, PROBE, PROBE)]  # an ordinary file deep in the folder
    sample = sample_path(pattern)  # a path the pattern itself matches
    if rule.spec is not None and rule.spec.match_file(sample):
        probes.append(posixpath.join(root, sample))
    for probe in probes:
        decision = decide(effective, access, probe)
        if decision.effect == "deny" and decision.rule is not None:
            advisory.append(f"{rule.describe()}: {pattern} is overridden by "
                            f"{decision.rule.describe()}, so the OS grants nothing for it")
            return
    grant(path, (access,), f"{access} {rule.effect} {pattern} ({rule.origin} rule {rule.where})")
    body = pattern.strip("/")
    exact = body in (prefix, f"{prefix}/**") if prefix else body == "**"
    if not exact:
        advisory.append(f"{rule.describe()}: the OS grants {access} on all of {path} (it "
                        f"cannot follow {pattern} more finely)")


def _beneath(path: str, folder: str) -> bool:
    return path == folder or folder == "/" or path.startswith(folder + "/")
