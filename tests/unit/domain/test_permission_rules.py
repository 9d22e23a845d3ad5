"""Resolution of an agent's permissions, decisions for a path or a command, and the values the
model refuses (app/core/domain/permissions.py, permission_rules.py)."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.domain.permission_rules import (
    EffectivePermissions,
    command_matches,
    command_parts,
    decide,
    project_relative,
    resolve_permissions,
)
from app.core.domain.permissions import PermissionsDoc
from app.core.errors import AppError

ROOT = "/home/u/proj"


def rule(capability: str, effect: str, *patterns: str) -> dict[str, Any]:
    key = "commands" if capability == "executeBash" else "paths"
    return {"capability": capability, "effect": effect, key: list(patterns)}


def doc(rules: list[dict[str, Any]], fallback: str = "allow",
        agents: dict[str, Any] | None = None) -> PermissionsDoc:
    raw: dict[str, Any] = {"version": 1, "projectDefaults": {"rules": rules,
                                                             "fallback": fallback}}
    if agents is not None:
        raw["agents"] = agents
    return PermissionsDoc.from_json(raw)


def eff(rules: list[dict[str, Any]], fallback: str = "allow", agent: str = "a1",
        agents: dict[str, Any] | None = None) -> EffectivePermissions:
    out = resolve_permissions(doc(rules, fallback, agents), agent, ROOT)
    assert out is not None
    return out


# -- resolution -----------------------------------------------------------------------------
def test_nothing_posed_resolves_to_none() -> None:
    assert resolve_permissions(None, "a1", ROOT) is None


def test_project_defaults_apply_to_an_agent_without_override() -> None:
    e = eff([rule("write", "deny", "secrets/**")], fallback="ask")
    assert e.fallback == "ask" and e.fallback_origin == "project"
    assert [r.where for r in e.rules] == ["projectDefaults.rules[0]"]


def test_an_agent_overrides_capability_by_capability_and_its_fallback() -> None:
    e = eff([rule("write", "deny", "secrets/**"), rule("read", "deny", "keys/**")],
            fallback="allow",
            agents={"a1": {"rules": [rule("write", "allow", "**")], "fallback": "deny"}})
    assert [(r.capability, r.origin) for r in e.rules] == [("read", "project"),
                                                          ("write", "agent")]
    assert decide(e, "write", "secrets/k").effect == "allow"  # the agent's write rules won
    assert decide(e, "read", "keys/k").effect == "deny"  # the project's read rule stays
    assert decide(e, "delete", "x").explain() == "deny — no rule matches: the agent's fallback"
    other = eff(e_rules := [rule("write", "deny", "secrets/**")], agent="a2",
                agents={"a1": {"rules": [], "fallback": "deny"}})
    assert other.fallback == "allow" and len(other.rules) == len(e_rules)


def test_relative_project_root_is_refused() -> None:
    with pytest.raises(AppError) as err:
        resolve_permissions(doc([]), "a1", "proj")
    assert err.value.code == "INVALID" and err.value.details == {"field": "projectRoot"}


# -- paths ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("target", "effect", "why"), [
    ("src/app.py", "allow", "write allow ** (project rule projectDefaults.rules[0])"),
    ("secrets/key", "deny", "write deny secrets/** (project rule projectDefaults.rules[1])"),
    (f"{ROOT}/secrets/a/b", "deny", "write deny secrets/** (project rule projectDefaults.rules[1])"),
    ("lib/.env", "ask", "write ask *.env (project rule projectDefaults.rules[2])"),
    ("/etc/passwd", "deny", "no rule matches: the project's fallback"),
    ("../other/x", "deny", "no rule matches: the project's fallback"),
    ("src/../secrets/k", "deny", "write deny secrets/** (project rule projectDefaults.rules[1])"),
])
def test_write_decisions_name_the_rule(target: str, effect: str, why: str) -> None:
    e = eff([rule("write", "allow", "**"), rule("write", "deny", "secrets/**"),
             rule("write", "ask", "*.env")], fallback="deny")
    decision = decide(e, "write", target)
    assert decision.effect == effect
    assert decision.explain() == f"{effect} — {why}"


def test_deny_wins_over_ask_over_allow_whatever_the_order() -> None:
    e = eff([rule("read", "allow", "a/**"), rule("read", "ask", "a/**"),
             rule("read", "deny", "a/b/**"), rule("read", "allow", "a/b/c")])
    assert decide(e, "read", "a/x").effect == "ask"
    assert decide(e, "read", "a/b/c").effect == "deny"


def test_gitignore_semantics() -> None:
    e = eff([rule("read", "deny", "*.pem"), rule("read", "deny", "/top.txt"),
             rule("read", "deny", "build/")], fallback="allow")
    assert decide(e, "read", "deep/down/k.pem").effect == "deny"  # no slash: any depth
    assert decide(e, "read", "top.txt").effect == "deny"
    assert decide(e, "read", "sub/top.txt").effect == "allow"  # leading / anchors
    assert decide(e, "read", "x/build/out.o").effect == "deny"  # dir pattern, any depth


def test_a_rule_with_no_paths_covers_the_whole_capability_even_outside() -> None:
    e = eff([rule("read", "allow")], fallback="deny")
    assert decide(e, "read", "/usr/lib/libc.so").effect == "allow"
    assert decide(e, "write", "/usr/lib/libc.so").effect == "deny"
    assert e.default("read").effect == "allow" and e.default("write").rule is None


def test_project_relative() -> None:
    assert project_relative(ROOT, ROOT) == "."
    assert project_relative(ROOT, f"{ROOT}/a/./b") == "a/b"
    assert project_relative(ROOT, f"{ROOT}-other/a") is None
    assert project_relative("/", "/etc/x") == "etc/x"


# -- commands -------------------------------------------------------------------------------
@pytest.mark.parametrize(("command", "effect"), [
    ("git status", "allow"),
    ("git   push origin main", "ask"),
    ("git push", "ask"),  # a trailing " *" also matches the bare command
    ("git pushx", "allow"),
    ("rm -rf /", "deny"),
    ("ls && rm -rf build", "deny"),  # the strictest part of a compound command
    ("echo ok | sh -c 'git push'", "allow"),  # a quoted string is one word of sh -c
    ("npm run build; git push --force", "ask"),
])
def test_command_decisions(command: str, effect: str) -> None:
    e = eff([rule("executeBash", "allow"), rule("executeBash", "ask", "git push *"),
             rule("executeBash", "deny", "rm -rf *")])
    assert decide(e, "executeBash", command).effect == effect


def test_command_parts_and_patterns() -> None:
    assert command_parts("a b && c || d; e | f & g\nh") == ["a b", "c", "d", "e", "f", "g", "h"]
    assert command_parts("echo 'unclosed") == []
    assert command_matches("npm run *", "npm run")
    assert command_matches("*install*", "pip install x")
    assert not command_matches("git push", "git push origin")


def test_unknown_capability_in_decide_is_invalid() -> None:
    with pytest.raises(AppError) as err:
        decide(eff([]), "network", "x")  # type: ignore[arg-type]
    assert err.value.code == "INVALID" and "network" in err.value.message


# -- validation -----------------------------------------------------------------------------
@pytest.mark.parametrize(("bad", "field", "says"), [
    (rule("launch", "allow"), "projectDefaults.rules[0].capability",
     "input should be 'read', 'write', 'delete' or 'executeBash'"),
    (rule("write", "deny", "ok/**", "../up"), "projectDefaults.rules[0].paths[1]",
     "'..' is not allowed"),
    (rule("write", "deny", "!keep"), "projectDefaults.rules[0].paths[0]",
     "negation is not supported"),
    (rule("write", "deny", "a\\"), "projectDefaults.rules[0].paths[0]", "invalid glob"),
    (rule("write", "deny", " "), "projectDefaults.rules[0].paths[0]", "cannot be empty"),
    (rule("read", "deny", "~/x"), "projectDefaults.rules[0].paths[0]", "home folder"),
    ({"capability": "read", "effect": "deny", "commands": ["ls"]},
     "projectDefaults.rules[0].commands", "only executeBash rules take commands"),
    ({"capability": "executeBash", "effect": "deny", "paths": ["x"]},
     "projectDefaults.rules[0].paths", "executeBash rules take commands, not paths"),
    (rule("executeBash", "deny", ""), "projectDefaults.rules[0].commands[0]",
     "cannot be empty"),
])
def test_invalid_rules_are_refused_naming_the_field(bad: dict[str, Any], field: str,
                                                    says: str) -> None:
    with pytest.raises(AppError) as err:
        doc([bad])
    assert err.value.code == "INVALID" and err.value.details == {"field": field}
    assert err.value.message.startswith(f"{field}: ") and says in err.value.message


def test_unknown_keys_still_round_trip() -> None:
    raw = {"version": 1, "projectDefaults": {"rules": [
        {"capability": "read", "effect": "allow", "paths": ["**"], "commands": [], "note": 1}],
        "fallback": "ask", "x": True}, "future": {"k": 1}}
    assert PermissionsDoc.from_json(raw).to_json() == raw


# -- properties -----------------------------------------------------------------------------
EFFECTS = st.sampled_from(["allow", "ask", "deny"])
GLOBS = st.sampled_from(["**", "src/**", "*.py", "src/*.py", "docs/", "/top", "a/b/c"])
PATHS = st.sampled_from(["src/a.py", "src/x/y.py", "docs/r.md", "top", "a/b/c", "z", "/etc/x"])


@given(st.lists(st.tuples(EFFECTS, GLOBS), max_size=6), EFFECTS, PATHS)
def test_adding_a_matching_deny_always_denies(rules: list[tuple[str, str]], fallback: str,
                                              path: str) -> None:
    base = [rule("write", e, g) for e, g in rules]
    before = decide(eff(base, fallback), "write", path)
    after = decide(eff([*base, rule("write", "deny", "**"), rule("write", "deny")], fallback),
                   "write", path)
    assert after.effect == "deny" and after.rule is not None
    order = {"allow": 0, "ask": 1, "deny": 2}
    shuffled = decide(eff(list(reversed(base)), fallback), "write", path)
    assert order[shuffled.effect] == order[before.effect]  # order never changes the effect
