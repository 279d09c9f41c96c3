"""The student's own rules for study blocks: a daily cap, a buffer, protected times, a latest section, pins."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("schedule", "0011_suspended_meeting_event_pk"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="StudyRules",
            fields=[
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                              related_name="study_rules", serialize=False,
                                              to=settings.AUTH_USER_MODEL)),
                ("daily_cap", models.PositiveSmallIntegerField(blank=True, null=True,
                                                               verbose_name="daily cap of study blocks")),
                ("buffer_sections", models.PositiveSmallIntegerField(
                    default=0, verbose_name="free sections between study blocks")),
                ("latest_section", models.PositiveSmallIntegerField(blank=True, null=True,
                                                                    verbose_name="latest section for study")),
                ("protected_times", models.JSONField(blank=True, default=list, verbose_name="protected times")),
                ("pinned_items", models.JSONField(blank=True, default=list, verbose_name="pinned study blocks")),
                ("pinned_notes", models.JSONField(blank=True, default=list, verbose_name="pinned quick notes")),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
            options={
                "verbose_name": "study rules",
                "verbose_name_plural": "study rules",
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("daily_cap__isnull", True),
                                           models.Q(("daily_cap__gte", 1), ("daily_cap__lte", 12)), _connector="OR"),
                        name="studyrules_cap_in_range"),
                    models.CheckConstraint(condition=models.Q(("buffer_sections__lte", 4)),
                                           name="studyrules_buffer_in_range"),
                    models.CheckConstraint(
                        condition=models.Q(("latest_section__isnull", True),
                                           models.Q(("latest_section__gte", 1), ("latest_section__lte", 16)),
                                           _connector="OR"),
                        name="studyrules_latest_in_range"),
                ],
            },
        ),
    ]
