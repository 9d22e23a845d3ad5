"""The bounded scrollback of a PTY session: app/core/domain/scrollback.ScrollbackRing."""

from app.core.domain.scrollback import ScrollbackRing


def test_the_cut_moves_to_a_line_start_even_when_the_newline_is_in_a_later_chunk() -> None:
    # Regression (seen in CI): a PTY read ended mid-line, the cut fell in that chunk and the
    # repaint started with "07\r\nline …".
    ring = ScrollbackRing(max_chars=20, line_slack_chars=10)
    for chunk in ["line 01\nline 0", "2\nline 03\n", "line 04\n"]:
        ring.append(chunk)
    assert ring.text() == "line 03\nline 04\n"


def test_bounded_and_newest_kept() -> None:
    ring = ScrollbackRing(max_chars=10, line_slack_chars=4)
    ring.append("abcdefghijklmnopqrstuvwxyz")  # no newline within the slack: cut exactly
    assert ring.text() == "qrstuvwxyz"
    assert len(ring) == 10


def test_many_small_chunks_stay_line_aligned() -> None:
    ring = ScrollbackRing(max_chars=1000, line_slack_chars=100)
    text = "".join(f"line {i:06d}\n" for i in range(2000))
    for i in range(0, len(text), 7):  # reads split lines anywhere
        ring.append(text[i:i + 7])
    kept = ring.text()
    assert len(kept) <= 1000 and kept.startswith("line ") and text.endswith(kept)


def test_bounded_and_cut_at_a_line_boundary_across_uneven_reads() -> None:
    ring = ScrollbackRing(100_000)
    text = "".join(f"line {i:06d}\r\n" for i in range(20_000))
    at, step = 0, 1
    while at < len(text):  # PTY reads end anywhere, mid-line included
        ring.append(text[at:at + step])
        at, step = at + step, step % 4093 + 977
    back = ring.text()
    assert len(back) <= 100_000
    assert back.startswith("line ") and back.endswith("line 019999\r\n")
    assert text.endswith(back)
