"""Where a form may send the student back to: only a path on this site, never another origin."""

from __future__ import annotations

from typing import TypeGuard


def is_local_path(url: str | None) -> TypeGuard[str]:
    """True for "/schedule/?week=3"; false for "https://evil.example/", "//evil.example/" and ""."""
    return url is not None and url.startswith("/") and not url.startswith("//")
