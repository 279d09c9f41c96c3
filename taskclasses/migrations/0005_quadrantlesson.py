"""Quick add remembers a student's own quadrant corrections (QuadrantLesson)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("taskclasses", "0004_taskitem_status_missed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="QuadrantLesson",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("keyword", models.CharField(max_length=40, verbose_name="keyword")),
                ("quadrant", models.PositiveSmallIntegerField(verbose_name="quadrant")),
                ("learned_from", models.CharField(max_length=200, verbose_name="learned from")),
                ("times", models.PositiveIntegerField(default=1, verbose_name="times corrected")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="quadrant_lessons", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "verbose_name": "learned quadrant",
                "verbose_name_plural": "learned quadrants",
                "ordering": ["-updated_at", "-pk"],
                "constraints": [
                    models.UniqueConstraint(fields=("user", "keyword"), name="quadrantlesson_user_keyword_unique"),
                    models.CheckConstraint(condition=models.Q(("quadrant__gte", 1), ("quadrant__lte", 4)),
                                           name="quadrantlesson_quadrant_1_to_4"),
                ],
            },
        ),
    ]
