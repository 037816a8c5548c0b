"""今晚几桌: a 牌友圈's night of several tables (docs/manual.md 「今晚几桌」)."""
