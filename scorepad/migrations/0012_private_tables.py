import django.db.models.deletion
import scorepad.models.tables
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0011_puzzles"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PrivateTable",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "link_token",
                    models.CharField(
                        default=scorepad.models.tables.new_link_token, max_length=32, unique=True
                    ),
                ),
                (
                    "code",
                    models.CharField(default=scorepad.models.tables.new_code, max_length=6, unique=True),
                ),
                ("host_name", models.CharField(max_length=40)),
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
                ("seed", models.BigIntegerField()),
                ("state", models.JSONField(default=dict)),
                ("version", models.PositiveIntegerField(default=0)),
                ("hands", models.JSONField(blank=True, default=list)),
                (
                    "status",
                    models.CharField(
                        choices=[("open", "open"), ("ended", "ended")], default="open", max_length=8
                    ),
                ),
                ("finished", models.BooleanField(default=False)),
                ("grace_seconds", models.PositiveSmallIntegerField(default=60)),
                ("turn_since", models.DateTimeField(blank=True, null=True)),
                ("bot_cpu_seconds", models.FloatField(default=0.0)),
                ("person_writes", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="scorepad.game",
                    ),
                ),
                (
                    "host",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "household",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="private_tables",
                        to="scorepad.household",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="TableMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                ("message", models.CharField(max_length=20)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="messages",
                        to="scorepad.privatetable",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="TableSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                (
                    "kind",
                    models.CharField(
                        choices=[("open", "open"), ("person", "person"), ("bot", "bot")],
                        default="open",
                        max_length=8,
                    ),
                ),
                ("name", models.CharField(blank=True, max_length=40)),
                ("strength", models.CharField(blank=True, max_length=20)),
                ("claim_key", models.CharField(blank=True, max_length=32)),
                ("covered", models.BooleanField(default=False)),
                ("quit", models.BooleanField(default=False)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="scorepad.privatetable",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["table", "seat"],
                "constraints": [models.UniqueConstraint(fields=("table", "seat"), name="unique_table_seat")],
            },
        ),
    ]
