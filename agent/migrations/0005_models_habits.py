"""Reserved for helper MODELS's schema change (filled in this session; empty until then)."""

from django.conf import settings
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("agent", "0004_turn_lease"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = []
