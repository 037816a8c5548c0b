"""A ruleset's table side that overrides nothing: the plug-in class's defaults alone."""

from scoring.entry.base import Entry

ENTRY = Entry()
