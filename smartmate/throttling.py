"""Rate limits whose rates are read from settings on every request (not frozen at import)."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle as _DrfScopedRateThrottle


class ScopedRateThrottle(_DrfScopedRateThrottle):
    """DRF's scoped throttle, but a changed REST_FRAMEWORK setting takes effect immediately."""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
