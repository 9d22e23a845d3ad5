"""The OS sandbox plan: compilation from effective permissions (digest §2.2 properties), its
JSON, the status mapping and the launcher wrapping (app/core/domain/sandbox*.py)."""

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.domain.launch_plan import PlannedFile
from app.core.domain.permission_rules import decide, resolve_permissions
from app.core.domain.permissions import PermissionsDoc
from app.core.domain.sandbox import (
    CliNeed,
    PathGrant,
    SandboxContext,
    SandboxPlan,
    SandboxStatus,
    access_set,
    must_refuse,
    sandbox_status,
)
from app.core.domain.sandbox_compile import compile_sandbox_plan, literal_prefix, sample_path
from app.core.domain.sandbox_launch import sandbox_files_and_argv, sandboxed_spawn
from app.core.domain.sessions import SpawnSpec

ROOT = "/home/u/proj"
RUN = f"{ROOT}/.ideai/run/a1"
ALL = access_set(["read", "write", "delete"])
CTX = SandboxContext(ROOT, RUN, (CliNeed("/tmp", ALL, "temporary files"),
                                 CliNeed("/usr", access_set(["read"]), "system")))


def rule(capability: str, effect: str, *patterns: str) -> dict[str, Any]:
    key = "commands" if capability == "executeBash" else "paths"
    return {"capability": capability, "effect": effect, key: list(patterns)}


def plan_of(rules: list[dict[str, Any]], fallback: str = "deny",
            ctx: SandboxContext = CTX) -> SandboxPlan:
    doc = PermissionsDoc.from_json({"version": 1, "projectDefaults": {"rules": rules,
                                                                      "fallback": fallback}})
    plan = compile_sandbox_plan(resolve_permissions(doc, "a1", ROOT), ctx)
    assert plan is not None
    return plan


def grants(plan: SandboxPlan) -> dict[str, set[str]]:
    return {g.path: set(g.access) for g in plan.grants}


# -- the digest's properties ----------------------------------------------------------------
def test_nothing_posed_compiles_to_no_plan() -> None:
    assert compile_sandbox_plan(None, CTX) is None


def test_all_allow_grants_read_write_on_the_root_and_confines_nothing() -> None:
    plan = plan_of([rule("read", "allow", "**"), rule("write", "allow", "**"),
                    rule("delete", "allow", "**"), rule("executeBash", "allow")],
                   fallback="allow")
    assert grants(plan) == {ROOT: {"read", "write", "delete"}}
    assert not plan.enforces and not plan.fail_closed


def test_a_bash_only_policy_compiles_to_no_file_grants() -> None:
    plan = plan_of([rule("executeBash", "deny", "rm *")], fallback="deny")
    assert plan.grants == () and plan.restrict == frozenset()
    assert any("command rules are advisory" in a for a in plan.advisory)


def test_only_posed_classes_are_confined_reads_stay_open() -> None:
    plan = plan_of([rule("write", "allow", "**")], fallback="deny")
    assert plan.restrict == {"write"} and plan.fail_closed
    assert grants(plan)[ROOT] == {"write"}
    assert any(a.startswith("read: no rule speaks of it") for a in plan.advisory)


def test_confined_launch_grants_run_dir_and_cli_needs() -> None:
    plan = plan_of([rule("write", "allow", "src/**")])
    assert grants(plan) == {ROOT + "/src": {"write"}, RUN: {"read", "write", "delete"},
                            "/tmp": {"read", "write", "delete"}, "/usr": {"read"}}
    assert [g.path for g in plan.grants] == sorted(g.path for g in plan.grants)


def test_a_class_open_by_default_keeps_its_denies_advisory() -> None:
    plan = plan_of([rule("read", "deny", "secrets/**")], fallback="allow")
    assert not plan.enforces
    assert any("secrets/**" in a and "only the CLI's own settings" in a for a in plan.advisory)


def test_ask_is_the_clis_prompt_the_os_leaves_it_open() -> None:
    plan = plan_of([rule("write", "allow", "src/**")], fallback="ask")
    assert not plan.enforces and not plan.fail_closed
    assert any("the default is ask" in a for a in plan.advisory)
    plan = plan_of([rule("write", "ask", "src/**")], fallback="deny")
    assert plan.restrict == {"write"} and grants(plan)[ROOT + "/src"] == {"write"}


