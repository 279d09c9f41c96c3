"""Reserved for helper EXAMS's schema change (filled in this session; empty until then)."""

from django.conf import settings
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("taskclasses", "0006_placement_reasons"),
        ("schedule", "0013_exams"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = []
