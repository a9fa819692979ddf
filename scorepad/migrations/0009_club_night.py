import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import scorepad.models.clubs


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0008_hand_entry_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ClubEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80)),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("classic", "Classic (4 players, partners)"),
                            ("double-deck", "Double-deck (4 players, partners)"),
                            ("six-handed", "Six-handed (Schoneboom family rules)"),
                        ],
                        max_length=20,
                    ),
                ),
                ("settings", models.JSONField(blank=True, default=dict)),
                (
                    "format",
                    models.CharField(
                        choices=[
                            ("teams", "Teams (fixed partnerships)"),
                            ("progressive", "Progressive (partners rotate)"),
                            ("six-handed", "Six-handed tables"),
                        ],
                        max_length=20,
                    ),
                ),
                ("rounds", models.PositiveSmallIntegerField()),
                (
                    "round_end",
                    models.CharField(
                        choices=[
                            ("target", "Play to the target"),
                            ("time", "Play to a time limit"),
                            ("hands", "A fixed number of hands"),
                        ],
                        default="target",
                        max_length=10,
                    ),
                ),
                ("round_minutes", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("hands_per_round", models.PositiveSmallIntegerField(blank=True, null=True)),
                (
                    "bye_score",
                    models.CharField(
                        choices=[
                            ("winners_average", "The winners' average of the round"),
                            ("fixed", "A fixed score"),
                            ("nothing", "Nothing"),
                        ],
                        default="winners_average",
                        max_length=20,
                    ),
                ),
                ("bye_points", models.IntegerField(default=0)),
                (
                    "status",
                    models.CharField(
                        choices=[("setup", "Checking in"), ("playing", "Playing"), ("finished", "Finished")],
                        default="setup",
                        max_length=10,
                    ),
                ),
                ("current_round", models.PositiveSmallIntegerField(default=0)),
                ("version", models.PositiveIntegerField(default=1)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "director",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "household",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="club_events",
                        to="scorepad.household",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="ClubEntrant",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                ("name", models.CharField(max_length=88)),
                ("arrived_before", models.PositiveSmallIntegerField(default=1)),
                ("left_after", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("checked_in_at", models.DateTimeField(auto_now_add=True)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entrants",
                        to="scorepad.clubevent",
                    ),
                ),
            ],
            options={
                "ordering": ["number"],
            },
        ),
        migrations.CreateModel(
            name="ClubMember",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("order", models.PositiveSmallIntegerField(default=0)),
                (
                    "entrant",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="members",
                        to="scorepad.clubentrant",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="members",
                        to="scorepad.clubevent",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="club_entries",
                        to="scorepad.player",
                    ),
                ),
            ],
            options={
                "ordering": ["entrant__number", "order"],
            },
        ),
        migrations.CreateModel(
            name="ClubRound",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                (
                    "status",
                    models.CharField(
                        choices=[("playing", "Playing"), ("closed", "Closed")],
                        default="playing",
                        max_length=10,
                    ),
                ),
                ("started_at", models.DateTimeField(auto_now_add=True)),
                ("ends_at", models.DateTimeField(blank=True, null=True)),
                ("closed_at", models.DateTimeField(blank=True, null=True)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="club_rounds",
                        to="scorepad.clubevent",
                    ),
                ),
                (
                    "sitting_out",
                    models.ManyToManyField(blank=True, related_name="byes", to="scorepad.clubentrant"),
                ),
            ],
            options={
                "ordering": ["number"],
            },
        ),
        migrations.CreateModel(
            name="ClubTable",
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
                ("seats", models.JSONField(default=list)),
                ("version", models.PositiveIntegerField(default=1)),
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="club_table",
                        to="scorepad.game",
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tables",
                        to="scorepad.clubround",
                    ),
                ),
            ],
            options={
                "ordering": ["round__number", "number"],
            },
        ),
        migrations.CreateModel(
            name="ClubResult",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("points", models.IntegerField(default=0)),
                ("won", models.BooleanField(default=False)),
                ("bye", models.BooleanField(default=False)),
                (
                    "entrant",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="results",
                        to="scorepad.clubentrant",
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="results",
                        to="scorepad.clubround",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="scorepad.clubtable",
                    ),
                ),
            ],
            options={
                "ordering": ["round__number", "entrant__number"],
            },
        ),
        migrations.CreateModel(
            name="Correction",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("hand_number", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("what", models.CharField(max_length=200)),
                ("before", models.JSONField(blank=True, null=True)),
                ("after", models.JSONField(blank=True, null=True)),
                ("reason", models.CharField(blank=True, max_length=200)),
                ("made_at", models.DateTimeField(auto_now_add=True)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="corrections",
                        to="scorepad.clubevent",
                    ),
                ),
                (
                    "made_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="scorepad.clubtable",
                    ),
                ),
            ],
            options={
                "ordering": ["-made_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="TableHand",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("entered_by", models.CharField(max_length=32)),
                ("entered_side", models.PositiveSmallIntegerField()),
                ("entered_at", models.DateTimeField(auto_now_add=True)),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("entered", "Waiting for the other side"),
                            ("confirmed", "Confirmed"),
                            ("disputed", "Disputed"),
                        ],
                        default="entered",
                        max_length=10,
                    ),
                ),
                ("confirmed_by", models.CharField(blank=True, max_length=32)),
                ("countersigned", models.BooleanField(default=False)),
                ("confirmed_at", models.DateTimeField(blank=True, null=True)),
                ("dispute", models.CharField(blank=True, max_length=200)),
                ("version", models.PositiveIntegerField(default=1)),
                (
                    "hand",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="table_hand",
                        to="scorepad.hand",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="table_hands",
                        to="scorepad.clubtable",
                    ),
                ),
            ],
            options={
                "ordering": ["table", "hand__number"],
            },
        ),
        migrations.AddConstraint(
            model_name="clubentrant",
            constraint=models.UniqueConstraint(fields=("event", "number"), name="unique_entrant_number"),
        ),
        migrations.AddConstraint(
            model_name="clubmember",
            constraint=models.UniqueConstraint(fields=("event", "player"), name="unique_club_member"),
        ),
        migrations.AddConstraint(
            model_name="clubround",
            constraint=models.UniqueConstraint(fields=("event", "number"), name="unique_club_round"),
        ),
        migrations.AddConstraint(
            model_name="clubtable",
            constraint=models.UniqueConstraint(fields=("round", "number"), name="unique_club_table"),
        ),
        migrations.AddConstraint(
            model_name="clubresult",
            constraint=models.UniqueConstraint(fields=("round", "entrant"), name="unique_club_result"),
        ),
        # The director's side: the bell rule of a time-limit round, and the prizes awarded.
        migrations.AddField(
            model_name="clubevent",
            name="bell",
            field=models.CharField(
                choices=[("finish", "It is finished and counts"), ("void", "It does not count")],
                default="finish",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="clubevent",
            name="prizes",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
