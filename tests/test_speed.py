"""The suite's own layout for two xdist workers (tests/speed.py ``share_out``)."""

import pytest

from tests import speed
from tests.speed import kind, share_out


class Item:
    def __init__(self, name: str, fixtures=(), transaction=None, long=False):
        self.name, self.fixturenames = name, list(fixtures)
        self.markers = {"long": pytest.mark.long.mark} if long else {}
        if transaction is not None:
            self.markers["django_db"] = pytest.mark.django_db(transaction=transaction).mark

    def get_closest_marker(self, name):
        return self.markers.get(name)

    def __repr__(self):
        return self.name


def collection():
    db = [Item(f"db{i}", transaction=False) for i in range(6)]
    browser = [Item(f"br{i}", ["live_server"], transaction=True) for i in range(4)]
    plain = [Item(f"plain{i}") for i in range(10)]
    return db + browser + plain  # as pytest-django orders them


def test_each_worker_gets_its_share_of_each_kind_in_pytest_djangos_order():
    items = collection()
    runs = share_out(items, 2)
    assert sorted(map(repr, runs)) == sorted(map(repr, items))  # nothing lost, nothing twice
    first, second = runs[:10], runs[10:]  # worksteal hands each worker an equal run
    for run in (first, second):
        kinds = [kind(item) for item in run]
        assert kinds == sorted(kinds)  # database, then transactional, then none
        assert kinds.count(0) == 3
        assert kinds.count(1) == 2
    assert [repr(i) for i in first if kind(i) == 1] == ["br0", "br2"]  # dealt in turn


def test_each_worker_starts_with_its_share_of_the_long_tests_then_keeps_pytest_djangos_order():
    long = [Item(f"long{i}", long=True) for i in range(3)]
    items = collection()[:6] + long + collection()[6:]  # as collected: among the plain tests
    runs = share_out(items, 2)
    assert sorted(map(repr, runs)) == sorted(map(repr, items))
    first, second = runs[:11], runs[11:]
    assert [repr(i) for i in first[:2]] == ["long0", "long2"]  # dealt in turn, each run's first
    assert [repr(i) for i in second[:1]] == ["long1"]
    for rest in (first[2:], second[1:]):
        assert [kind(item) for item in rest] == sorted(kind(item) for item in rest)
        assert [kind(item) for item in rest].count(0) == 3
    assert not long_marked(runs[2:11] + runs[12:])


def long_marked(items) -> list:
    return [item for item in items if item.get_closest_marker("long")]


def test_a_collection_that_cannot_be_shared_out_is_left_as_it_was():
    items = [Item(f"br{i}", ["live_server"], transaction=True) for i in range(7)]  # 4 for a run of 3
    assert share_out(items, 2) == items


def test_every_slow_test_named_is_a_test_that_exists():
    """A renamed or removed test leaves no stale name in SLOW (which would quietly put nothing aside)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    missing = [
        nodeid
        for nodeid in sorted(speed.SLOW)
        if f"def {nodeid.split('::')[-1]}(" not in (root / nodeid.split("::")[0]).read_text(encoding="utf-8")
    ]
    assert missing == []
    assert len(speed.SLOW) < 150  # the slowest twentieth at most, not a second suite
