"""Reminders: the student's reminder settings and the reminders produced for them (taskclasses/reminders)."""

import datetime

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("taskclasses", "0007_spaced_strategy"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Reminder',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('block_starting', 'Study block starting'), ('course_starting', 'Course starting'), ('deadline_today', 'Deadline today'), ('note_urgent', 'Note became urgent'), ('plan_rotted', 'Missed blocks waiting'), ('tomorrow', 'Tomorrow')], max_length=24, verbose_name='kind')),
                ('key', models.CharField(max_length=120, verbose_name='subject')),
                ('params', models.JSONField(blank=True, default=dict, verbose_name='facts')),
                ('link', models.CharField(blank=True, max_length=200, verbose_name='link')),
                ('silent', models.BooleanField(default=False, verbose_name='silent')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('delivered_at', models.DateTimeField(blank=True, null=True, verbose_name='delivered at')),
                ('read_at', models.DateTimeField(blank=True, null=True, verbose_name='read at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reminders', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'reminder',
                'verbose_name_plural': 'reminders',
                'ordering': ['-created_at', '-pk'],
                'indexes': [models.Index(fields=['user', 'read_at'], name='reminder_user_unread')],
                'constraints': [models.UniqueConstraint(fields=('user', 'kind', 'key'), name='reminder_once_per_subject')],
            },
        ),
        migrations.CreateModel(
            name='ReminderSettings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('blocks_enabled', models.BooleanField(default=True, verbose_name='remind before study blocks')),
                ('block_lead_minutes', models.PositiveSmallIntegerField(default=10, verbose_name='minutes before a study block')),
                ('deadlines_enabled', models.BooleanField(default=True, verbose_name="remind on a deadline's day")),
                ('deadline_time', models.TimeField(default=datetime.time(9, 0), verbose_name='time of the deadline reminder')),
                ('courses_enabled', models.BooleanField(default=False, verbose_name='remind before courses')),
                ('course_lead_minutes', models.PositiveSmallIntegerField(default=15, verbose_name='minutes before a course')),
                ('quiet_start', models.TimeField(blank=True, null=True, verbose_name='quiet hours from')),
                ('quiet_end', models.TimeField(blank=True, null=True, verbose_name='quiet hours until')),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='reminder_settings', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'reminder settings',
                'verbose_name_plural': 'reminder settings',
                'constraints': [models.CheckConstraint(condition=models.Q(('block_lead_minutes__gte', 1), ('block_lead_minutes__lte', 720), ('course_lead_minutes__gte', 1), ('course_lead_minutes__lte', 720)), name='remindersettings_leads_in_range'), models.CheckConstraint(condition=models.Q(models.Q(('quiet_start__isnull', True), ('quiet_end__isnull', True)), models.Q(('quiet_start__isnull', False), ('quiet_end__isnull', False), models.Q(('quiet_start', models.F('quiet_end')), _negated=True)), _connector='OR'), name='remindersettings_quiet_hours_whole')],
            },
        ),
    ]
