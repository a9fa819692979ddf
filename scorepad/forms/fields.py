"""Form fields shared by the forms: numbers from a page bounded before any query reads them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

ROW_ID_MAX = 2**63 - 1  # the largest id either database stores (a signed 64-bit integer)
NOT_LISTED = "A choice sent is not one of this page's: reload the page and choose again."


def hidden_number(**kwargs: Any) -> forms.IntegerField:
    """A page's hidden id or version: a whole number from 0 to ``ROW_ID_MAX``, so a forged one is
    refused in words by the form, never handed on to a query or a service."""
    return forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=ROW_ID_MAX, **kwargs)


class RowsField(forms.ModelMultipleChoiceField):
    """Rows ticked on a page, by id. An id that is not a whole number in the databases' range is
    refused as any other unknown choice is, before the query: SQLite cannot even bind one to an
    ``in`` lookup (``OverflowError``)."""

    def clean(self, value: Any) -> Any:
        for pk in value if isinstance(value, list | tuple) else ():
            text = str(pk).strip()
            if not text.isascii() or not text.isdigit() or int(text) > ROW_ID_MAX:
                raise ValidationError(NOT_LISTED, code="invalid_choice")
        return super().clean(value)
