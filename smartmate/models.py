"""Django looks for an app's models in ``<app>.models``; the smartmate app's rows live in the shared core."""

from smartmate.platform.models import ConsumerReceipt, IdempotencyRecord, OutboxEvent, OutboxProbe  # noqa: F401 - registers them

