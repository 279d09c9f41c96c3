"""The language of a websocket's page, read from its handshake (sockets have no LocaleMiddleware)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def socket_language(scope: dict[str, Any]) -> str:
    """Return the page's language: the language cookie, then Accept-Language, then the default."""
    candidates = [(scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")]
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _quality in parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
