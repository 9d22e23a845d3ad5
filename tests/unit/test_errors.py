import re
from pathlib import Path

import pytest

from app.core import errors
from app.core.errors import AppError


def test_to_json_has_code_message_details() -> None:
    err = AppError(errors.AGENT_ALREADY_RUNNING, "busy", {"nodeId": "n1"})
    assert err.to_json() == {"code": "AGENT_ALREADY_RUNNING", "message": "busy",
                             "details": {"nodeId": "n1"}}
    assert str(err) == "busy"


def test_details_default_to_empty_dict() -> None:
    assert AppError(errors.INVALID, "x").details == {}


def test_all_contract_codes_exist() -> None:
    assert errors.ERROR_CODES == {
        "NOT_FOUND", "INVALID", "ALREADY_EXISTS", "NOT_WRITABLE", "CORRUPT_FILE",
        "AGENT_ALREADY_RUNNING", "CHANGED_ON_DISK", "COMMAND_NOT_FOUND", "INTERNAL", "FORBIDDEN",
        "INBOX_FULL", "TIMEOUT", "CYCLE", "NO_REPLY", "AGENT_ERROR", "CANCELLED", "SESSION_ERROR"}


def test_unknown_code_is_refused() -> None:
    with pytest.raises(ValueError):
        AppError("NOPE", "x")


def test_the_window_knows_every_code() -> None:
    # The window reads an unknown code as INTERNAL: CANCELLED and SESSION_ERROR were missing.
    ports = (Path(__file__).parents[2] / "web/src/lib/ports.ts").read_text()
    listed = re.search(r"ERROR_CODES: readonly ErrorCode\[\] = \[(.*?)\];", ports, re.S)
    assert listed is not None
    assert set(re.findall(r"'([A-Z_]+)'", listed.group(1))) == errors.ERROR_CODES
