"""``TokenSource``: launch tokens from the OS's CSPRNG (``secrets``)."""

from __future__ import annotations

import secrets


class SecretTokens:
    """URL-safe tokens of 192 random bits."""

    def new_token(self) -> str:
        return secrets.token_urlsafe(24)
