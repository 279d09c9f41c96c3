# CalendarSettings moved to the schedule app. Only the migration state forgets it here: the table
# and its rows stay, and schedule 0006 takes them over (then renames the table to schedule_...).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='CalendarSettings'),
            ],
            database_operations=[],
        ),
    ]
