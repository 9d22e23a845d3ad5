"""Packets allow only their signal's fields; access matrices are read from personas and checked
both ways; writing a matrix back leaves the persona's text untouched."""

import pytest

from app.core.domain.access import (
    IpcMatrix,
    check_access,
    matrix_of,
    split_front_matter,
    validate_matrix,
    with_matrix,
)
from app.core.domain.delegation import parse_command
from app.core.errors import AppError

PERSONA = """---
owner: team-a
ipc:
  receives_from: [orchestrator, human]
  sends_to: [orchestrator]
  zone_access: [project]
  signals: [SPAWN, RETURN, BLOCKED_ON]
---
# Debug — finds bugs

You are the debug agent.
---
Not front matter: a rule in the text.
"""


def refused(command: dict[str, object]) -> str:
    with pytest.raises(AppError) as err:
        parse_command(command)
    assert err.value.code == "INVALID"
    return err.value.message


def test_each_signal_allows_only_its_fields() -> None:
    assert refused({"type": "agent.reply", "result": "x", "options": ["a", "b"]}) == \
        "command.options: not allowed with signal RETURN (allows: result)"
    assert refused({"type": "agent.reply", "signal": "ESCALATE", "options": ["a", "b"],
                    "context": "why"}) == \
        "command.context: not allowed with signal ESCALATE (allows: options)"
    assert refused({"type": "agent.reply", "signal": "ERROR"}) == \
        "command.context: required by signal ERROR"
    assert refused({"type": "agent.ask", "target": "B", "task": "t", "signal": "HANDOFF",
                    "files": ["a.py"]}) == \
        "command.files: not allowed with signal HANDOFF (allows: decision, task)"
    assert refused({"type": "agent.ask", "target": "B", "task": "t", "signal": "RETURN"}) \
        .startswith("command.signal: RETURN cannot be sent this way (use one of SPAWN, HANDOFF)")
    assert refused({"type": "agent.reply", "signal": "ESCALATE", "options": ["only"]}) == \
        "command.options: ESCALATE needs at least two options"
    ok = parse_command({"type": "agent.ask", "target": "B", "task": "t", "files": ["a.py"],
                        "zone": "project"})
    assert ok.signal == "SPAWN"  # type: ignore[union-attr]
    assert parse_command({"type": "agent.reply", "signal": "BLOCKED_ON",
                          "context": "no access to /etc"}).context == "no access to /etc"  # type: ignore[union-attr]


def test_the_matrix_is_read_from_the_front_matter() -> None:
    matrix = matrix_of(PERSONA)
    assert matrix == IpcMatrix(("orchestrator", "human"), ("orchestrator",),
                               ("SPAWN", "RETURN", "BLOCKED_ON"), ("project",))
    assert matrix_of("# no front matter\n") is None
    assert matrix_of("---\nowner: x\n---\nbody") is None
    with pytest.raises(AppError) as err:
        matrix_of("---\nipc:\n  sends_to: Alpha\n---\n")
    assert err.value.message == "ipc.sends_to: expected a list of names"
    # A misspelt key would restrict nothing (trial finding: the ask went through).
    with pytest.raises(AppError) as err:
        matrix_of("---\nipc: {recieves_from: [Nobody]}\n---\nYou compute.")
    assert err.value.message == "ipc.recieves_from: unknown key; did you mean receives_from?"
    with pytest.raises(AppError) as err:
        matrix_of("---\nipc: {owner: [x]}\n---\n")
    assert err.value.message == ("ipc.owner: unknown key; expected receives_from, sends_to, "
                                 "signals, zone_access")
    with pytest.raises(AppError) as err:
        matrix_of("---\nipc: [\n---\n")
    assert err.value.message.startswith("front matter: not YAML")
    # Lines and columns are the file's (trial finding: they counted from the line after ---).
    with pytest.raises(AppError) as err:
        matrix_of("---\nname: x\nipc:\n  signals: [ask, message\n---\nbody\n")
    assert err.value.message == (
        "front matter: not YAML at line 4, column 25: expected ',' or ']', but got "
        "'<stream end>' (while parsing a flow sequence from line 4, column 12)")
    with pytest.raises(AppError) as err:
        matrix_of("---\na: 1\n\tb: 2\n---\n")
    assert err.value.message.startswith("front matter: not YAML at line 3, column 1: ")


def test_checks_apply_both_ways_and_name_the_rule() -> None:
    debug = matrix_of(PERSONA)

    def forbidden(*args: object) -> str:
        with pytest.raises(AppError) as err:
            check_access(*args)  # type: ignore[arg-type]
        assert err.value.code == "FORBIDDEN"
        return err.value.message

    check_access("Orchestrator", None, "Debug", debug, "SPAWN", "project")
    check_access("human", None, "Debug", debug, "SPAWN", None)
    assert forbidden("Alpha", None, "Debug", debug, "SPAWN", None) == \
        "Debug's ipc.receives_from [orchestrator, human] does not include Alpha"
    assert forbidden("Orchestrator", None, "Debug", debug, "HANDOFF", None) == \
        "Debug's ipc.signals [SPAWN, RETURN, BLOCKED_ON] does not include HANDOFF"
    assert forbidden("Orchestrator", None, "Debug", debug, "SPAWN", "kernel") == \
        "Debug's ipc.zone_access [project] does not include zone kernel"
    assert forbidden("Debug", debug, "Alpha", None, "RETURN", None) == \
        "Debug's ipc.sends_to [orchestrator] does not include Alpha"
    check_access("Debug", debug, "orchestrator", None, "RETURN", None)
    anyone = IpcMatrix(receives_from=("*",))
    check_access("Whoever", None, "Open", anyone, "SPAWN", None)
    user_ok = IpcMatrix(receives_from=("user",))
    check_access("human", None, "Open", user_ok, "SPAWN", None)


def test_writing_the_matrix_back_keeps_the_persona_text_and_other_keys() -> None:
    updated = with_matrix(PERSONA, IpcMatrix(sends_to=("Alpha", "human")))
    front, _, body = split_front_matter(updated)
    assert front == {"owner": "team-a", "ipc": {"sends_to": ["Alpha", "human"]}}
    assert body == split_front_matter(PERSONA)[2]  # byte for byte
    assert matrix_of(updated) == IpcMatrix(sends_to=("Alpha", "human"))
    cleared = with_matrix(updated, None)
    assert split_front_matter(cleared)[0] == {"owner": "team-a"} and cleared.endswith(body)
    plain = "# Plain persona\n\nText.\n"
    assert with_matrix(with_matrix(plain, IpcMatrix(signals=("SPAWN",))), None) == plain


def test_unknown_signals_and_zones_are_refused() -> None:
    with pytest.raises(AppError) as err:
        validate_matrix(IpcMatrix(signals=("SPAWN", "SHOUT")))
    assert "unknown signal 'SHOUT'" in err.value.message
    with pytest.raises(AppError) as err:
        validate_matrix(IpcMatrix(zone_access=("moon",)))
    assert "unknown zone 'moon'" in err.value.message
