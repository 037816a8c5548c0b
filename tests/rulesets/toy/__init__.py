"""玩具麻将 (toy): a ruleset defined only in the tests, in one folder like the real ones."""
