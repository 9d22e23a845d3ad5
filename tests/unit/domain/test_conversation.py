"""Pair conversation ids, the log format, and the handoff fold on the original's samples."""

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.domain.conversation import Turn, conversation_id, parse_log, source_of
from app.core.domain.handoff import fold, parse, render

SAMPLES = Path(__file__).resolve().parents[2] / "fixtures" / "conversations"
MAIN = "a6ced819-b893-4213-b003-9e9dc79b9641"


def sample(cid: str) -> tuple[str, str]:
    return ((SAMPLES / cid / "log.jsonl").read_text(encoding="utf-8"),
            (SAMPLES / cid / "handoff.md").read_text(encoding="utf-8"))


def test_the_pair_id_is_the_originals_xor_and_order_free() -> None:
    assert conversation_id(MAIN, "af7f86da-76bc-48e1-9900-71f45a624800") == \
        "09b15ec3-ce2f-0af2-2903-ef699df9de41"
    assert conversation_id("93dc1f5f-921e-44a2-a7e7-5173d87c1a58", MAIN) == \
        "3512c746-2a8d-06b1-17e4-cfee1fe78c19"
    assert conversation_id(None, MAIN) == MAIN  # the user is the nil UUID
    b = "af7f86da-76bc-48e1-9900-71f45a624800"
    assert len({conversation_id(MAIN, b), conversation_id(None, b), conversation_id(None, MAIN)}) == 3
    assert conversation_id("id-1", "id-2") == conversation_id("id-2", "id-1") != \
        conversation_id(None, "id-2")


def test_the_samples_logs_read_and_write_back_line_for_line() -> None:
    for folder in SAMPLES.iterdir():
        log, _ = sample(folder.name)
        turns = parse_log(log)
        assert [t.line() for t in turns] == log.splitlines()
        assert {t.conversation for t in turns} == {folder.name}


def test_a_torn_or_broken_line_is_skipped() -> None:
    log, _ = sample("3512c746-2a8d-06b1-17e4-cfee1fe78c19")
    lines = log.splitlines()
    damaged = "\n".join([lines[0], "{not json", lines[1], lines[2][:40]])  # torn at the end
    assert [t.id for t in parse_log(damaged)] == [json.loads(lines[i])["id"] for i in (0, 1)]


def test_the_fold_reproduces_the_three_samples_byte_for_byte() -> None:
    for folder in SAMPLES.iterdir():
        log, handoff = sample(folder.name)
        folded = fold(None, parse_log(log))
        assert folded is not None and render(folded) == handoff, folder.name
        assert parse(handoff) == folded


def test_folding_turn_by_turn_equals_folding_the_whole_log() -> None:
    for folder in SAMPLES.iterdir():
        turns = parse_log(sample(folder.name)[0])
        for budget in (60, 400, 6_000):
            step = None
            for turn in turns:
                step = fold(parse(render(step)) if step else None, [turn], budget)
            assert step == fold(None, turns, budget)


def test_the_budget_folds_the_oldest_turns_first_and_says_how_many() -> None:
    turns = parse_log(sample("3512c746-2a8d-06b1-17e4-cfee1fe78c19")[0])
    small = fold(None, turns, budget_tokens=40)
    assert small is not None and small.folded == len(turns) - len(small.bullets) > 0
    assert small.bullets[-1] == "- **Response:** 702"
    text = render(small)
    assert f"- *… {small.folded} earlier turns folded*" in text
    assert small.objective.startswith("Petit test de communication")  # the objective stays


def turn(i: int, role: str, text: str) -> Turn:
    return Turn(id=f"t{i}", conversation="c", at_ms=i, source=source_of("a" if role ==
                "prompt" else "b"), role=role, text=text)  # type: ignore[arg-type]


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(["prompt", "response"]),
                          st.text(min_size=1, max_size=300)), min_size=1, max_size=25),
       st.integers(min_value=10, max_value=2_000), st.integers(min_value=1, max_value=24))
def test_incremental_equals_from_scratch_for_any_log(steps, budget, cut) -> None:  # type: ignore[no-untyped-def]
    turns = [turn(i, role, text) for i, (role, text) in enumerate(steps)]
    cut = min(cut, len(turns))
    first = fold(None, turns[:cut], budget)
    assert first is not None
    again = fold(parse(render(first)), turns[cut:], budget)
    assert again == fold(None, turns, budget)
