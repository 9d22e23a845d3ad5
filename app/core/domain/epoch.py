"""Absolute instants as vendors print them, turned into epoch milliseconds (digest §3.4): a
number of seconds or milliseconds, as a JSON number or a string, or an RFC 3339 date-time.
Pure: no clock (a relative "retry after" is not an instant and is not read here)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

#: Below this an epoch number counts seconds, from it milliseconds (1e12 ms is 2001-09-09;
#: 1e12 s is the year 33658).
MS_THRESHOLD = 1_000_000_000_000

_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?"
    r"(?:([Zz])|([+-])(\d{2}):?(\d{2}))?")


def to_epoch_ms(value: object) -> int | None:
    """`value` as epoch ms, or None when it is not an instant.

    An int below `MS_THRESHOLD` is seconds (×1000), else ms; a float likewise (rounded to the
    ms); a string is tried as an int, a float, then RFC 3339 (`2023-11-14T22:13:20Z`,
    `…+01:00`, `…+0100`, a fraction kept to the ms; no zone = UTC). Booleans, null, arrays,
    objects and anything else give None.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) >= MS_THRESHOLD else value * 1000
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return round(value if abs(value) >= MS_THRESHOLD else value * 1000)
    if isinstance(value, str):
        text = value.strip()
        for parse in (int, float):
            try:
                return to_epoch_ms(parse(text))
            except ValueError:
                pass
        return rfc3339_to_ms(text)
    return None


def rfc3339_to_ms(text: str) -> int | None:
    """An RFC 3339 date-time (seconds required) as epoch ms; None when it is not one."""
    match = _RFC3339.fullmatch(text)
    if not match:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    fraction, _zulu, sign, off_h, off_m = match.groups()[6:]
    try:
        instant = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError:
        return None
    if sign:
        offset = timedelta(hours=int(off_h), minutes=int(off_m))
        instant -= offset if sign == "+" else -offset
    ms = int((fraction or "0")[:3].ljust(3, "0"))
    return int(instant.timestamp()) * 1000 + ms
