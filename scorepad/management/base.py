"""The base of the engine's commands: start fast, and refuse bad input in one line."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class EngineCommand(BaseCommand):
    """A command that runs the pure engine: no system checks, no database, one-line errors.

    Django's parser prints argparse's whole usage block for a bad option; players and
    scripts get one line naming the option instead. ``stdin`` can be passed by tests.
    """

    requires_system_checks: list[str] = []
    stealth_options = ("stdin",)

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if parser.called_from_command_line:

            def one_line_error(message: str) -> None:
                parser.exit(2, f"{subcommand}: error: {message}\n")

            parser.error = one_line_error  # type: ignore[method-assign]
        return parser
