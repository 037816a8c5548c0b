"""A ruleset's table side that overrides nothing: the plug-in class's defaults alone."""

from scoring.handform.base import FormSide

FORM_SIDE = FormSide()
