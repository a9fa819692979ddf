"""The history page's filter and the forms that bring games in: a §9.3 game record (uploaded or
pasted, then seated on the roster) and a household backup."""

from __future__ import annotations

from typing import Any

from django import forms

from ..models import VARIANT_CHOICES, Household, Player
from ..services import ServiceError
from ..services.exchange import MAX_BACKUP_BYTES, MAX_RECORD_BYTES, load_json, record_check


class HistoryFilterForm(forms.Form):
    variant = forms.ChoiceField(choices=[("", "All variants"), *VARIANT_CHOICES], required=False)
    player = forms.ModelChoiceField(queryset=Player.objects.none(), required=False, empty_label="All players")
    status = forms.ChoiceField(
        choices=[("", "Finished or not"), ("finished", "Finished"), ("playing", "In progress")],
        required=False,
    )

    def __init__(self, household: Household, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        assert isinstance(player, forms.ModelChoiceField)
        player.queryset = household.players.all()


def uploaded_text(upload: Any, limit: int, what: str) -> str:
    """An uploaded file's text, refused in words when it is too big (checked before reading) or not text."""
    if upload.size > limit:
        raise forms.ValidationError(f"This is too big for {what}: at most {limit:,} bytes.")
    try:
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise forms.ValidationError("The file is not a text file (UTF-8): choose the .json export.") from None


def parsed_json(text: str, limit: int, what: str) -> Any:
    if len(text) > limit:
        raise forms.ValidationError(f"This is too big for {what}: at most {limit:,} bytes.")
    if not text.strip():
        raise forms.ValidationError(f"Choose a file or paste {what}.")
    try:
        return load_json(text)
    except ServiceError as error:
        raise forms.ValidationError(str(error)) from None


class ImportForm(forms.Form):
    """A §9.3 game record, uploaded or pasted; cleaning parses and scores it with the engine."""

    file = forms.FileField(required=False, label="Game file (.json)")
    record = forms.CharField(required=False, label="…or paste the game record", widget=forms.Textarea)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload, what = cleaned.get("file"), "a JSON game record"
        text = uploaded_text(upload, MAX_RECORD_BYTES, what) if upload else cleaned.get("record", "")
        data = parsed_json(text, MAX_RECORD_BYTES, what)
        try:
            cleaned["variant"], _settings, _entries, cleaned["scored"] = record_check(data)
        except ServiceError as error:
            raise forms.ValidationError(f"This game record can't be imported: {error}") from None
        cleaned["text"], cleaned["data"] = text, data
        return cleaned


class SeatsForm(forms.Form):
    """Who sat where: one roster player per seat, and the first dealer (RULES.md §8)."""

    def __init__(self, household: Household, seats: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = household.players.all()
        for seat in range(seats):
            self.fields[f"seat_{seat}"] = forms.ModelChoiceField(
                queryset=players, label=f"Seat {seat + 1}", empty_label="Choose a player"
            )
        self.fields["first_dealer"] = forms.TypedChoiceField(
            choices=[(seat, f"Seat {seat + 1}") for seat in range(seats)], coerce=int, initial=0
        )
        self.seat_count = seats

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(self.seat_count)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        chosen = [cleaned.get(f"seat_{seat}") for seat in range(self.seat_count)]
        picked = [player for player in chosen if player is not None]
        if len({player.pk for player in picked}) < len(picked):
            raise forms.ValidationError("Each player takes one seat: someone is chosen twice.")
        cleaned["players"] = chosen
        return cleaned


class RestoreForm(forms.Form):
    file = forms.FileField(label="Backup file (.json)")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("file"):
            what = "a household backup"
            cleaned["data"] = parsed_json(
                uploaded_text(cleaned["file"], MAX_BACKUP_BYTES, what), MAX_BACKUP_BYTES, what
            )
        return cleaned
