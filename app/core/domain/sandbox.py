"""The OS sandbox plan and its status (SPEC C10, digest §2.2): values only, standard library only
(the `sandbox-exec` launcher imports this module and must start fast).

A `SandboxPlan` says which access classes the kernel confines (`restrict`) and, for each
granted folder or file, which classes stay allowed beneath it. Classes: `read` (read files,
list folders, execute), `write` (write, truncate, create, rename into), `delete` (remove
files and folders). A class not in `restrict` stays fully open; grants of such a class are
informational. `fail_closed`: the launch must not run unconfined when the kernel cannot enforce
the plan. `advisory`: what the policy asks that the OS cannot enforce (enforced, if at all, by
the CLI's own settings).

JSON (`<run dir>/sandbox-plan.json`, read by `idea sandbox-exec --plan`):
`{"version": 1, "restrict": ["write", …], "failClosed": bool,
  "grants": [{"path": abs, "access": ["read", "write", "delete"], "why": str,
              "create"?: true}],
  "advisory": [str], "exposed"?: [str]}`.
`exposed`: what the CLI's needs open that the rules confine (a project under `/tmp`: Landlock
only adds rights, so a need's grant opens the project whatever its rules); informational, the
launcher ignores it (`sandbox_compile.exposed_by_needs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

AccessClass = Literal["read", "write", "delete"]
ACCESS_CLASSES: tuple[AccessClass, ...] = ("read", "write", "delete")
PLAN_VERSION = 1
PLAN_FILE = "sandbox-plan.json"
StatusState = Literal["enforced", "degraded", "off", "unsupported"]


def access_set(classes: Iterable[str]) -> frozenset[AccessClass]:
    """The access classes named in `classes`; raises `ValueError` for an unknown one."""
    out: set[AccessClass] = set()
    for name in classes:
        if name not in ACCESS_CLASSES:
            raise ValueError(f"unknown access class {name!r}")
        out.add(name)
    return frozenset(out)


def _ordered(classes: frozenset[AccessClass]) -> list[str]:
    return [c for c in ACCESS_CLASSES if c in classes]


@dataclass(frozen=True)
class PathGrant:
    """`access` stays allowed beneath `path` (absolute; a folder and all below it, or a
    file); `why` says where the grant comes from (a rule, the CLI's needs); `create`: a
    folder the launcher creates when missing, before confining (a CLI's home: Landlock can
    only grant what exists, and a CLI that cannot create its home loses its sessions)."""

    path: str
    access: frozenset[AccessClass]
    why: str = ""
    create: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "access": _ordered(self.access),
                               "why": self.why}
        if self.create:
            out["create"] = True
        return out


@dataclass(frozen=True)
class CliNeed:
    """A path the agent's CLI must reach whatever the policy says (its binary and libraries,
    its home such as `~/.claude`, temp dirs, the run dir, the endpoint's folder) with the
    `access` it needs there; `create`: a folder to create when missing (see `PathGrant`)."""

    path: str
    access: frozenset[AccessClass]
    why: str = ""
    create: bool = False


@dataclass(frozen=True)
class SandboxContext:
    """What `compile_sandbox_plan` needs besides the permissions: the project root and the
    agent's run dir (absolute) and the CLI's needs."""

    project_root: str
    run_dir: str
    cli_needs: tuple[CliNeed, ...] = ()


@dataclass(frozen=True)
class SandboxPlan:
    """See the module doc. `grants` are sorted by path, one entry per path."""

    restrict: frozenset[AccessClass]
    grants: tuple[PathGrant, ...] = ()
    fail_closed: bool = False
    advisory: tuple[str, ...] = ()
    exposed: tuple[str, ...] = ()

    @property
    def enforces(self) -> bool:
        """Whether the kernel has anything to confine (else no sandbox is applied)."""
        return bool(self.restrict)

    def granted(self, access: AccessClass) -> tuple[str, ...]:
        """Paths beneath which `access` is granted."""
        return tuple(g.path for g in self.grants if access in g.access)

    def grant_for(self, access: AccessClass, path: str) -> PathGrant | None:
        """The deepest grant of `access` covering `path` (absolute, normalised): the path
        itself or a folder above it; `None` when none does (symbolic links are not
        followed)."""
        covering = [g for g in self.grants if access in g.access
                    and (path == g.path or path.startswith(g.path.rstrip("/") + "/"))]
        return max(covering, key=lambda g: len(g.path), default=None)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the module doc (`exposed` only when not empty)."""
        out: dict[str, Any] = {"version": PLAN_VERSION, "restrict": _ordered(self.restrict),
                               "failClosed": self.fail_closed,
                               "grants": [g.to_json() for g in self.grants],
                               "advisory": list(self.advisory)}
        if self.exposed:
            out["exposed"] = list(self.exposed)
        return out

    @classmethod
    def from_json(cls, value: Any) -> SandboxPlan:
        """Parse the JSON object of the module doc; raises `ValueError` naming the field."""
        if not isinstance(value, Mapping):
            raise ValueError("plan: expected an object")
        if value.get("version") != PLAN_VERSION:
            raise ValueError(f"plan.version: expected {PLAN_VERSION}, got "
                             f"{value.get('version')!r}")
        restrict = access_set(_strings(value.get("restrict", []), "plan.restrict"))
        fail_closed = value.get("failClosed", False)
        if not isinstance(fail_closed, bool):
            raise ValueError("plan.failClosed: expected true or false")
        raw_grants = value.get("grants", [])
        if not isinstance(raw_grants, list):
            raise ValueError("plan.grants: expected an array")
        grants = []
        for i, raw in enumerate(raw_grants):
            where = f"plan.grants[{i}]"
            if not isinstance(raw, Mapping) or not isinstance(raw.get("path"), str) \
                    or not str(raw["path"]).startswith("/"):
                raise ValueError(f"{where}.path: expected an absolute path")
            create = raw.get("create", False)
            if not isinstance(create, bool):
                raise ValueError(f"{where}.create: expected true or false")
            grants.append(PathGrant(path=raw["path"],
                                    access=access_set(_strings(raw.get("access", []),
                                                               f"{where}.access")),
                                    why=str(raw.get("why", "")), create=create))
        advisory = tuple(_strings(value.get("advisory", []), "plan.advisory"))
        exposed = tuple(_strings(value.get("exposed", []), "plan.exposed"))
        return cls(restrict=restrict, grants=tuple(grants), fail_closed=fail_closed,
                   advisory=advisory, exposed=exposed)


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: expected an array of strings")
    return list(value)


@dataclass(frozen=True)
class SandboxStatus:
    """What the OS makes of a plan: `enforced` (every restricted class confined), `degraded`
    (confined, but `message` says what this kernel lacks), `off` (nothing to confine: no plan,
    or a plan restricting nothing), `unsupported` (the kernel cannot confine: `message` says
    why)."""

    state: StatusState
    message: str = ""

    @property
    def confined(self) -> bool:
        """Whether the launched process runs confined (`enforced` or `degraded`)."""
        return self.state in ("enforced", "degraded")


class SandboxRefused(Exception):
    """The plan demands enforcement (`fail_closed`) and this kernel cannot give it: nothing
    may run. `status` is the status that refused it."""

    def __init__(self, status: SandboxStatus) -> None:
        super().__init__(status.message)
        self.status = status


#: What each Landlock ABI adds that a class needs (docs: kernel.org userspace-api/landlock):
#: ABI 2 lets a ruleset allow renames and links across folders (without it they are always
#: refused), ABI 3 confines truncation.
ABI_FEATURES: tuple[tuple[int, AccessClass, str], ...] = (
    (2, "write", "renaming or linking files across folders is always refused (needs ABI 2)"),
    (3, "write", "truncating files outside the grants is not prevented (needs ABI 3)"),
)


def sandbox_status(plan: SandboxPlan | None, abi: int | None,
                   unsupported_reason: str = "") -> SandboxStatus:
    """The status `plan` gets from a kernel whose Landlock ABI is `abi` (`None`: no Landlock,
    `unsupported_reason` says why). Pure; the enforcer and the editor both use it."""
    if plan is None:
        return SandboxStatus("off", "no permissions are posed")
    if not plan.enforces:
        return SandboxStatus("off", "the policy restricts no file access class")
    if abi is None or abi < 1:
        return SandboxStatus("unsupported", unsupported_reason or "Landlock is not available")
    missing = [text for need, cls, text in ABI_FEATURES if abi < need and cls in plan.restrict]
    if missing:
        return SandboxStatus("degraded", f"Landlock ABI {abi}: " + "; ".join(missing))
    return SandboxStatus("enforced", f"Landlock ABI {abi}")


def must_refuse(plan: SandboxPlan, status: SandboxStatus) -> bool:
    """Whether a launch under `plan` must not run: it demands enforcement and gets none."""
    return plan.fail_closed and plan.enforces and not status.confined

