"""The bounded scrollback of a PTY session: app/adapters/pty/common.ScrollbackRing."""

from app.adapters.pty.common import ScrollbackRing


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
