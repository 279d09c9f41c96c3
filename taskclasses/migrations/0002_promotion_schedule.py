"""Schedule the quick-note promotion job every minute (django-celery-beat's database scheduler)."""

from django.db import migrations

TASK_NAME = "taskclasses.promote_due_tasks"
ENTRY_NAME = "Promote quick notes past their urgency threshold"


def create_schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = IntervalSchedule.objects.get_or_create(every=60, period="seconds")
    PeriodicTask.objects.update_or_create(
        name=ENTRY_NAME, defaults={"task": TASK_NAME, "interval": every_minute, "enabled": True, "queue": "default"}
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=ENTRY_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("taskclasses", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_schedule, remove_schedule)]
