import copy

import pytest

from app.core.domain.permissions import PermissionPolicy, PermissionRule, PermissionsDoc
from app.core.errors import AppError

RAW = {
    "version": 1,
    "projectDefaults": {"rules": [
        {"capability": "write", "effect": "deny", "paths": ["secrets/**"], "commands": []},
        {"capability": "executeBash", "effect": "ask", "paths": [], "commands": ["git push*"]},
    ], "fallback": "allow"},
    "agents": {"a6ced819": {"rules": [], "fallback": "deny", "note": "x"}},
    "future": True,
}


def test_per_agent_overrides_and_unknown_keys_round_trip() -> None:
    doc = PermissionsDoc.from_json(RAW)
    assert doc.to_json() == RAW
    assert doc.agents is not None and doc.agents["a6ced819"].fallback == "deny"
    assert doc.project_defaults.rules[1].commands == ("git push*",)


def test_agents_key_is_left_out_when_absent() -> None:
    doc = PermissionsDoc(project_defaults=PermissionPolicy(
        rules=(PermissionRule(capability="read", effect="allow", paths=("**",)),),
        fallback="ask"))
    assert doc.to_json() == {"version": 1, "projectDefaults": {"rules": [
        {"capability": "read", "effect": "allow", "paths": ["**"], "commands": []}],
        "fallback": "ask"}}


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d["projectDefaults"]["rules"][0].update(capability="launch"),
     "projectDefaults.rules[0].capability"),
    (lambda d: d["projectDefaults"]["rules"][1].update(effect="maybe"),
     "projectDefaults.rules[1].effect"),
    (lambda d: d["projectDefaults"].pop("fallback"), "projectDefaults.fallback"),
    (lambda d: d.pop("projectDefaults"), "projectDefaults"),
    (lambda d: d["agents"]["a6ced819"].update(rules="all"), "agents.a6ced819.rules"),
])
def test_wrong_shapes_name_the_field(mutate, field: str) -> None:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(RAW)
    mutate(raw)
    with pytest.raises(AppError) as err:
        PermissionsDoc.from_json(raw)
    assert err.value.code == "INVALID" and err.value.details == {"field": field}
