"""Reserved for helper HEAL's schema change (filled in this session; empty until then)."""

from django.conf import settings
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("taskclasses", "0005_quadrantlesson"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = []
