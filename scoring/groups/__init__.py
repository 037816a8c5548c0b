"""牌友圈: a group's roster, its evenings, its standings and what is still owed."""
