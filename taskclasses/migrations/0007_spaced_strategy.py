"""The "spaced" strategy: a task class revising for an exam, its blocks at growing intervals before it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("taskclasses", "0006_placement_reasons"),
        ("schedule", "0013_exams"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="taskclass",
            name="exam",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                    related_name="task_classes", to="schedule.exam", verbose_name="exam"),
        ),
        migrations.AlterField(
            model_name="taskclass",
            name="strategy",
            field=models.CharField(choices=[("steady", "Steady: spread evenly"),
                                            ("rapid", "Rapid: as early as possible"),
                                            ("spaced", "Spaced: revision at growing intervals before an exam")],
                                   default="steady", max_length=8, verbose_name="strategy"),
        ),
    ]
