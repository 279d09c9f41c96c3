"""Real models' habits: an assistant message records a cut answer (``truncated``) among its outcomes."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("agent", "0004_turn_lease"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="message",
            name="outcome",
            field=models.CharField(blank=True, choices=[("completed", "Completed"), ("failed", "Failed"),
                                                        ("cancelled", "Stopped"),
                                                        ("interrupted", "Waiting for the student"),
                                                        ("truncated", "Cut off at the length limit")],
                                   default="", max_length=16, verbose_name="outcome"),
        ),
    ]
