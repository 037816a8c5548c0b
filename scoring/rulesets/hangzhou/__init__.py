"""杭州麻将: its engine (``engine/``), the table's side (``form_side.py``) and templates."""
