"""A refusal of what the user typed names the field as the window's form shows it (a trial read
`op.name: …` and `command.text: …`); the field's path stays in the details."""

import pytest

from app.core.domain.field_labels import field_label, field_refusal
from app.core.domain.layout_edit import parse_layout_op
from app.core.errors import AppError


def test_a_field_is_named_by_its_label_or_that_of_the_field_holding_it() -> None:
    assert field_label("layout", "name") == "Layout name"
    assert field_label("task", "text") == "Task"
    assert field_label("settings", "terminal.fontSize") == "Terminal font size"
    assert field_label("profile", "contextInjection.flag") == "Context flag"
    assert field_label("profile", "env.MY VAR") == "Environment"
    assert field_label("profile", "waitingScreens[2]") == "Waiting screens"
    assert field_label("profile", "projectAccess.args[0]") == "Project access"
    assert field_label("layout", "nodeId") is None and field_label("profile", "") is None


def test_a_permissions_rule_is_named_by_its_row() -> None:
    assert field_label("permissions", "projectDefaults.rules[1].paths[0]") == \
        "Rule 2, path globs"
    assert field_label("permissions", "agents.a1.rules[0].capability") == "Rule 1, capability"
    assert field_label("permissions", "agents.a1.rules[3]") == "Rule 4"
    assert field_label("permissions", "projectDefaults.fallback") == "Otherwise"
    assert field_label("permissions", "version") is None


def test_a_refusal_says_the_label_and_keeps_the_path_in_its_details() -> None:
    err = field_refusal("layout", "name", "a layout needs a name", path="op.name")
    assert err.code == "INVALID" and err.message == "Layout name: a layout needs a name"
    assert err.details == {"field": "op.name", "label": "Layout name"}
    # a field no form shows (the window builds it) is named by its path, as before
    other = field_refusal("layout", "nodeId", "field required", path="op.nodeId")
    assert other.message == "op.nodeId: field required" and other.details == {"field": "op.nodeId"}
    kept = field_refusal("agent", "name", "field required", path="agent.name",
                         details={"field": "name"})
    assert kept.message == "Name: field required"
    assert kept.details == {"field": "name", "label": "Name"}


def test_an_ops_layout_name_is_named_as_the_dialog_does_its_other_fields_by_path() -> None:
    with pytest.raises(AppError) as err:
        parse_layout_op({"kind": "renameLayout", "layoutId": "l1", "name": 3})
    assert err.value.message == "Layout name: input should be a valid string"
    assert err.value.details == {"field": "op.name", "label": "Layout name"}
    with pytest.raises(AppError) as err:
        parse_layout_op({"kind": "split", "nodeId": "n", "direction": "up"})
    assert err.value.message.startswith("op.direction: ")
    assert err.value.details == {"field": "op.direction"}
