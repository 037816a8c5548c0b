"""How the entry sheets draw their fields: Django's own form templates, found first in
templates/forms/ where one of them is rewritten for speed with the same output.

Django's select.html includes a template for each option, and that one includes another for
the option's attributes: a sheet's dozen selects (seats, win types, 财神, corrections) are some
sixty options and a hundred and twenty includes, most of the entry page's time. The rewritten
select.html writes a plain option in place, byte for byte what the two includes write
(tests/web/test_it_entry_widgets.py renders every entry form both ways)."""

from pathlib import Path

import django.forms
from django.conf import settings
from django.forms.renderers import DjangoTemplates
from django.utils.functional import cached_property


class EntryRenderer(DjangoTemplates):
    """Django's default form renderer, with templates/forms/ looked in first."""

    @cached_property
    def engine(self):
        return self.backend(
            {
                "APP_DIRS": True,
                "DIRS": [
                    Path(settings.BASE_DIR) / "templates" / "forms",
                    Path(django.forms.__file__).parent / "templates",
                ],
                "NAME": "entryforms",
                "OPTIONS": {},
            }
        )


ENTRY_RENDERER = EntryRenderer()
