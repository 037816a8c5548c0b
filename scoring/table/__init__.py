"""The table: the home page, a new game, the game page, recording hands, seating and the step bundle."""
