"""Puzzles: the ratings of the shipped puzzles and their players, and each counted try."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0010_daily_deal"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PuzzlePlayer",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("guest", models.CharField(blank=True, default="", max_length=64)),
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
                ("rating", models.FloatField(default=1500.0)),
                ("rd", models.FloatField(default=350.0)),
                ("volatility", models.FloatField(default=0.06)),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("solved", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="puzzle_ratings",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="PuzzleAttempt",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=40)),
                ("answer", models.JSONField()),
                ("solved", models.BooleanField()),
                ("rating_before", models.FloatField()),
                ("rating_after", models.FloatField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tries",
                        to="scorepad.puzzleplayer",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="PuzzleRating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=40, unique=True)),
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
                ("rating", models.FloatField()),
                ("rd", models.FloatField()),
                ("volatility", models.FloatField(default=0.06)),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("solved", models.PositiveIntegerField(default=0)),
            ],
            options={
                "indexes": [models.Index(fields=["variant", "rating"], name="puzzle_rating_by_variant")],
            },
        ),
        migrations.AddConstraint(
            model_name="puzzleplayer",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("user", "variant"),
                name="one_puzzle_rating_per_account_variant",
            ),
        ),
        migrations.AddConstraint(
            model_name="puzzleplayer",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", True)),
                fields=("guest", "variant"),
                name="one_puzzle_rating_per_guest_variant",
            ),
        ),
        migrations.AddConstraint(
            model_name="puzzleplayer",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("user__isnull", False), models.Q(("guest", ""), _negated=True), _connector="OR"
                ),
                name="puzzle_player_has_a_player",
            ),
        ),
        migrations.AddConstraint(
            model_name="puzzleattempt",
            constraint=models.UniqueConstraint(fields=("player", "key"), name="one_counted_puzzle_attempt"),
        ),
    ]
