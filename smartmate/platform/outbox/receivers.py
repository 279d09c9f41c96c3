"""The outbox's answer to a worker connecting to the broker (smartmate.platform.broker.broker_connected)."""

from __future__ import annotations

from smartmate.platform.outbox.services import outbox_resend_after_broker_loss


def outbox_resend_on_connect(**_signal: object) -> dict[str, int]:
    return {"outbox_events": outbox_resend_after_broker_loss()}
