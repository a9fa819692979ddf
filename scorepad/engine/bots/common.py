"""What every bot shares: the error a bad answer raises, and the check that an answer is legal (§9.6).

Both live in ``engine/answers.py``, the one reader and checker of answers for bots, outside
programs and the web; a bot's bad answer is a ``BotError``, which is that module's ``AnswerError``.
"""

from __future__ import annotations

from ..answers import AnswerError as BotError
from ..answers import answer_json, answer_json_list, check_answer, refuse

__all__ = ["BotError", "answer_json", "answer_json_list", "check_answer", "refuse"]
