"""The password hasher the test suite uses: production's PBKDF2 with few rounds.

Creating a test student hashes a password, and at production's cost (about 0.4 s here) that alone was
most of the suite's time. The algorithm and the stored format (``pbkdf2_sha256$rounds$salt$hash``) are
production's; only the number of rounds differs, and that is read from the hash itself. The daphne children
of page tests use it too (``child_settings``), except production mode's, which re-hashes a student's
password at production's cost on her first sign-in, as a deployment upgrading old hashes does.
"""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000


def hashers_for_tests(configured: list[str]) -> list[str]:
    """The configured hashers with production's PBKDF2 replaced by the quick one (same algorithm name:
    Django keys hashers by it, so both may not be listed)."""
    default = "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    quick = f"{__name__}.{QuickPBKDF2PasswordHasher.__name__}"
    return [quick] + [path for path in configured if path != default]
