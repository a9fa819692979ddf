from django.apps import AppConfig


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Pinochle Table"

    def ready(self) -> None:
        from pinochle_site import postgres

        from . import signals  # noqa: F401  (connects the receivers)

        postgres.connect()
