"""Long games: replaying 2,000 hands (goal < 50 ms), an edit of hand 1 re-settled (< 200 ms), the
whole-game pages (< 300 ms), and /history and /stats of 100 such games (< 300 ms each).

Run: make bench (``--tiny``: 50 hands and 3 games, each timed once); DATABASE_URL picks the database.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.common import TINY_HELP, say_tiny, sqlite_url  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yiwu_site.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")
if not os.environ.get("DATABASE_URL"):
    os.environ["DATABASE_URL"] = sqlite_url("yiwu-bench-long.sqlite3")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402

from scoring import services  # noqa: E402
from scoring.engine import replay  # noqa: E402
from scoring.models import Game, Hand  # noqa: E402
from scoring.replay import build, store  # noqa: E402
from scoring.rulesets.yiwu.engine import YIWU, Rules  # noqa: E402
from tests.factories import random_game  # noqa: E402

N = 2000  # hands a game (--tiny: TINY_N)
TINY_N = 50


def plain_hands(n: int) -> list[dict]:
    """Wins and draws only, so that moving the deal in hand 1 keeps every later hand valid."""
    keep = ("outcome", "winner", "win_type", "discarder")
    return [{k: v for k, v in h.items() if k in keep} for h in random_game(n, seed=3)["hands"] if "piao" not in h]


TINY = False  # --tiny: every timing once


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(1 if TINY else repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    global N, TINY
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    if args.tiny:
        N, TINY = TINY_N, True
    call_command("migrate", verbosity=0)
    Game.objects.all().delete()
    entries = plain_hands(N + 200)[:N]
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    Hand.objects.bulk_create(Hand(game=game, seq=i, entry=e) for i, e in enumerate(entries, start=1))
    store(game, build(game))
    rules = game.house_rules()
    print(f"{N}-hand game on {connection.vendor}")
    print(f"engine replay of {N} hands:                     {timed(lambda: replay(YIWU, rules, entries), 20):7.1f} ms")
    print(f"ledger replay (load {N} hands from the DB + replay): {timed(lambda: build(game), 10):7.1f} ms")
    first = Hand.objects.get(game=game, seq=1)
    # Hand 1 between 南 winning (the deal passes) and a draw: the later hands change dealers.
    winners = [{"outcome": "win", "winner": 1, "win_type": "zimo"}, {"outcome": "draw"}]
    services.edit_hand(game=game, seq=1, revision=first.revision, entry=winners[0], fix=None, edited_by="bench")
    before = dict(Hand.objects.filter(game=game).values_list("seq", "result"))
    edits = []
    for i in range(1, 3 if TINY else 7):
        first.refresh_from_db()
        start = time.perf_counter()
        services.edit_hand(
            game=game, seq=1, revision=first.revision, entry=winners[(i + 1) % 2], fix=None, edited_by="bench"
        )
        edits.append((time.perf_counter() - start) * 1000)
    after = dict(Hand.objects.filter(game=game).values_list("seq", "result"))
    changed = sum(before[seq] != after[seq] for seq in before)  # the last edit put hand 1 back
    print(
        f"edit hand 1 of {N} (replay, compare, rewrite what changed): median {statistics.median(edits):7.1f} ms (runs: {', '.join(f'{e:.0f}' for e in edits)}; {changed} results change)"
    )

    def rewrite_all() -> None:
        Hand.objects.filter(game=game).update(result=None)
        store(game, build(game))

    print(f"worst case, every one of the {N} cached results rewritten: {timed(rewrite_all, 5):7.1f} ms")
    pages(game)
    many_games(game, 3 if TINY else 100)
    reset_queries()


def pages(game: Game) -> None:
    """Whole-game pages of a 2,000-hand game: summary, CSV, settle preview, a page of the hand list."""
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    base = f"/g/{game.edit_token}/"
    client.get(base)
    settle = "settle?rate=100&fee_yuan=40&fee_mode=equal&fee_payee=0"
    for path in ("summary", "export.csv", "export.json", settle, "?page=1", ""):
        ms = timed(lambda path=path: client.get(base + path), 5)
        print(f"GET {('/' + path)[:40]:42} {ms:7.1f} ms")


def many_games(game: Game, count: int) -> None:
    """/history and /stats of a person holding ``count`` copies of ``game``: they read what is stored, so must not grow."""
    from django.contrib.auth.models import User
    from django.test import Client

    from scoring.models import SavedGame

    hands = list(Hand.objects.filter(game=game).values("seq", "entry", "result", "voided_at"))
    User.objects.filter(username="bench-long").delete()
    user = User.objects.create_user("bench-long")
    for _ in range(count - 1):
        copy = Game.objects.create(players=game.players, rules=game.rules, state=game.state)
        Hand.objects.bulk_create((Hand(game=copy, **h) for h in hands), batch_size=2000)
    SavedGame.objects.bulk_create(SavedGame(user=user, game=g, token=g.edit_token) for g in Game.objects.all())
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    print(f"{count} games of {N} hands, signed in:")
    for path in ("/history", "/stats"):
        ms = timed(lambda path=path: client.get(path), 3)
        print(f"GET {path:42} {ms:7.1f} ms")


if __name__ == "__main__":
    main()
