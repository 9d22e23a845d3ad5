"""`SecretTokens`: launch tokens that a command line never reads as an option."""

from __future__ import annotations

from app.adapters.system.tokens import SecretTokens


def test_launch_tokens_never_read_as_an_option() -> None:
    """A token on a command line (`--token=…`) must not begin with `-`: hex digits only."""
    tokens = {SecretTokens().new_token() for _ in range(500)}
    assert len(tokens) == 500
    assert all(len(t) == 48 and set(t) <= set("0123456789abcdef") for t in tokens)
