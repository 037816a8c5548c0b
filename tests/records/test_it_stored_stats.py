"""/history and /stats read what every write stores (each game's totals and per-seat tallies in
``Game.state``), never the hands: the stored numbers equal a full replay after every kind of
write, and the work per request does not grow with the games or their hands."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.engine import DEFAULT_RULESET, all_rulesets, get_ruleset
from scoring.engine.points import from_json
from scoring.engine.seating import is_seating
from scoring.models import Game, Hand
from scoring.records.exports import import_game
from scoring.replay import ReplayError, build
from tests.examples import game_examples, load
from tests.factories import random_game
from tests.helpers import game_url, record, version_of

NAMES = ["老王", "小李", "阿华", "大刘"]


def replayed_stats(games: list[Game]) -> dict:
    """What the stats page showed when it replayed every game: the reference, by name."""
    by_name: dict[str, dict] = {}
    for game in games:
        ledger = build(game)
        if not any(row.result is not None for row in ledger.rows):  # nobody played a hand: nobody's game
            continue
        for seat, name in enumerate(game.players):
            s = by_name.setdefault(name, {"games": 0, "hands": 0, "wins": 0, "zimo": 0, "discards": 0})
            s["games"] += 1
            s["net"] = s.get("net", 0) + ledger.totals[seat]
            s["best"] = max(s.get("best", ledger.totals[seat]), ledger.totals[seat])
            s["worst"] = min(s.get("worst", ledger.totals[seat]), ledger.totals[seat])
            s.setdefault("biggest", 0)
        for row in ledger.rows:
            if row.result is None:
                continue
            for seat, name in enumerate(game.players):
                by_name[name]["hands"] += 1
                by_name[name]["biggest"] = max(by_name[name]["biggest"], row.result.net[seat])
            entry = row.hand.entry
            if entry["outcome"] == "win":
                by_name[game.players[entry["winner"]]]["wins"] += 1
                if "discarder" in entry:
                    by_name[game.players[entry["discarder"]]]["discards"] += 1
                else:
                    by_name[game.players[entry["winner"]]]["zimo"] += 1
    return by_name


def page_stats(client) -> dict:
    return {
        s.name: {
            "games": s.games,
            "hands": s.hands,
            "wins": s.wins,
            "zimo": s.zimo_wins,
            "discards": s.discards,
            "net": s.net,
            "best": s.best_game,
            "worst": s.worst_game,
            "biggest": s.biggest_hand,
        }
        for s in client.get("/stats").context["stats"]
    }


def recorded(*, ruleset: str, players: list[str], rules: dict, first_dealer: int, hands: list[dict]) -> Game:
    """A game whose hands are recorded one by one, as the table does (each scored from the stored
    state, with the stored tallies updated by that one hand)."""
    engine = get_ruleset(ruleset)
    game = Game.objects.create(
        ruleset=ruleset, players=players, first_dealer=first_dealer, rules=engine.parse_rules(rules).to_dict()
    )
    for seq, entry in enumerate(hands, start=1):
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token=f"t{seq}", entered_by="")
    game.refresh_from_db()
    return game


def every_ruleset_games() -> list[Game]:
    """A long random 义乌 game (floats, feeders, 买子, 下子) and every worked example of each other
    ruleset (诸暨's halves, the 番 house rules, …), recorded hand by hand under shared names."""
    games = [recorded(ruleset="yiwu", players=NAMES, rules={}, first_dealer=0, hands=random_game(120)["hands"])]
    for ruleset in all_rulesets():
        if ruleset.code == DEFAULT_RULESET:
            continue
        for path in game_examples():
            example = load(path)
            data = example["game"]
            if data.get("ruleset", DEFAULT_RULESET) != ruleset.code or "error" in example["expect"]:
                continue  # another ruleset's, or a refused hand: no game to count
            if any(is_seating(hand) for hand in data["hands"]):
                continue  # people of its own: the seatings' stats are tests/records' seating tests
            games.append(
                recorded(
                    ruleset=ruleset.code,
                    players=["阿强", "老王", "小李", "阿华"][: ruleset.seats],
                    rules=data.get("rules", {}),
                    first_dealer=data.get("first_dealer", 0),
                    hands=data["hands"],
                )
            )
    return games


def opened(client, games: list[Game]) -> None:
    for game in games:
        assert client.get(game_url(game)).status_code == 200  # this phone remembers it


def test_stored_stats_equal_the_replay_after_record_edit_void_undo_and_import(client, db):
    games = every_ruleset_games()
    opened(client, games)
    assert page_stats(client) == replayed_stats(games)

    yiwu = games[0]
    for seq in (5, 60, 90):  # void and edit in the middle; a refused one changes nothing
        hand = Hand.objects.get(game=yiwu, seq=seq)
        try:
            services.void_hand(game=yiwu, seq=seq, revision=hand.revision, reason="记错了", voided_by="")
        except ReplayError:
            pass
    first = Hand.objects.get(game=yiwu, seq=1)
    services.edit_hand(
        game=yiwu,
        seq=1,
        revision=first.revision,
        entry={"outcome": "win", "winner": 3, "win_type": "pinghu", "discarder": 0},
        fix=None,
        edited_by="",
    )
    zhuji = games[1]
    undone = client.get(game_url(zhuji) + "undo")  # 撤销上一局 → the void page, confirmed
    last = Hand.objects.filter(game=zhuji).order_by("-seq").first()
    data = {"reason": "撤销上一局", "revision": last.revision, "version": version_of(zhuji)}
    assert client.post(undone.url, data).status_code == 302
    assert Hand.objects.get(pk=last.pk).voided
    imported = import_game({"ruleset": "yiwu", "players": NAMES[::-1], "hands": random_game(40, seed=3)["hands"]})
    opened(client, [imported])
    record(client, imported, {"outcome": "win", "winner": 2, "win_type": "zimo"})
    games = [Game.objects.get(pk=g.pk) for g in [*games, imported]]
    assert page_stats(client) == replayed_stats(games)
    for game in games:  # and game by game, what each game's row keeps
        replayed = replayed_stats([game])
        if not replayed:  # no hand stands: the row keeps nothing for anyone
            assert all(not s["hands"] and not s["wins"] for s in game.state["tally"])
            continue
        stored = [{"wins": s["wins"], "zimo": s["zimo"], "discards": s["discards"]} for s in game.state["tally"]]
        assert stored == [{k: replayed[name][k] for k in ("wins", "zimo", "discards")} for name in game.players]
        assert [from_json(s["biggest"]) for s in game.state["tally"]] == [replayed[n]["biggest"] for n in game.players]


def test_history_shows_the_replayed_totals_and_hand_counts(client, db):
    games = every_ruleset_games()[:3]
    hand = Hand.objects.get(game=games[0], seq=7)
    services.void_hand(game=games[0], seq=7, revision=hand.revision, reason="记错了", voided_by="")
    opened(client, games)
    shown = {line.game.pk: (line.totals, line.count) for line in client.get("/history").context["rows"]}
    for game in games:
        ledger = build(game)
        assert shown[game.pk] == (ledger.totals, ledger.active_count())


def queries(client, path: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def test_history_and_stats_cost_the_same_queries_for_one_game_or_many_and_read_no_hand(client, db):
    def game(hands: int) -> Game:
        return recorded(ruleset="yiwu", players=NAMES, rules={}, first_dealer=0, hands=random_game(hands)["hands"])

    opened(client, [game(3)])
    one = {path: queries(client, path) for path in ("/", "/history", "/stats")}
    opened(client, [game(30) for _ in range(8)])
    many = {path: queries(client, path) for path in ("/", "/history", "/stats")}
    assert {p: len(q) for p, q in many.items()} == {p: len(q) for p, q in one.items()}
    hand_table = Hand._meta.db_table
    assert [sql for sqls in many.values() for sql in sqls if hand_table in sql] == []


def test_verify_ledgers_reports_and_repairs_a_wrong_tally(client, db):
    from io import StringIO

    import pytest
    from django.core.management import call_command

    game = recorded(ruleset="yiwu", players=NAMES, rules={}, first_dealer=0, hands=random_game(12)["hands"])
    right = game.state["tally"]
    Game.objects.filter(pk=game.pk).update(state={**game.state, "tally": [dict(s, wins=9) for s in right]})
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("verify_ledgers", stdout=out)
    assert f"game {game.pk}: cache differs" in out.getvalue()
    call_command("verify_ledgers", "--repair", stdout=StringIO())
    game.refresh_from_db()
    assert game.state["tally"] == right
