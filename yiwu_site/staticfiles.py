"""Static files as production serves them, also with debug on (``make run``: yiwu_site/settings.py
``static_files``)."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class CollectedStaticFiles(CompressedManifestStaticFilesStorage):
    """whitenoise's storage (fingerprinted names, gzipped copies), whose ``{% static %}`` names the
    fingerprinted file even with DEBUG on: Django's own would name the plain file in debug, which
    whitenoise then sends with no cache at all."""

    def url(self, name, force=False):
        return super().url(name, force=True)
