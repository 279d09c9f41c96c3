"""Exams (dated anchors: countdowns, spaced revision) and the time of day tomorrow's preview starts."""

import datetime

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("schedule", "0012_student_rules"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="calendarsettings",
            name="preview_after",
            field=models.TimeField(default=datetime.time(20, 0), verbose_name="preview tomorrow from"),
        ),
        migrations.CreateModel(
            name="Exam",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("title", models.CharField(max_length=100, verbose_name="title")),
                ("date", models.DateField(verbose_name="date")),
                ("start_time", models.TimeField(blank=True, null=True, verbose_name="starts at")),
                ("end_time", models.TimeField(blank=True, null=True, verbose_name="ends at")),
                ("place", models.CharField(blank=True, max_length=100, verbose_name="place")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                ("course", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                             related_name="exams", to="schedule.course", verbose_name="course")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="exams",
                                           to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "verbose_name": "exam",
                "verbose_name_plural": "exams",
                "ordering": ["date", "start_time", "pk"],
                "indexes": [models.Index(fields=["user", "date"], name="exam_user_date")],
                "constraints": [models.CheckConstraint(
                    condition=models.Q(
                        models.Q(("start_time__isnull", True), ("end_time__isnull", True)),
                        models.Q(("start_time__isnull", False), ("end_time__isnull", False),
                                 ("end_time__gt", models.F("start_time"))),
                        _connector="OR"),
                    name="exam_times_ordered")],
            },
        ),
    ]
