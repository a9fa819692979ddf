"""Static files with hashed names once collected, and plain names until then."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """whitenoise's manifest storage that falls back to a file's own name.

    Without ``collectstatic`` (a fresh ``VAR_DIR``), or for a file added since, the manifest has
    no entry and the stock storage raises, making every page a 500. The plain name is still
    served: whitenoise finds it in ``static/`` (``WHITENOISE_USE_FINDERS``).
    """

    def stored_name(self, name: str) -> str:
        try:
            return super().stored_name(name)
        except ValueError:
            return name
