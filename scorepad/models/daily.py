"""Placeholder: filled by the feature that owns it."""

__all__: list[str] = []
