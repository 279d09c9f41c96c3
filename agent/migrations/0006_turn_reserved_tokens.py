"""Conversation.turn_reserved_tokens: the quota the running turn's calls hold and have not settled yet."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("agent", "0005_models_habits"),
    ]

    operations = [
        migrations.AddField(
            model_name="conversation",
            name="turn_reserved_tokens",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
