"""Read typed settings from the environment, failing loudly on malformed values.

Every helper raises ``ImproperlyConfigured`` naming the variable and what it expected, so a
typo in a deployment stops the process at start instead of surfacing as odd behaviour later.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str = "") -> str:
    """Return the variable stripped of surrounding blanks, or the default when unset or empty."""
    value = os.environ.get(name, "").strip()
    return value or default


def env_bool(name: str, default: bool) -> bool:
    """Return a boolean spelled 1/0, true/false, yes/no or on/off."""
    raw = env_str(name)
    if not raw:
        return default
    lowered = raw.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use 1/0, true/false, yes/no or on/off.")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return an integer, optionally bounded."""
    raw = env_str(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is below the minimum {minimum}.")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name}={value} is above the maximum {maximum}.")
    return value


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    """Return a float, optionally bounded below."""
    raw = env_str(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number.") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is below the minimum {minimum}.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """Return a comma-separated list with blanks dropped."""
    raw = env_str(name)
    if not raw:
        return list(default)
    return [part.strip() for part in raw.split(",") if part.strip()]


def env_url(name: str, *, schemes: tuple[str, ...], default: str = "") -> str:
    """Return a URL whose scheme is one of ``schemes`` (empty when unset and no default)."""
    raw = env_str(name, default)
    if not raw:
        return ""
    parts = urlsplit(raw)
    if parts.scheme not in schemes:
        allowed = ", ".join(f"{scheme}://" for scheme in schemes)
        raise ImproperlyConfigured(f"{name} must start with one of {allowed}; got {_redact(raw)!r}.")
    if not parts.netloc and parts.scheme not in {"sqlite", "file"}:
        raise ImproperlyConfigured(f"{name} has no host: {_redact(raw)!r}.")
    return raw


@dataclass(frozen=True)
class DatabaseUrl:
    engine: str
    name: str
    user: str = ""
    password: str = ""
    host: str = ""
    port: str = ""


def parse_database_url(name: str, raw: str) -> DatabaseUrl:
    """Parse ``mysql://user:pass@host:port/db`` or ``sqlite:///path`` into its parts."""
    parts = urlsplit(raw)
    if parts.scheme in {"mysql", "mariadb"}:
        database = parts.path.lstrip("/")
        if not database:
            raise ImproperlyConfigured(f"{name} names no database: {_redact(raw)!r}.")
        try:
            port = str(parts.port or "")
        except ValueError:
            raise ImproperlyConfigured(f"{name} has a malformed port: {_redact(raw)!r}.") from None
        return DatabaseUrl(
            engine="django.db.backends.mysql",
            name=unquote(database),
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            host=parts.hostname or "",
            port=port,
        )
    if parts.scheme == "sqlite":
        path = unquote(parts.path)
        if parse_qs(parts.query) or not path or path == "/":
            raise ImproperlyConfigured(f"{name} must look like sqlite:////absolute/path.db; got {raw!r}.")
        return DatabaseUrl(engine="django.db.backends.sqlite3", name=path)
    raise ImproperlyConfigured(
        f"{name} must start with mysql:// (MySQL or MariaDB) or sqlite:///; got {_redact(raw)!r}."
    )


def _redact(url: str) -> str:
    """Hide a password in a URL before it reaches an error message or a log."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@", 1)
    return url
