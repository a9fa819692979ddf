"""The tables' links and PINs live on their cards alone (after 0016 copied them there: a separate
migration, so PostgreSQL alters the table in a transaction of its own)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0016_club_table_cards"),
    ]

    operations = [
        migrations.RemoveField(model_name="clubtable", name="token"),
        migrations.RemoveField(model_name="clubtable", name="pin"),
        migrations.RemoveField(model_name="clubtable", name="pin_unlocks"),
        migrations.AlterField(
            model_name="clubtable",
            name="card",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="tables",
                to="scorepad.clubtablecard",
            ),
        ),
    ]
