from django.db import migrations, models
from django.db.models.functions import Now


def clock_every_open_table(apps, schema_editor):
    """Tables open before the clock: each is looked at once, which sets when it is next due."""
    apps.get_model("scorepad", "PrivateTable").objects.filter(status="open").update(due_at=Now())


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0013_club_table_pin_unlocks"),
    ]

    operations = [
        migrations.AddField(
            model_name="privatetable",
            name="due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AddField(
            model_name="tableseat",
            name="seen_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(clock_every_open_table, migrations.RunPython.noop),
    ]
