"""Epoch instants as vendors print them (digest §7 cases 22, 26–33)."""

import pytest

from app.core.domain.epoch import rfc3339_to_ms, to_epoch_ms

T = 1_700_000_000_000


@pytest.mark.parametrize(("value", "expected"), [
    (1_700_000_000, T), (T, T), (999_999_999_999, 999_999_999_999_000),
    (1_000_000_000_000, 1_000_000_000_000), (1_700_000_000.5, 1_700_000_000_500),
    (1.7e12, T), ("1700000000", T), ("1700000000000", T), ("1700000000.5", 1_700_000_000_500),
    ("2023-11-14T22:13:20Z", T), ("2023-11-14T23:13:20+01:00", T),
    ("2023-11-14T21:13:20-01:00", T), ("2023-11-14T23:13:20+0100", T),
    ("2023-11-14T22:13:20", T),  # no zone: UTC
    ("1970-01-01T00:00:00.5Z", 500), ("1970-01-01T00:00:00.123456Z", 123),
    ("1970-01-01T00:00:00.7Z", 700), ("1970-01-01T00:00:00Z", 0),
    ("2024-02-29T00:00:00Z", 1_709_164_800_000), ("2021-01-01T00:00:00Z", 1_609_459_200_000),
])
def test_instants(value: object, expected: int) -> None:
    assert to_epoch_ms(value) == expected


@pytest.mark.parametrize("value", [
    True, None, [1, 2, 3], {"nested": 1}, "pas une date", "2023-11-14",
    "abcd-11-14T00:00:00Z", "2023-11T00:00:00Z", "2023-11-14-9T00:00:00Z", "2023-11-14T22Z",
    "2023-13-01T00:00:00Z", float("nan"),
])
def test_what_is_not_an_instant(value: object) -> None:
    assert to_epoch_ms(value) is None


def test_rfc3339_needs_the_seconds() -> None:
    assert rfc3339_to_ms("2023-11-14T22:13Z") is None
