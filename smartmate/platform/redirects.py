"""Where a form may send the student back to: only a path on this site, never another origin."""

from __future__ import annotations


def is_local_path(url: str | None) -> bool:
    """True for "/schedule/?week=3"; false for "https://evil.example/", "//evil.example/" and ""."""
    return bool(url) and url.startswith("/") and not url.startswith("//")  # type: ignore[union-attr]
