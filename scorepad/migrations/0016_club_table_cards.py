"""One link, PIN and card per physical table for the whole night: each round's tables play under
their number's card. An event already under way keeps, for each table number, the link and PIN of
its latest round (the one its phones hold now)."""

import django.db.models.deletion
from django.db import migrations, models

import scorepad.models.clubs


def tables_to_cards(apps, schema_editor):
    ClubTable = apps.get_model("scorepad", "ClubTable")
    ClubTableCard = apps.get_model("scorepad", "ClubTableCard")
    cards = {}
    for table in ClubTable.objects.select_related("round").order_by("-round__number"):
        key = (table.round.event_id, table.number)
        if key not in cards:
            cards[key] = ClubTableCard.objects.create(
                event_id=key[0],
                number=table.number,
                token=table.token,
                pin=table.pin,
                pin_unlocks=table.pin_unlocks,
            )
        table.card = cards[key]
        table.save(update_fields=["card"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0015_club_trail_phones"),
    ]

    operations = [
        migrations.CreateModel(
            name="ClubTableCard",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                (
                    "token",
                    models.CharField(default=scorepad.models.clubs._table_token, max_length=32, unique=True),
                ),
                ("pin", models.CharField(default=scorepad.models.clubs._table_pin, max_length=4)),
                ("pin_unlocks", models.PositiveIntegerField(default=0)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="table_cards",
                        to="scorepad.clubevent",
                    ),
                ),
            ],
            options={
                "ordering": ["number"],
                "constraints": [
                    models.UniqueConstraint(fields=("event", "number"), name="unique_club_table_card")
                ],
            },
        ),
        migrations.AddField(
            model_name="clubtable",
            name="card",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="tables",
                to="scorepad.clubtablecard",
            ),
        ),
        migrations.RunPython(tables_to_cards, migrations.RunPython.noop),
    ]
