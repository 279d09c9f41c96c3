from django.core.management.base import BaseCommand

from smartmate.demo import DEMO_PASSWORD, DEMO_USERNAME, seed_demo


class Command(BaseCommand):
    help = "Create or refresh the demo student with a realistic semester (idempotent)."

    def handle(self, *args, **options) -> None:
        user, summaries = seed_demo()
        for line in summaries:
            self.stdout.write(f"  {line}")
        self.stdout.write(self.style.SUCCESS(f"Demo login: {DEMO_USERNAME} / {DEMO_PASSWORD}"))
