from django.apps import AppConfig


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Pinochle Table"
