"""A channel layer whose first join of chosen groups fails, as a Redis blip makes channels_redis fail.

Configured in a test's settings (``CHANNEL_LAYERS``), so the consumer meets it exactly as it would
meet Redis going away: ``group_add`` raises on the socket's own loop. Everything else is the real
in-memory layer.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels.layers import InMemoryChannelLayer


class GroupJoinFailsOnce(InMemoryChannelLayer):
    """The first ``group_add`` of a group named ``fail_prefix…`` fails; later ones work.

    It raises ConnectionError (a Redis that refuses), or with ``hang`` never answers (a Redis that stopped
    answering).
    """

    def __init__(self, fail_prefix: str = "", hang: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fail_prefix = fail_prefix
        self.hang = hang
        self.failed_joins: list[str] = []

    async def group_add(self, group: str, channel: str) -> None:
        if not self.failed_joins and group.startswith(self.fail_prefix):
            self.failed_joins.append(group)
            if self.hang:
                await asyncio.sleep(3600)
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        await super().group_add(group, channel)


def join_fails_once(prefix: str, *, hang: bool = False) -> dict[str, Any]:
    """Return CHANNEL_LAYERS whose first join of a group starting with ``prefix`` fails (or hangs)."""
    return {"default": {"BACKEND": "agent.tests.flaky_layer.GroupJoinFailsOnce",
                        "CONFIG": {"fail_prefix": prefix, "hang": hang}}}
