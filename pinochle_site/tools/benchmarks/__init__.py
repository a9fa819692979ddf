"""The engine's benchmarks, run by hand (``python -m pinochle_site.tools.benchmarks.<name> --help``):
how well and how fast the bots play (``bots_benchmark``), how fast the expert searches
(``expert_benchmark``), whether conceding pays (``concede_benchmark``) and what a hand review costs
(``review_benchmark``). They import the engine and nothing of Django; ``manage.py practice_benchmark``
reads the machine's speed from ``expert_benchmark``."""
