"""Linux Landlock enforcer: confines the CALLING process (irreversibly) to a `SandboxPlan`.

Through ctypes on the raw syscalls (`landlock_create_ruleset` 444, `landlock_add_rule` 445,
`landlock_restrict_self` 446, the same numbers on every architecture using the generic syscall
table, x86_64 and aarch64 included) plus `prctl(PR_SET_NO_NEW_PRIVS)`; docs/adr/006-landlock.md
says why not the PyPI `landlock` package. Standard library only: `idea sandbox-exec` imports it
and must start fast.

Landlock restricts the calling thread and everything it later starts; a file descriptor opened
before (a PTY's slave, an inherited pipe) keeps working. Access rights (kernel bit values,
include/uapi/linux/landlock.h) per plan class:
`read` = EXECUTE | READ_FILE | READ_DIR; `write` = WRITE_FILE | MAKE_* | REFER (ABI 2) |
TRUNCATE (ABI 3); `delete` = REMOVE_FILE | REMOVE_DIR. REFER is denied by any ruleset unless
granted (kernel docs), so it is always handled and granted on `/` when writes are not confined.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
import sys

from app.core.domain.sandbox import (
    AccessClass,
    SandboxPlan,
    SandboxRefused,
    SandboxStatus,
    must_refuse,
    sandbox_status,
)

SYS_CREATE_RULESET = 444
SYS_ADD_RULE = 445
SYS_RESTRICT_SELF = 446
CREATE_RULESET_VERSION = 1 << 0
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3

#: Rights a path-beneath rule on a non-directory may carry.
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE
CLASS_RIGHTS: dict[AccessClass, int] = {
    "read": EXECUTE | READ_FILE | READ_DIR,
    "write": WRITE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO | MAKE_BLOCK
             | MAKE_SYM | REFER | TRUNCATE,
    "delete": REMOVE_DIR | REMOVE_FILE,
}


def abi_rights(abi: int) -> int:
    """Every filesystem right the kernel's Landlock `abi` knows of (our classes only)."""
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    return rights


class _RulesetAttr(ctypes.Structure):
    # struct landlock_ruleset_attr, first member only: the size passed says which members
    # exist, so this works from ABI 1 on (the net and scope members stay unhandled).
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # __attribute__((packed)) in the uapi header
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class LandlockEnforcer:
    """`SandboxEnforcer` on Linux (see the module doc)."""

    def __init__(self) -> None:
        self._libc: ctypes.CDLL | None = None

    def abi(self) -> tuple[int | None, str]:
        """`(ABI version, "")`, or `(None, why Landlock is unavailable)`."""
        if not sys.platform.startswith("linux"):
            return None, f"Landlock exists on Linux only (this is {sys.platform})"
        try:
            result = self._syscall(SYS_CREATE_RULESET, None, 0, CREATE_RULESET_VERSION)
        except OSError as exc:
            if exc.errno == errno.ENOSYS:
                return None, "this kernel has no Landlock (CONFIG_SECURITY_LANDLOCK is off)"
            if exc.errno == errno.EOPNOTSUPP:
                return None, "Landlock is disabled at boot (add landlock to the lsm= list)"
            return None, f"Landlock probe failed: {exc.strerror}"
        return result, ""

    def status(self, plan: SandboxPlan | None) -> SandboxStatus:
        """What `enforce(plan)` would give on this kernel; restricts nothing."""
        abi, reason = self.abi()
        return sandbox_status(plan, abi, reason)

    def refuses(self, plan: SandboxPlan) -> bool:
        """Whether `enforce(plan)` would refuse: a fail-closed plan this kernel cannot
        confine (no Landlock). A ruleset the kernel rejects is only known when enforcing."""
        return must_refuse(plan, self.status(plan))

    def enforce(self, plan: SandboxPlan) -> SandboxStatus:
        """Confine the calling process to `plan`, irreversibly; its children inherit it.

        Returns the status (`off` when the plan restricts nothing: nothing is done). Raises
        `SandboxRefused` when `plan.fail_closed` and the kernel cannot confine (no Landlock,
        or a ruleset call failed); without `fail_closed` that is returned as `unsupported`.
        A granted path that cannot be opened (missing) is skipped.
        """
        abi, reason = self.abi()
        status = sandbox_status(plan, abi, reason)
        if status.state == "off":
            return status
        if abi is None or not status.confined:
            return _refuse_or(plan, status)
        try:
            self._restrict(plan, abi)
        except OSError as exc:
            return _refuse_or(plan, SandboxStatus(
                "unsupported", f"Landlock refused the ruleset: {exc.strerror or exc}"))
        return status

    # ------------------------------------------------------------------ syscalls

    def _restrict(self, plan: SandboxPlan, abi: int) -> None:
        known = abi_rights(abi)
        handled = 0
        for cls in plan.restrict:
            handled |= CLASS_RIGHTS[cls]
        if abi >= 2:
            handled |= REFER
        handled &= known
        attr = _RulesetAttr(handled)
        ruleset = self._syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0)
        try:
            if abi >= 2 and "write" not in plan.restrict:
                self._add_rule(ruleset, "/", REFER)
            for grant in plan.grants:
                rights = 0
                for cls in grant.access & plan.restrict:
                    rights |= CLASS_RIGHTS[cls]
                if "write" in grant.access:
                    rights |= REFER  # renames and links across folders beneath a write grant
                self._add_rule(ruleset, grant.path, rights & handled)
            libc = self._lib()
            if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                err = ctypes.get_errno()
                raise OSError(err, os.strerror(err))
            self._syscall(SYS_RESTRICT_SELF, ruleset, 0)
        finally:
            os.close(ruleset)

    def _add_rule(self, ruleset: int, path: str, rights: int) -> None:
        if not rights:
            return
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return  # a missing grant is skipped, never fatal (it grants nothing)
        try:
            if not stat.S_ISDIR(os.fstat(fd).st_mode):
                rights &= FILE_RIGHTS
            if rights:
                rule = _PathBeneathAttr(rights, fd)
                self._syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), 0)
        finally:
            os.close(fd)

    def _lib(self) -> ctypes.CDLL:
        if self._libc is None:
            self._libc = ctypes.CDLL(None, use_errno=True)
            self._libc.syscall.restype = ctypes.c_long
        return self._libc

    def _syscall(self, number: int, *args: object) -> int:
        libc = self._lib()
        converted = [a if a is None or not isinstance(a, int) else ctypes.c_long(a)
                     for a in args]
        ctypes.set_errno(0)
        result = int(libc.syscall(ctypes.c_long(number), *converted))
        if result < 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err))
        return result


def _refuse_or(plan: SandboxPlan, status: SandboxStatus) -> SandboxStatus:
    if plan.fail_closed:
        raise SandboxRefused(status)
    return status
