from app.core.domain.convention import compose_convention_file


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
