"""Which pages may open our websockets: an Origin check on scheme, host and port.

A handshake is accepted when its ``Origin`` header names, after normalising default ports
(``https://x`` is ``https://x:443``):

* one of ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.edu`` also allows its subdomains, as Django's
  CSRF check does), or
* the handshake's own origin: ``https`` on a ``wss`` connection (or when ``SECURE_PROXY_SSL_HEADER``
  says a TLS proxy received it), else ``http``; host and port from its ``Host`` header; and that host is
  in ``ALLOWED_HOSTS``.

This is the rule Django's CSRF middleware applies to the Origin of a POST, so a page that may post a
form may open a socket and nothing else may. channels' ``AllowedHostsOriginValidator`` compared the
host only: ``http://`` pages and other ports on an allowed host got in. A handshake without an Origin,
with several, or with ``null`` is refused, as before (browsers always send one; API clients using a
ticket set it to the site's origin).
"""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": 80, "https": 443}


class Origin(NamedTuple):
    scheme: str
    host: str  # lower case; an IPv6 address without brackets
    port: int


def origin_parse(text: str) -> Origin | None:
    """Return the serialized origin ``scheme://host[:port]`` as a normalised tuple; None if it is not one."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.username or parts.password:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return Origin(parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme])


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether the websocket handshake in ``scope`` comes from an allowed origin (module docstring)."""
    origins = _header_values(scope, b"origin")
    origin = origin_parse(origins[0]) if len(origins) == 1 else None
    if origin is None:
        return False
    return _trusted(origin) or origin == _own_origin(scope)


def _trusted(origin: Origin) -> bool:
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        trusted = origin_parse(entry.replace("://*.", "://", 1))
        if trusted is None or (trusted.scheme, trusted.port) != (origin.scheme, origin.port):
            continue
        if origin.host == trusted.host or (wildcard and is_same_domain(origin.host, "." + trusted.host)):
            return True
    return False


def _own_origin(scope: dict[str, Any]) -> Origin | None:
    hosts = _header_values(scope, b"host")
    if len(hosts) != 1:
        return None
    domain, _port = split_domain_port(hosts[0])
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    return origin_parse(f"{'https' if _secure(scope) else 'http'}://{hosts[0]}")


def _allowed_hosts() -> list[str]:
    # What HttpRequest.get_host() allows: in debug with no ALLOWED_HOSTS, the local names.
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return settings.ALLOWED_HOSTS


def _secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy_header:
        return False
    meta_name, secure_value = proxy_header
    name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin1")
    values = _header_values(scope, name)
    # Like HttpRequest.is_secure(): the first of a comma-separated list is the client-facing proxy's.
    return bool(values) and values[0].split(",", 1)[0].strip() == secure_value


def _header_values(scope: dict[str, Any], name: bytes) -> list[str]:
    return [value.decode("latin1") for header, value in scope.get("headers", []) if header.lower() == name]


class WebsocketOriginValidator:
    """ASGI middleware: refuse a websocket handshake whose Origin ``origin_allowed`` rejects."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
