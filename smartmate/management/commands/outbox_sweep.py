from django.core.management.base import BaseCommand

from smartmate.platform.outbox.services import outbox_sweep


class Command(BaseCommand):
    help = ("Run one outbox sweep now (what beat runs every OUTBOX_SWEEP_INTERVAL seconds): reclaim expired "
            "claims, re-dispatch lost and due events, delete expired idempotency records.")

    def handle(self, *args, **options) -> None:
        summary = outbox_sweep()
        self.stdout.write(" ".join(f"{name}={count}" for name, count in summary.items()))
