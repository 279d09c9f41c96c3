"""Change sets of direct edits of the board: their kind, the blocks removed and the blocks marked.

Rows written before are applies of a preview (the default kind) with nothing removed or marked.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("schedule", "0006_calendarsettings_from_accounts"),
    ]

    operations = [
        migrations.AddField(
            model_name="changeset",
            name="kind",
            field=models.CharField(
                choices=[("apply", "Preview applied"), ("move", "Block moved"), ("remove", "Block removed"),
                         ("mark", "Block marked")],
                default="apply", max_length=8),
        ),
        migrations.AddField(
            model_name="changeset",
            name="removed",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="changeset",
            name="marked",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
