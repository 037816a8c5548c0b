"""义乌麻将: its engine (``engine/``), the table's side (``form_side.py``, ``bets.py``) and templates."""
