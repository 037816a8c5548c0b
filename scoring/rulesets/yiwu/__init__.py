"""义乌麻将: its engine (``engine/``), the table's side (``entry.py``, ``bets.py``) and templates."""
