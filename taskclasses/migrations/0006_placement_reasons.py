"""Why a study block sits where it sits: the planner's or the student's reason, kept with the block."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("taskclasses", "0005_quadrantlesson"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="taskitem",
            name="placement_reason",
            field=models.JSONField(blank=True, default=dict, verbose_name="why it is placed here"),
        ),
    ]
