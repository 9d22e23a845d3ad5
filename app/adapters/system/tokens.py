"""``TokenSource``: launch tokens from the OS's CSPRNG (``secrets``)."""

from __future__ import annotations

import secrets


class SecretTokens:
    """Tokens of 192 random bits, as 48 lowercase hex digits.

    Hex, not URL-safe base64: a base64 token begins with ``-`` once in 64, and a command line
    such as ``idea mcp-server --token -zi6…`` then reads it as an option (argparse: "expected
    one argument"), so the agent's MCP server failed to start.
    """

    def new_token(self) -> str:
        return secrets.token_hex(24)