def test_grants_follow_literal_prefixes_and_say_when_coarser() -> None:
    plan = plan_of([rule("write", "allow", "docs/*.md", "*.log", "/out/bin")])
    assert set(grants(plan)) >= {ROOT + "/docs", ROOT, ROOT + "/out/bin"}
    assert any("all of /home/u/proj/docs" in a for a in plan.advisory)
    assert any("cannot follow *.log" in a for a in plan.advisory)


def test_a_deny_inside_a_grant_is_advisory_and_a_covering_deny_drops_the_grant() -> None:
    plan = plan_of([rule("write", "allow", "**"), rule("write", "deny", "secrets/**")])
    assert ROOT in grants(plan)
    assert any("secrets/** lies in a granted folder" in a for a in plan.advisory)
    plan = plan_of([rule("write", "allow", "src/**"), rule("write", "deny", "src/")])
    assert ROOT + "/src" not in grants(plan)
    assert any("is overridden by" in a for a in plan.advisory)


def test_delete_is_its_own_class() -> None:
    plan = plan_of([rule("write", "allow", "**"), rule("delete", "deny")])
    assert plan.restrict == {"write", "delete"}
    assert grants(plan)[ROOT] == {"write"}


def test_an_allow_denied_by_an_equal_or_wider_pattern_grants_nothing() -> None:
    for deny in ("docs/*.md", "*.md"):
        plan = plan_of([rule("read", "allow", "docs/*.md"), rule("read", "deny", deny)])
        assert ROOT + "/docs" not in grants(plan)


@pytest.mark.parametrize(("pattern", "sample"), [
    ("docs/*.md", "docs/idea-sandbox-probe.md"), ("src/**", "src/idea-sandbox-probe"),
    ("*.env", "idea-sandbox-probe/idea-sandbox-probe.env"), ("a/[bc]?", "a/xx"),
])
def test_sample_path(pattern: str, sample: str) -> None:
    assert sample_path(pattern) == sample


@pytest.mark.parametrize(("pattern", "prefix"), [
    ("**", ""), ("src/**", "src"), ("/src/**", "src"), ("docs/*.md", "docs"), ("*.env", ""),
    ("build/", ""), ("a/b/c", "a/b/c"), ("/top", "top"), ("a/**/b", "a"), ("./x/y", "x/y"),
])
def test_literal_prefix(pattern: str, prefix: str) -> None:
    assert literal_prefix(pattern) == prefix


EFFECTS = st.sampled_from(["allow", "ask", "deny"])
CLASSES = st.sampled_from(["read", "write", "delete", "executeBash"])
GLOBS = st.sampled_from(["**", "src/**", "*.py", "docs/*.md", "build/", "/top", "a/b"])
RULES = st.lists(st.tuples(CLASSES, EFFECTS, st.lists(GLOBS, max_size=2)), max_size=6)


def _rules(drawn: list[tuple[str, str, list[str]]]) -> list[dict[str, Any]]:
    return [rule(c, e, *([] if c == "executeBash" else g)) for c, e, g in drawn]


@given(RULES, EFFECTS)
def test_properties_of_every_plan(drawn: list[tuple[str, str, list[str]]],
                                  fallback: str) -> None:
    doc = PermissionsDoc.from_json({"version": 1, "projectDefaults": {
        "rules": _rules(drawn), "fallback": fallback}})
    effective = resolve_permissions(doc, "a1", ROOT)
    assert effective is not None
    plan = compile_sandbox_plan(effective, CTX)
    assert plan is not None
    for cls in ("read", "write", "delete"):
        posed = effective.posed(cls)  # type: ignore[arg-type]
        default = effective.default(cls).effect  # type: ignore[arg-type]
        # only classes explicitly posed, and denied by default, are confined
        assert (cls in plan.restrict) == (posed and default == "deny")
        if cls in plan.restrict:
            for path in plan.granted(cls):  # type: ignore[arg-type]
                if path.startswith(ROOT + "/") and not path.startswith(RUN):
                    rel = path[len(ROOT) + 1:]
                    # a granted folder has some target that is not denied
                    assert any(decide(effective, cls, f"{rel}/{leaf}").effect != "deny"
                               for leaf in ("x", "x.py", "x.md", "idea-sandbox-probe/y"))
    assert plan.fail_closed == plan.enforces == bool(plan.restrict)
    assert (RUN in plan.granted("read")) == plan.enforces
    assert SandboxPlan.from_json(json.loads(json.dumps(plan.to_json()))) == plan


