from django.apps import AppConfig


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Pinochle Table"

    def ready(self) -> None:
        from .views.practice import claim_practice_games_on_login  # noqa: F401  (connects the receiver)
