"""Static files as production serves them, also with debug on (``make run``: yiwu_site/settings.py
``static_files``)."""

import re

import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

# The app's own scripts (static/js/, readable), by their collected names; the vendored ones come minified.
OWN_SCRIPT = re.compile(r"^js/[\w-]+(\.[0-9a-f]{12})?\.js$")


def minified(script: str) -> str:
    """``script`` as a phone needs it: rjsmin renames nothing and keeps the newlines semicolon rules need."""
    return rjsmin.jsmin(script)


class CollectedStaticFiles(CompressedManifestStaticFilesStorage):
    """whitenoise's storage, whose ``{% static %}`` names the fingerprinted file even with DEBUG on, the
    app's own scripts stored minified under their source's fingerprint."""

    def url(self, name, force=False):
        return super().url(name, force=True)

    def _save(self, name, content):
        if OWN_SCRIPT.match(name):
            content.seek(0)
            content = ContentFile(minified(content.read().decode("utf-8")).encode("utf-8"))
        return super()._save(name, content)