# -- JSON -----------------------------------------------------------------------------------
def test_plan_json_shape() -> None:
    plan = SandboxPlan(restrict=access_set(["write"]), fail_closed=True,
                       grants=(PathGrant("/p", access_set(["write", "read"]), "rule"),),
                       advisory=("note",))
    assert plan.to_json() == {"version": 1, "restrict": ["write"], "failClosed": True,
                              "grants": [{"path": "/p", "access": ["read", "write"],
                                          "why": "rule"}], "advisory": ["note"]}


@pytest.mark.parametrize(("raw", "says"), [
    ([], "plan: expected an object"),
    ({"version": 2}, "plan.version"),
    ({"version": 1, "restrict": ["exec"]}, "unknown access class 'exec'"),
    ({"version": 1, "failClosed": "yes"}, "plan.failClosed"),
    ({"version": 1, "grants": [{"path": "rel", "access": []}]}, "plan.grants[0].path"),
    ({"version": 1, "grants": [{"path": "/a", "access": "read"}]}, "plan.grants[0].access"),
])
def test_bad_plan_json_is_refused(raw: Any, says: str) -> None:
    with pytest.raises(ValueError, match=says.replace("[", r"\[").replace("]", r"\]")):
        SandboxPlan.from_json(raw)


# -- status ---------------------------------------------------------------------------------
WRITE_PLAN = SandboxPlan(restrict=access_set(["write"]), fail_closed=True)


@pytest.mark.parametrize(("plan", "abi", "state", "message"), [
    (None, 7, "off", "no permissions are posed"),
    (SandboxPlan(restrict=frozenset()), 7, "off", "the policy restricts no file access class"),
    (WRITE_PLAN, None, "unsupported", "why not"),
    (WRITE_PLAN, 7, "enforced", "Landlock ABI 7"),
    (WRITE_PLAN, 3, "enforced", "Landlock ABI 3"),
    (WRITE_PLAN, 2, "degraded", "Landlock ABI 2: truncating files outside the grants is not "
                                "prevented (needs ABI 3)"),
    (SandboxPlan(restrict=access_set(["read"])), 1, "enforced", "Landlock ABI 1"),
])
def test_status_mapping(plan: SandboxPlan | None, abi: int | None, state: str,
                        message: str) -> None:
    assert sandbox_status(plan, abi, "why not") == SandboxStatus(state, message)  # type: ignore[arg-type]


def test_must_refuse_only_fail_closed_plans_left_unconfined() -> None:
    assert must_refuse(WRITE_PLAN, SandboxStatus("unsupported", "x"))
    assert not must_refuse(WRITE_PLAN, SandboxStatus("degraded", "x"))
    assert not must_refuse(SandboxPlan(restrict=access_set(["write"])),
                           SandboxStatus("unsupported", "x"))


# -- wrapping a spawn -----------------------------------------------------------------------
IDEA = ("/usr/bin/python3", "-m", "app")


def test_wrapping_writes_the_plan_and_prefixes_the_launcher() -> None:
    files, argv = sandbox_files_and_argv(WRITE_PLAN, RUN, IDEA, ["claude", "--x", "--"])
    assert files == (PlannedFile(f"{RUN}/sandbox-plan.json",
                                 json.dumps(WRITE_PLAN.to_json(), indent=2) + "\n"),)
    assert argv == [*IDEA, "sandbox-exec", "--plan", f"{RUN}/sandbox-plan.json", "--",
                    "claude", "--x", "--"]


