# CalendarSettings moved here from the accounts app, keeping its rows: the model enters the state on
# the table accounts left behind (accounts 0002 only forgot it), then the table takes this app's name.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import schedule.models


def _relabel_content_type(apps, schema_editor, *, old_app, new_app):
    """Carry the model's content type over, so permissions and admin history stay attached to it."""
    ContentType = apps.get_model('contenttypes', 'ContentType')
    db = schema_editor.connection.alias
    if ContentType.objects.using(db).filter(app_label=new_app, model='calendarsettings').exists():
        return
    ContentType.objects.using(db).filter(app_label=old_app, model='calendarsettings').update(app_label=new_app)


def content_type_to_schedule(apps, schema_editor):
    _relabel_content_type(apps, schema_editor, old_app='accounts', new_app='schedule')


def content_type_to_accounts(apps, schema_editor):
    _relabel_content_type(apps, schema_editor, old_app='schedule', new_app='accounts')


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_calendarsettings_to_schedule'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('schedule', '0005_preview_moves_and_notes'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='CalendarSettings',
                    fields=[
                        ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='calendar', serialize=False, to=settings.AUTH_USER_MODEL)),
                        ('semester_start', models.DateField(verbose_name='Monday of week 1')),
                        ('semester_weeks', models.PositiveSmallIntegerField(default=20, verbose_name='number of weeks')),
                        ('section_times', models.JSONField(default=schedule.models.default_section_times, validators=[schedule.models.validate_section_times], verbose_name='section times')),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        'verbose_name': 'calendar settings',
                        'verbose_name_plural': 'calendar settings',
                        'db_table': 'accounts_calendarsettings',
                        'constraints': [models.CheckConstraint(condition=models.Q(('semester_weeks__gte', 1), ('semester_weeks__lte', 30)), name='calendar_weeks_in_range')],
                    },
                ),
            ],
            database_operations=[],
        ),
        # The default table name of the model from now on: schedule_calendarsettings.
        migrations.AlterModelTable(name='calendarsettings', table=None),
        migrations.RunPython(content_type_to_schedule, content_type_to_accounts),
    ]
