from app.core.domain.convention import compose_convention_file, orchestration_section


def test_sections_in_order() -> None:
    text = compose_convention_file("/p", "ctx", "persona", [("a", "skill A")], "- note",
                                   orchestration="use idea tools", handoff="where we are")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Project root", "## Orchestration", "## Project context",
                        "## Persona", "## Skills", "## Memory", "## Handoff"]
    assert "### a\n\nskill A" in text and "/p" in text and text.endswith("\n")


def test_empty_sections_are_omitted() -> None:
    text = compose_convention_file("/p", "  \n", None, [("a", " ")], "", None, "\t")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Project root"]
    assert "### a" not in text


def test_a_shell_agent_is_told_its_tasks_come_as_a_no_op_and_to_answer_with_the_command() -> None:
    text = orchestration_section("Gamma", ["Alpha"], mcp_tools=False, shell=True)
    assert "idea_reply" not in text and "idea_ask_agent" not in text
    assert ": '[IdeA · task from <name> · ticket <id>] <task>'" in text
    assert 'answer with `idea reply --ticket <id> "result"`' in text
    no_mcp = orchestration_section("Beta", ["Alpha"], mcp_tools=False)
    assert "idea_reply" not in no_mcp and "answer with `idea reply --ticket <id>`" in no_mcp
    assert "`idea_reply` (or `idea reply`)" in orchestration_section("Beta", [], mcp_tools=True)
