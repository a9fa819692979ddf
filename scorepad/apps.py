from django.apps import AppConfig


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Pinochle Table"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the receivers)
