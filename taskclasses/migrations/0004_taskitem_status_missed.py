"""A study block can be marked missed (it can be planned again later)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("taskclasses", "0003_taskclass_taskitem_and_more"),
    ]

    operations = [
        migrations.AlterField(
            model_name="taskitem",
            name="status",
            field=models.CharField(
                choices=[("pending", "Not placed"), ("placed", "Placed"), ("done", "Done"), ("missed", "Missed")],
                default="pending", max_length=8, verbose_name="status"),
        ),
    ]
