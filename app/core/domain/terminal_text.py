"""Terminal output as plain text (for an asker told what a target printed). Pure.

Drops ANSI/VT escape sequences (CSI, OSC, other ESC sequences — ECMA-48) and control
characters but newlines and tabs, and normalises CR/LF.
"""

from __future__ import annotations

import re

_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"        # CSI … final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC … BEL or ST
    r"|\x1b[P^_][^\x1b]*\x1b\\"       # DCS / PM / APC … ST
    r"|\x1b[ -/]+[0-~]"               # ESC with intermediates (charset designation …)
    r"|\x1b[@-Z\\-_]"                 # two-byte ESC sequences
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def plain_text(text: str) -> str:
    """`text` without escape sequences and control characters; `\\r\\n` and lone `\\r`
    become `\\n`."""
    text = _ESCAPES.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROLS.sub("", text)


def tail(text: str, max_chars: int) -> str:
    """The last `max_chars` characters of `plain_text(text)`, stripped, cut at a line start
    when one is near."""
    clean = plain_text(text).strip()
    if len(clean) <= max_chars:
        return clean
    cut = clean[-max_chars:]
    newline = cut.find("\n")
    return cut[newline + 1:] if 0 <= newline < max_chars // 4 else cut
