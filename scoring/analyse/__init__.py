"""算牌: a hand read from its tiles at the table."""
