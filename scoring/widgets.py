"""How the entry sheets draw their fields: Django's own form templates, found first in
templates/forms/ where one of them is rewritten for speed with the same output.

Django's select.html includes a template for each option, and that one includes another for
the option's attributes: a sheet's dozen selects (seats, win types, 财神, corrections) are some
sixty options and a hundred and twenty includes. The rewritten select.html writes a plain option
in place, byte for byte what the two includes write (tests/web/test_it_entry_widgets.py renders
every entry form both ways): 义乌's 18 fields draw in a fifth less time (2.8 ms instead of 3.5
on the bench machine, their crispy wrappers included 6.3 instead of 7.4)."""

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