def test_no_plan_or_nothing_to_confine_leaves_the_spawn_alone() -> None:
    assert sandbox_files_and_argv(None, RUN, IDEA, ["sh"]) == ((), ["sh"])
    assert sandbox_files_and_argv(SandboxPlan(restrict=frozenset()), RUN, IDEA, ["sh"]) == \
        ((), ["sh"])
    spawn = SpawnSpec(command="sh", args=["-l"], cwd=RUN, env={"A": "1"}, cols=100, rows=30)
    assert sandboxed_spawn(spawn, None, RUN, IDEA) == ((), spawn)
    files, wrapped = sandboxed_spawn(spawn, WRITE_PLAN, RUN, IDEA)
    assert len(files) == 1 and wrapped.command == IDEA[0]
    assert wrapped.args[-3:] == ["--", "sh", "-l"]
    assert (wrapped.cwd, wrapped.env, wrapped.cols, wrapped.rows) == (RUN, {"A": "1"}, 100, 30)


# -- what the CLI's needs open (a project under /tmp) ---------------------------------------
TMP_ROOT = "/tmp/proj"
TMP_CTX = SandboxContext(TMP_ROOT, f"{TMP_ROOT}/.ideai/run/a1", CTX.cli_needs)


def test_a_project_under_a_granted_temp_dir_is_exposed_and_writable_by_the_kernel() -> None:
    doc = PermissionsDoc.from_json({"version": 1, "projectDefaults": {"rules": [
        rule("write", "allow", "src/**")], "fallback": "deny"}})
    plan = compile_sandbox_plan(resolve_permissions(doc, "a1", TMP_ROOT), TMP_CTX)
    assert plan is not None and plan.restrict == {"write"}
    assert plan.exposed == ("the project lies in /tmp, which every CLI may write (temporary "
                            "files): the OS cannot enforce write rules inside this project — "
                            "move the project out of /tmp, or accept that these rules are "
                            "advisory",)
    grant = plan.grant_for("write", f"{TMP_ROOT}/x.txt")  # the fallback's deny is not enforced
    assert grant is not None and grant.path == "/tmp" and grant.why == "temporary files"
    assert plan.to_json()["exposed"] == list(plan.exposed)
    assert SandboxPlan.from_json(json.loads(json.dumps(plan.to_json()))) == plan


def test_a_project_outside_every_need_is_not_exposed() -> None:
    plan = plan_of([rule("write", "allow", "src/**"), rule("delete", "deny", "src/**")])
    assert plan.exposed == () and "exposed" not in plan.to_json()
    # reads are open (no read rule), so /usr's read need holding nothing confined is no matter
    assert compile_sandbox_plan(None, TMP_CTX) is None


def test_every_confined_class_the_need_opens_is_named_once() -> None:
    plan = plan_of([rule("write", "allow", "src/**"), rule("delete", "allow", "src/**")],
                   ctx=TMP_CTX)
    assert len(plan.exposed) == 1 and "may write, delete (temporary files)" in plan.exposed[0]


def test_a_deny_rule_whose_folder_a_need_grants_is_exposed() -> None:
    ctx = SandboxContext(ROOT, RUN, (CliNeed(f"{ROOT}/.cache", ALL, "shared caches"),))
    plan = plan_of([rule("write", "allow", "src/**"), rule("write", "deny", ".cache/**")],
                   ctx=ctx)
    assert plan.exposed == (f"write deny .cache/** (project rule projectDefaults.rules[1]): "
                            f".cache/** lies in {ROOT}/.cache, which every CLI may write "
                            "(shared caches): the OS cannot refuse it",)


def test_exposed_by_needs_without_rules_judges_the_root_only() -> None:
    from app.core.domain.sandbox_compile import exposed_by_needs

    needs = CTX.cli_needs
    assert exposed_by_needs(None, "/tmp/proj/", access_set(["write", "delete"]), needs)[0] \
        .startswith("the project lies in /tmp, which every CLI may write, delete")
    assert exposed_by_needs(None, ROOT, access_set(["write"]), needs) == ()
    assert exposed_by_needs(None, "/usr/src/p", access_set(["write"]), needs) == ()  # read only
