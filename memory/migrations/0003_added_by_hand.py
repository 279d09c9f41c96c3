from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0002_forget'),
    ]

    operations = [
        migrations.AlterField(
            model_name='memoryitem',
            name='origin',
            field=models.CharField(choices=[('extracted', 'Learned from a conversation'), ('user', 'Edited by you'), ('added', 'Added by you')], default='extracted', max_length=16),
        ),
    ]
