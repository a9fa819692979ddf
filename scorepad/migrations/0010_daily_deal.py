import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0009_club_night"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="DailyDeal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("day", models.DateField()),
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
                ("seed", models.BigIntegerField()),
                ("expert_line", models.JSONField(blank=True, null=True)),
                ("expert_score", models.IntegerField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "ordering": ["-day", "variant"],
                "constraints": [models.UniqueConstraint(fields=("day", "variant"), name="unique_daily_deal")],
            },
        ),
        migrations.CreateModel(
            name="DailyPlayer",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("show_name", models.BooleanField(default=False)),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="daily",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="DailyAttempt",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("guest", models.CharField(blank=True, default="", max_length=64)),
                ("counted", models.BooleanField()),
                ("score", models.IntegerField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "game",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="daily_attempt",
                        to="scorepad.practicegame",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="daily_attempts",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "deal",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="attempts",
                        to="scorepad.dailydeal",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "indexes": [models.Index(fields=["deal", "counted", "score"], name="daily_attempt_standing")],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("counted", True), ("user__isnull", False)),
                        fields=("deal", "user"),
                        name="one_counted_daily_attempt_per_account",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("counted", True), ("user__isnull", True)),
                        fields=("deal", "guest"),
                        name="one_counted_daily_attempt_per_guest",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("user__isnull", False), models.Q(("guest", ""), _negated=True), _connector="OR"
                        ),
                        name="daily_attempt_has_a_player",
                    ),
                ],
            },
        ),
    ]
