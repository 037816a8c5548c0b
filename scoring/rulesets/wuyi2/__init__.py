"""武义二人麻将: its engine (``engine/``), the table's side (``form_side.py``) and templates."""
