"""Seat numbers as the app names them: seat 0 is 东 (docs/contract.md, "players")."""

SEATS_ZH = ("东", "南", "西", "北")
SEATS_EN = ("E", "S", "W", "N")
