"""The rulesets the app offers: one folder each (docs in ``scoring/engine/ruleset.py``).

Adding a ruleset is its folder and its code in ``INSTALLED``; nothing else in the app changes.
The order is the order the app lists them in: the home ruleset first.
"""

from importlib import import_module

INSTALLED = ("yiwu", "zhuji", "wuyi2", "hangzhou")


def load() -> None:
    """Import each installed ruleset's engine, which registers it (plain Python, no Django)."""
    for code in INSTALLED:
        import_module(f"{__name__}.{code}.engine")
