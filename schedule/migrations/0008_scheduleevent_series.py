"""The student's own repeating events: a series id shared by every occurrence (custom events only)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('schedule', '0007_changeset_direct_edits'),
    ]

    operations = [
        migrations.AddField(
            model_name='scheduleevent',
            name='series_id',
            field=models.UUIDField(blank=True, editable=False, null=True, verbose_name='series'),
        ),
        migrations.AddIndex(
            model_name='scheduleevent',
            index=models.Index(fields=['user', 'series_id'], name='event_user_series'),
        ),
        migrations.AddConstraint(
            model_name='scheduleevent',
            constraint=models.CheckConstraint(condition=models.Q(('series_id__isnull', True), ('kind', 'custom'), _connector='OR'), name='event_series_is_custom_kind'),
        ),
    ]
