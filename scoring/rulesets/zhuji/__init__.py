"""诸暨麻将: its engine (``engine/``), the table's side (``entry.py``) and templates."""
