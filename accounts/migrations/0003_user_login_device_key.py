"""Give every student a trusted-device key (accounts.login_gate binds device cookies to it)."""

import secrets

from django.db import migrations, models

import accounts.models


def _draw_keys(apps, schema_editor):
    # AddField fills existing rows with one shared value; each student gets their own.
    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk").iterator():
        User.objects.filter(pk=user.pk).update(login_device_key=secrets.token_hex(16))


class Migration(migrations.Migration):

    dependencies = [("accounts", "0002_calendarsettings_to_schedule")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="login_device_key",
            field=models.CharField(default=accounts.models.new_login_device_key, editable=False, max_length=32),
        ),
        migrations.RunPython(_draw_keys, migrations.RunPython.noop),
    ]
