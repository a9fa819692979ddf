"""The base of the engine's commands: start fast, and refuse bad input in one line; the options
and the progress bar they share."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorepad.engine.variants import Settings, SettingsError, Variant, get_variant


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


def house_rules(text: str | None) -> dict[str, Any]:
    """``--house-rules`` as the §4 overrides it names (none when it is not given), or one line
    saying why not."""
    if text is None:
        return {}
    try:
        overrides = json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"--house-rules is not JSON: {error.msg} at character {error.pos}") from None
    if not isinstance(overrides, dict):
        raise CommandError(f"--house-rules must be a JSON object of §4 keys: {text!r}")
    return overrides


def variant_rules(variant_id: str | None, house_rules_text: str | None) -> tuple[Variant, Settings]:
    """``--variant`` and ``--house-rules`` as the game's rules, or one line saying what is wrong."""
    if not variant_id:
        raise CommandError("--variant is required: classic, double-deck or six-handed")
    try:
        variant = get_variant(variant_id)
    except SettingsError as error:
        raise CommandError(str(error)) from None
    try:
        return variant, variant.settings(house_rules(house_rules_text))
    except SettingsError as error:
        raise CommandError(f"--house-rules: {error}") from None


def progress_bar(total: int, noun: str) -> Callable[[int], None]:
    """A one-line bar on stderr, redrawn with ``show(index)`` once item ``index`` (from 0) is done."""

    def show(index: int) -> None:
        done = index + 1
        bar = "#" * (30 * done // total)
        sys.stderr.write(f"\r[{bar:<30}] {noun} {done}/{total}")
        sys.stderr.flush()

    return show
