"""``manage.py score FILE``: a hand record (RULES.md §9.3) in, the scored game (§9.4) out, as JSON."""

import json
import sys
from typing import Any, TextIO

from django.core.management.base import CommandError, CommandParser

from scorepad.engine.scoring import RecordError, score_record
from scorepad.management.base import EngineCommand


class Command(EngineCommand):
    help = "Score a game record (RULES.md §9.3) and print the scored game (§9.4) as JSON. FILE '-' is stdin."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record as a JSON file, or - to read standard input")
        parser.add_argument("--indent", type=int, default=None, help="pretty-print with this many spaces")

    def handle(self, *args: Any, file: str, indent: int | None, **options: Any) -> None:
        record = _load_json(file, options.get("stdin") or sys.stdin)
        try:
            scored = score_record(record)
        except RecordError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(scored, indent=indent))


def _load_json(file: str, stdin: TextIO) -> object:
    """The record's JSON, read from ``file`` or stdin; a ``CommandError`` naming what is wrong otherwise."""
    name = "standard input" if file == "-" else file
    try:
        if file == "-":
            text = stdin.read()
        else:
            with open(file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise CommandError(f"{name}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{name}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(
            f"{name}: not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise CommandError(f"{name}: not a record: JSON nested too deeply") from None
